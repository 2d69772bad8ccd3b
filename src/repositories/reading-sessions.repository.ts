/**
 * Reading sessions (docs/DECISIONS.md §Reading statistics; docs/ARCHITECTURE.md §Reading sessions): the one
 * statement every progress write adds to its batch (`foldStatement`), the batch that records measured sessions
 * (POST /reading-sessions, KOReader statistics), and what the user may do with their own (export, delete,
 * device names). The statistics read model is reading-stats.repository.ts.
 */
import { and, asc, eq, gte, lt, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books, readingDeviceNames, readingSessionReceipts, readingSessions } from '../db/schema';
import { READER_HASH_ORDER } from './books.repository';
import type { InBookFold } from './read-progress.repository';
import { fromExcluded } from './upsert';
import { type Viewer, visibleBooks } from './visibility';

export type ReadingSessionRecord = typeof readingSessions.$inferSelect;

/** How sittings are told apart and how much a progress write may infer (src/reading/rules.ts). */
export interface FoldRules {
  /** Writes of one device closer than this are one sitting; the gap between them is inferred reading time. */
  mergeWindowMs: number;
  /** The least time a page takes: a write may add no more pages than its gap allows. */
  msPerPage: number;
  /** The longest a measured session may be (a device's running total that jumps further is capped to it). */
  maxSessionMs: number;
}

/** The device a write comes from, as the service attributed it (src/reading/devices.ts). */
export interface SessionDevice {
  id: string;
  name: string;
  /** The time between this device's writes counts as (inferred) reading time. */
  infers: boolean;
}

/** What a progress write tells the fold: whose, which book, where the reader is now, and whether it completes it. */
export interface FoldedWrite {
  userId: string;
  bookId: string;
  currentPage: number;
  completed: boolean;
}

/**
 * A measured session ready to be written: validated, its times normalised. Its book is an id, or a KOReader
 * document hash (`readerHash`) the batch's statements look up among the books the viewer sees, as KOReader
 * sync does (BooksRepository.findByReaderHash).
 */
export interface MeasuredSession {
  clientId: string;
  book: { id: string } | { readerHash: string };
  /** Null: the session takes the device of the sitting it lands in, else `fallbackDevice`. */
  device: { id: string; name: string } | null;
  startedAt: string;
  endedAt: string;
  measuredMs: number | null;
  pagesRead: number | null;
  finished: boolean;
}

export interface MeasuredBatch {
  userId: string;
  viewer: Viewer;
  sessions: readonly MeasuredSession[];
  /** The device of a session that names none and lands in no sitting. */
  fallbackDevice: { id: string; name: string };
  /** A session sent again replaces what it wrote (a KOReader database is re-read whole); else it changes nothing. */
  replaceRepeats: boolean;
  now: string;
}

export interface MeasuredOutcome {
  /** Client ids whose book the viewer does not see (or that does not exist). */
  unknownBook: string[];
  /** Client ids of the batch received before it (their receipts were there already). */
  known: string[];
  /** Current progress of every book the batch touched. */
  progress: Array<{ bookId: string; currentPage: number; completed: boolean }>;
}

/** A user's stored sessions as the export lists them. */
export interface ExportedSession {
  id: string;
  bookId: string;
  bookTitle: string;
  seriesName: string;
  deviceId: string;
  deviceName: string;
  startedAt: string;
  endedAt: string;
  measuredMs: number | null;
  inferredMs: number | null;
  pagesRead: number | null;
  finished: boolean;
}

/** A fold's book and position as SQL, and where it reads them (one row: a literal, or the book a write reads). */
interface FoldSource {
  userId: string;
  bookId: SQL;
  currentPage: SQL;
  completed: SQL;
  from: SQL;
  where: SQL[];
  order: readonly SQLWrapper[];
}

/** One session measured by a client spans at most one JSON row per chunk; D1 takes a few MB per statement. */
const MEASURED_CHUNK = 1000;

/** The statements of one chunk of a measured batch, in batch order. */
const CHUNK_STATEMENTS = 5;

/** The preference that pauses recording (PREFERENCE_DEFINITIONS `stats.recording`), tested in SQL. */
const RECORDING_PAUSED = (userId: string) =>
  sql`EXISTS (SELECT 1 FROM user_preferences AS paused WHERE paused.user_id = ${userId}
    AND paused.key = 'stats.recording' AND paused.value = 'false')`;

/** Milliseconds from ISO time `a` to `b` (SQLite julian days), never negative. */
const msBetween = (a: SQL, b: SQL) =>
  sql`max(0, CAST(round((julianday(${b}) - julianday(${a})) * 86400000) AS INTEGER))`;

export class ReadingSessionsRepository {
  constructor(
    private readonly db: Database,
    private readonly rules: FoldRules,
  ) {}

  /**
   * The statement a progress write adds to its batch, before the write itself (it reads the position the
   * write moves from): the device's open sitting of the book — its last one, ended within the merge window —
   * is extended to `at`, or a new one is opened. A device that infers adds the gap since its last write as
   * inferred time (at most the window: a longer gap opens a new sitting) and the pages moved forward, no more
   * than the gap allows at `msPerPage` a page; the sitting finishes the book when this write completes a book
   * that was not completed. One INSERT … SELECT … ON CONFLICT: no read before the write, so it costs the batch
   * one statement and no round trip. Nothing is written while the user has paused recording, nor, for a
   * write that only moves forward (`forwardOnly`: OPDS page streaming), when the write will not move the
   * position (the same rule as read-progress.repository.ts `advance`, read from the position before it).
   */
  foldStatement(write: FoldedWrite, device: SessionDevice, at: string, { forwardOnly = false } = {}) {
    return this.fold(
      {
        userId: write.userId,
        bookId: sql`${write.bookId}`,
        currentPage: sql`${write.currentPage}`,
        completed: sql`${write.completed ? 1 : 0}`,
        from: sql`(SELECT 1) AS one`,
        where: [],
        order: [],
      },
      device,
      at,
      forwardOnly,
    );
  }

  /**
   * `foldStatement` of a write that reads its book in its own statement (read-progress.repository.ts
   * `writeInBook`): the book, the position and the credential test are the write's own (`inBook`), so the
   * sitting is folded exactly when the position is written — a refused credential, an unknown book or a page
   * the book does not have fold nothing.
   */
  foldInBookStatement(userId: string, inBook: InBookFold, device: SessionDevice, at: string) {
    return this.fold(
      {
        userId,
        bookId: inBook.bookId,
        currentPage: inBook.currentPage,
        completed: inBook.completed,
        from: sql`${books}`,
        where: [inBook.where],
        order: inBook.order,
      },
      device,
      at,
      false,
    );
  }

  private fold(write: FoldSource, device: SessionDevice, at: string, forwardOnly: boolean) {
    const { mergeWindowMs, msPerPage } = this.rules;
    const windowStart = new Date(Date.parse(at) - mergeWindowMs).toISOString();
    const windowEnd = new Date(Date.parse(at) + mergeWindowMs).toISOString();
    const open = sql.raw('open');
    const previous = sql.raw('previous');
    const infers = device.infers ? 1 : 0;
    const { currentPage, completed } = write;
    // Where the forward move starts: the sitting's last page, else the stored position, else the first page.
    const fromPage = sql`coalesce(${open}.last_page, ${previous}.current_page, 1)`;
    const sinceLastWrite = msBetween(sql`coalesce(${open}.ended_at, ${previous}.updated_at, ${at})`, sql`${at}`);
    const pageBudget = sql`min(${mergeWindowMs}, ${sinceLastWrite}) / ${msPerPage}`;
    const forward = sql`min(max(0, ${currentPage} - ${fromPage}), ${pageBudget})`;
    const gap = sql`CASE WHEN ${open}.id IS NULL THEN 0 ELSE ${msBetween(sql`${open}.ended_at`, sql`${at}`)} END`;
    const moves = sql`(${previous}.id IS NULL OR (${previous}.completed = 0
      AND (${previous}.current_page < ${currentPage} OR ${completed} = 1)))`;
    const conditions = [sql`NOT ${RECORDING_PAUSED(write.userId)}`, ...write.where, ...(forwardOnly ? [moves] : [])];
    const order = write.order.length ? sql` ORDER BY ${sql.join([...write.order], sql`, `)} LIMIT 1` : sql``;
    // The open sitting is picked by a scalar subquery in the join's condition: it may then read the book the
    // statement selects (`bookId` is a column of `books` when the write reads its book).
    return this.db
      .insert(readingSessions)
      .select(
        sql`SELECT coalesce(${open}.id, ${crypto.randomUUID()}), ${write.userId}, ${write.bookId}, ${device.id},
            ${device.name}, coalesce(${open}.started_at, ${at}),
            CASE WHEN ${open}.ended_at > ${at} THEN ${open}.ended_at ELSE ${at} END,
            ${open}.measured_ms,
            CASE WHEN ${infers} THEN coalesce(${open}.inferred_ms, 0) + ${gap} ELSE ${open}.inferred_ms END,
            CASE WHEN ${infers} THEN coalesce(${open}.pages_read, 0) + ${forward} ELSE ${open}.pages_read END,
            ${currentPage},
            coalesce(${open}.finished, 0) OR (${completed} AND coalesce(${previous}.completed, 0) = 0)
          FROM ${write.from}
          LEFT JOIN reading_sessions AS ${open} ON ${open}.id = (
            SELECT sitting.id FROM reading_sessions AS sitting
            WHERE sitting.user_id = ${write.userId} AND sitting.book_id = ${write.bookId}
              AND sitting.device_id = ${device.id}
              AND sitting.ended_at >= ${windowStart} AND sitting.started_at <= ${windowEnd}
            ORDER BY sitting.ended_at DESC LIMIT 1
          )
          LEFT JOIN read_progress AS ${previous} ON ${previous}.user_id = ${write.userId}
            AND ${previous}.book_id = ${write.bookId}
          WHERE ${sql.join(conditions, sql` AND `)}${order}`,
      )
      .onConflictDoUpdate({
        target: readingSessions.id,
        set: fromExcluded(readingSessions, [
          'deviceName',
          'endedAt',
          'inferredMs',
          'pagesRead',
          'lastPage',
          'finished',
        ]),
      });
  }

  /**
   * Measured sessions, in one batch (all written or none): for each session of a book the viewer sees and a
   * client id not received before, a receipt, then the session — into the sitting it overlaps on the same
   * device (any device when it names none) that holds no measured time yet, whose inferred time it replaces,
   * or as a sitting of its own. A repeated client id changes nothing, unless `replaceRepeats`, when its sitting
   * takes the new figures. Each chunk of the batch also reads, before it writes, which of its sessions have no
   * visible book and which were received before; the batch's last statement reads the progress of the books
   * it names by id.
   */
  async recordMeasured(batch: MeasuredBatch): Promise<MeasuredOutcome> {
    const batchId = crypto.randomUUID();
    const chunks: MeasuredSession[][] = [];
    for (let i = 0; i < batch.sessions.length; i += MEASURED_CHUNK) {
      chunks.push(batch.sessions.slice(i, i + MEASURED_CHUNK));
    }
    const statements = chunks.flatMap((chunk) => this.measuredStatements(batch, batchId, chunk));
    const ids = [...new Set(batch.sessions.flatMap((s) => ('id' in s.book ? [s.book.id] : [])))];
    const visible = visibleBooks(batch.viewer, { seriesId: sql`b.series_id`, libraryId: sql`b.library_id` });
    // Builders over SQL sources (not `db.all`): this drizzle batches raw statements only without parameters.
    const progress = this.db
      .select({
        bookId: sql<string>`p.book_id`,
        currentPage: sql<number>`p.current_page`,
        completed: sql<number>`p.completed`,
      })
      .from(sql`read_progress AS p JOIN books AS b ON b.id = p.book_id`)
      .where(
        sql`p.user_id = ${batch.userId} AND p.book_id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND ${visible}`,
      );
    const results = await this.db.batch([...statements, progress] as unknown as [typeof progress]);
    const column = (offset: number) =>
      chunks.flatMap((_, i) =>
        (results[i * CHUNK_STATEMENTS + offset] as unknown as Array<{ clientId: string }>).map((r) => r.clientId),
      );
    const progressRows = results[results.length - 1] as Array<{
      bookId: string;
      currentPage: number;
      completed: number;
    }>;
    return {
      unknownBook: column(0),
      known: column(1),
      progress: progressRows.map((r) => ({
        bookId: r.bookId,
        currentPage: r.currentPage,
        completed: r.completed === 1,
      })),
    };
  }

  /**
   * The statements of one chunk of a measured batch (CHUNK_STATEMENTS of them): the sessions whose book the
   * viewer does not see, those received before, then the receipts, the repeats' new figures and the new sessions.
   */
  private measuredStatements(batch: MeasuredBatch, batchId: string, chunk: readonly MeasuredSession[]) {
    const { userId, viewer, now, fallbackDevice } = batch;
    const rows = JSON.stringify(
      chunk.map((s) => ({
        clientId: s.clientId,
        bookId: 'id' in s.book ? s.book.id : undefined,
        readerHash: 'readerHash' in s.book ? s.book.readerHash.toLowerCase() : undefined,
        sessionId: crypto.randomUUID(),
        deviceId: s.device?.id,
        deviceName: s.device?.name,
        startedAt: s.startedAt,
        endedAt: s.endedAt,
        measuredMs: s.measuredMs,
        pagesRead: s.pagesRead,
        finished: s.finished,
      })),
    );
    const visible = visibleBooks(viewer, { seriesId: sql`b.series_id`, libraryId: sql`b.library_id` });
    // Each row with its book: the id it names, or the book KOReader means by the hash (the live one first, then
    // the oldest), among those the viewer sees.
    // (The subquery reads `books` unaliased, as BooksRepository.findByReaderHash does: its columns are that row's.)
    const byHash = sql`(SELECT ${books.id} FROM ${books}
      WHERE ${books.readerHash} = j.value ->> 'readerHash' AND ${visibleBooks(viewer, books)}
      ORDER BY ${sql.join(READER_HASH_ORDER, sql`, `)} LIMIT 1)`;
    const source = sql`(SELECT j.value AS value, coalesce(j.value ->> 'bookId', ${byHash}) AS book_id
      FROM json_each(${rows}) AS j) AS j`;
    // The sitting a session lands in: same user and book, overlapping it (give or take the window), holding no
    // measured time, on the session's device when it names one; the latest of them.
    const window = this.rules.mergeWindowMs;
    const sitting = sql`(SELECT target.id FROM reading_sessions AS target
      WHERE target.user_id = ${userId} AND target.book_id = j.book_id AND target.measured_ms IS NULL
        AND target.ended_at >= strftime('%Y-%m-%dT%H:%M:%fZ', j.value ->> 'startedAt', ${`-${window / 1000} seconds`})
        AND target.started_at <= strftime('%Y-%m-%dT%H:%M:%fZ', j.value ->> 'endedAt', ${`+${window / 1000} seconds`})
        AND (j.value ->> 'deviceId' IS NULL OR target.device_id = j.value ->> 'deviceId')
      ORDER BY target.ended_at DESC LIMIT 1)`;
    const unknown = this.db
      .select({ clientId: sql<string>`j.value ->> 'clientId'` })
      .from(source)
      .where(sql`NOT EXISTS (SELECT 1 FROM books AS b WHERE b.id = j.book_id AND ${visible})`);
    const known = this.db
      .select({ clientId: readingSessionReceipts.clientId })
      .from(readingSessionReceipts)
      .where(
        sql`${readingSessionReceipts.userId} = ${userId} AND ${readingSessionReceipts.clientId} IN
          (SELECT value ->> 'clientId' FROM json_each(${rows}))`,
      );
    const receipts = this.db
      .insert(readingSessionReceipts)
      .select(
        // Paused (the preference stats.recording): no receipt, so nothing below is written either; the session is
        // still answered as accepted, so its client lets it go, as the user asked.
        sql`SELECT ${userId}, j.value ->> 'clientId', coalesce(${sitting}, j.value ->> 'sessionId'), ${batchId}, ${now}, 0
          FROM ${source} JOIN books AS b ON b.id = j.book_id
          WHERE ${visible} AND NOT ${RECORDING_PAUSED(userId)}`,
      )
      .onConflictDoUpdate({
        target: [readingSessionReceipts.userId, readingSessionReceipts.clientId],
        set: { batchId: sql`excluded.batch_id`, replaced: sql`1` },
        setWhere: batch.replaceRepeats ? sql`TRUE` : sql`FALSE`,
      });
    // Sessions sent again to replace their figures (replaceRepeats): each sitting takes the sum of those that
    // landed in it (a KOReader sitting re-read whole). Before the new sessions, which add to what this leaves.
    const repeats = sql`(SELECT r.session_id AS id, min(j.value ->> 'startedAt') AS started_at,
        max(j.value ->> 'endedAt') AS ended_at, sum(j.value ->> 'measuredMs') AS measured_ms,
        sum(j.value ->> 'pagesRead') AS pages_read, max(j.value ->> 'finished') AS finished
      FROM reading_session_receipts AS r JOIN json_each(${rows}) AS j ON j.value ->> 'clientId' = r.client_id
      WHERE r.user_id = ${userId} AND r.batch_id = ${batchId} AND r.replaced = 1
      GROUP BY r.session_id) AS repeats`;
    const replaced = this.db
      .update(readingSessions)
      .set({
        startedAt: sql`min(${readingSessions.startedAt}, repeats.started_at)`,
        endedAt: sql`max(${readingSessions.endedAt}, repeats.ended_at)`,
        measuredMs: sql`repeats.measured_ms`,
        inferredMs: null,
        pagesRead: sql`repeats.pages_read`,
        finished: sql`${readingSessions.finished} OR repeats.finished`,
      })
      .from(repeats)
      .where(sql`${readingSessions.id} = repeats.id`);
    const fresh = this.db
      .insert(readingSessions)
      .select(
        sql`SELECT r.session_id, ${userId}, j.book_id,
            coalesce(j.value ->> 'deviceId', ${fallbackDevice.id}), coalesce(j.value ->> 'deviceName', ${fallbackDevice.name}),
            j.value ->> 'startedAt', j.value ->> 'endedAt', j.value ->> 'measuredMs', NULL, j.value ->> 'pagesRead', NULL,
            j.value ->> 'finished'
          FROM reading_session_receipts AS r JOIN ${source} ON j.value ->> 'clientId' = r.client_id
          WHERE r.user_id = ${userId} AND r.batch_id = ${batchId} AND r.replaced = 0`,
      )
      .onConflictDoUpdate({
        target: readingSessions.id,
        set: {
          startedAt: sql`min(${readingSessions.startedAt}, excluded.started_at)`,
          endedAt: sql`max(${readingSessions.endedAt}, excluded.ended_at)`,
          // The first measured session of a sitting takes the place of what was inferred; another session of
          // this batch that lands in the same sitting adds to it.
          measuredMs: sql`CASE WHEN ${readingSessions.measuredMs} IS NULL THEN excluded.measured_ms
            ELSE ${readingSessions.measuredMs} + coalesce(excluded.measured_ms, 0) END`,
          inferredMs: sql`NULL`,
          pagesRead: sql`CASE WHEN ${readingSessions.measuredMs} IS NULL
            THEN coalesce(excluded.pages_read, ${readingSessions.pagesRead})
            ELSE coalesce(${readingSessions.pagesRead}, 0) + coalesce(excluded.pages_read, 0) END`,
          finished: sql`${readingSessions.finished} OR excluded.finished`,
        },
      });
    return [unknown, known, receipts, replaced, fresh] as const;
  }

  /**
   * The statement a device's running total of reading time adds to the batch that stores it (a Kobo's
   * `SpentReadingMinutes`, reading-statistics.repository.ts `report`), placed before the total is replaced: what
   * the total grew since the device's last report (all of it, on its first) is measured time ending at `at` —
   * added to the device's sitting of the book the window holds (the one this request's progress write just
   * folded into), or a sitting of its own; the sitting then starts no later than its measured time before `at`.
   * A device that counts its own time is not inferred: that sitting's
   * inferred time is dropped on every report, grown or not. A total that went down (the device was reset) adds
   * nothing; a growth beyond `maxSessionMs` counts as that much. One INSERT … SELECT … ON CONFLICT, reading the
   * stored total in SQL: no read before the write, no round trip.
   */
  spentTimeStatement(report: {
    userId: string;
    bookId: string;
    device: { id: string; name: string };
    spentReadingMinutes: number;
    at: string;
    /** The progress write's own condition over `books` (a guarded write): no session unless it holds. */
    written?: SQL;
  }) {
    const { userId, bookId, device, at } = report;
    const guard = report.written ? sql` AND EXISTS (SELECT 1 FROM ${books} WHERE ${report.written})` : sql``;
    const { mergeWindowMs, maxSessionMs } = this.rules;
    const windowStart = new Date(Date.parse(at) - mergeWindowMs).toISOString();
    const windowEnd = new Date(Date.parse(at) + mergeWindowMs).toISOString();
    const open = sql.raw('open');
    const grown = sql`max(0, min(${maxSessionMs}, (${report.spentReadingMinutes} - coalesce((SELECT
        stored.spent_reading_minutes FROM reading_statistics AS stored WHERE stored.user_id = ${userId}
        AND stored.book_id = ${bookId} AND stored.device_id = ${device.id}), 0)) * 60000))`;
    const measured = sql`coalesce(${open}.measured_ms, 0) + delta.ms`;
    // The sitting reaches back at least as far as the time it holds: never more reading than its span.
    const from = sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${at}, '-' || ((${measured}) / 1000.0) || ' seconds')`;
    return this.db
      .insert(readingSessions)
      .select(
        sql`SELECT coalesce(${open}.id, ${crypto.randomUUID()}), ${userId}, ${bookId}, ${device.id}, ${device.name},
            CASE WHEN ${open}.started_at < ${from} THEN ${open}.started_at ELSE ${from} END,
            CASE WHEN ${open}.ended_at > ${at} THEN ${open}.ended_at ELSE ${at} END,
            ${measured}, NULL, ${open}.pages_read, ${open}.last_page,
            coalesce(${open}.finished, 0)
          FROM (SELECT ${grown} AS ms) AS delta
          LEFT JOIN reading_sessions AS ${open} ON ${open}.id = (
            SELECT sitting.id FROM reading_sessions AS sitting
            WHERE sitting.user_id = ${userId} AND sitting.book_id = ${bookId} AND sitting.device_id = ${device.id}
              AND sitting.ended_at >= ${windowStart} AND sitting.started_at <= ${windowEnd}
            ORDER BY sitting.ended_at DESC LIMIT 1
          )
          WHERE (delta.ms > 0 OR ${open}.id IS NOT NULL) AND NOT ${RECORDING_PAUSED(userId)}${guard}`,
      )
      .onConflictDoUpdate({
        target: readingSessions.id,
        set: { ...fromExcluded(readingSessions, ['startedAt', 'endedAt', 'measuredMs']), inferredMs: sql`NULL` },
      });
  }

  /** The user's sessions on books the viewer sees, oldest first (the export). */
  async exportFor(viewer: Viewer): Promise<ExportedSession[]> {
    const rows = await this.db.all<Omit<ExportedSession, 'finished'> & { finished: number }>(sql`
      SELECT s.id AS id, s.book_id AS bookId, b.title AS bookTitle, se.title AS seriesName, s.device_id AS deviceId,
        coalesce(named.name, s.device_name) AS deviceName, s.started_at AS startedAt, s.ended_at AS endedAt,
        s.measured_ms AS measuredMs, s.inferred_ms AS inferredMs, s.pages_read AS pagesRead, s.finished AS finished
      FROM reading_sessions AS s
      JOIN books AS b ON b.id = s.book_id
      JOIN series AS se ON se.id = b.series_id
      LEFT JOIN reading_device_names AS named ON named.user_id = s.user_id AND named.device_id = s.device_id
      WHERE s.user_id = ${viewer.userId} AND ${visibleBooks(viewer, { seriesId: sql`b.series_id`, libraryId: sql`b.library_id` })}
      ORDER BY s.started_at, s.id`);
    return rows.map((row) => ({ ...row, finished: row.finished === 1 }));
  }

  /** Deletes every session (and receipt) of the user. */
  async deleteAllOf(userId: string): Promise<void> {
    await this.db.batch([
      this.db.delete(readingSessions).where(eq(readingSessions.userId, userId)),
      this.db.delete(readingSessionReceipts).where(eq(readingSessionReceipts.userId, userId)),
    ]);
  }

  /** Names one of the user's devices; null gives it back its own name. False when the user has no such device. */
  async renameDevice(userId: string, deviceId: string, name: string | null, now: string): Promise<boolean> {
    const owned = sql`EXISTS (SELECT 1 FROM reading_sessions AS s WHERE s.user_id = ${userId} AND s.device_id = ${deviceId})`;
    if (name === null) {
      const [found] = await this.db.batch([
        this.db.select({ n: sql<number>`${owned}` }).from(sql`(SELECT 1)`),
        this.db
          .delete(readingDeviceNames)
          .where(and(eq(readingDeviceNames.userId, userId), eq(readingDeviceNames.deviceId, deviceId))),
      ]);
      return found[0]?.n === 1;
    }
    const written = await this.db
      .insert(readingDeviceNames)
      .select(sql`SELECT ${userId}, ${deviceId}, ${name}, ${now} WHERE ${owned}`)
      .onConflictDoUpdate({
        target: [readingDeviceNames.userId, readingDeviceNames.deviceId],
        set: fromExcluded(readingDeviceNames, ['name', 'updatedAt']),
      })
      .returning({ deviceId: readingDeviceNames.deviceId });
    return written.length > 0;
  }

  /**
   * Removes sessions that started before `cutoff` (the retention setting), at most `limit` of them, oldest
   * first, and receipts received before it; returns how many sessions went.
   */
  async pruneBefore(cutoff: string, limit: number): Promise<number> {
    const oldest = this.db
      .select({ id: readingSessions.id })
      .from(readingSessions)
      .where(lt(readingSessions.startedAt, cutoff))
      .orderBy(asc(readingSessions.startedAt))
      .limit(limit);
    const [removed] = await this.db.batch([
      this.db
        .delete(readingSessions)
        .where(sql`${readingSessions.id} IN ${oldest}`)
        .returning({ id: readingSessions.id }),
      this.db.delete(readingSessionReceipts).where(lt(readingSessionReceipts.receivedAt, cutoff)),
    ]);
    return removed.length;
  }

  /** The user's sessions in [from, to) (tests and the bench read them). */
  async between(userId: string, from: string, to: string): Promise<ReadingSessionRecord[]> {
    return this.db
      .select()
      .from(readingSessions)
      .where(
        and(
          eq(readingSessions.userId, userId),
          gte(readingSessions.startedAt, from),
          lt(readingSessions.startedAt, to),
        ),
      )
      .orderBy(asc(readingSessions.startedAt));
  }
}
