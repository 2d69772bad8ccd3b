/**
 * A user's reading progress (API.md §2 ReadProgress): one row per (user, book), written as an upsert
 * so concurrent devices never create duplicates, keeping `startedAt` and the first `completedAt`.
 */
import { and, count, desc, eq, inArray, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import { books, readProgress } from '../db/schema';
import { type BookPaging, pagingColumns, READER_HASH_ORDER } from './books.repository';
import { progressOf } from './catalog-sql';
import { credentialStillGrants, type GuardedCaller } from './credential-guard';
import { positionSql, type SentPosition } from './progress-position';
import { recountSeriesProgress, seriesIdList, seriesOfBooks } from './series-read-progress';
import { fromExcluded } from './upsert';
import { type Viewer, visibleBooks } from './visibility';

export type ReadProgressRecord = typeof readProgress.$inferSelect;

/**
 * A statement a write runs first in its own batch: the reading-statistics fold (reading-sessions.repository.ts
 * `foldStatement`), which reads the position the write moves from. One more statement, no more round trips.
 */
export type BeforeWrite = BatchItem<'sqlite'>;

/**
 * What a write that reads its book in its own statement tells the statement it runs first (`BeforeWrite`):
 * the book it writes (a condition over `books`: the book the viewer sees, the position valid in it and the
 * credential holding — so a refused write folds nothing either), the position as SQL over the book's row, and
 * the order that picks one book of a KOReader document hash.
 */
export interface InBookFold {
  where: SQL;
  bookId: SQL;
  currentPage: SQL;
  completed: SQL;
  order: readonly SQLWrapper[];
}
/**
 * Statements a reader app writes beside a write that reads its book in its own statement (a Kobo's reading time,
 * what its device was sent), given that statement's condition over `books` (the book, the position valid in it,
 * `also`, the credential): each tests it too, so a refused write leaves nothing beside it either.
 */
export type GuardedAlongside = (where: SQL) => readonly AlongsideWrite[];

/** A condition over `books` a repository made (what a Kobo's device may have), for a write to test its book by. */
export type BookCondition = SQL;

/** Whom a write that reads its book in its own statement is for, and what it tests besides the viewer's access. */
export interface InBookGuard {
  viewer: Viewer;
  /** Whose credential the write tests (credential-guard.ts); none: the write is not guarded. */
  caller?: GuardedCaller;
  /** What else the book must be (a Kobo: a book its device may have). */
  also?: BookCondition;
  now: string;
}

/** What a progress write that reads its book in the same statement records beside the position. */
export interface InBookWrite extends InBookGuard {
  deviceId: string;
  deviceName: string;
  readerDevice?: { id: string; name: string } | null;
  /** Written in the same batch, after the progress, under the same condition. */
  alongside?: GuardedAlongside;
}

/**
 * What a write that reads its book in the same statement found in its batch: the book as the viewer sees it
 * (undefined: none, so nothing was written) and whether the credential held (false: nothing was written).
 */
export interface InBookOutcome {
  book: BookPaging | undefined;
  credentialHolds: boolean;
}

/**
 * The row written; or, when nothing was, the book as the viewer sees it (undefined: none) and whether the
 * credential still held (a book and a credential that held: the position was not one the book has).
 */
export type InBookWriteResult = { written: ReadProgressRecord } | ({ written: null } & InBookOutcome);

/** A book's paging facts and the viewer's progress in it (null: none). */
export interface BookProgress {
  book: BookPaging;
  progress: ReadProgressRecord | null;
}

/**
 * A statement another repository made to be written in the same batch (one transaction) as a progress write:
 * what a reader app records beside the position (a Kobo's reading time).
 */
export type AlongsideWrite = BatchItem<'sqlite'>;

export interface ProgressWrite {
  userId: string;
  bookId: string;
  currentPage: number;
  completed: boolean;
  progressPercentage: number | null;
  deviceId: string;
  deviceName: string;
  /** How the reader app named its device, when it did; a write without one clears the last one's. */
  readerDevice?: { id: string; name: string } | null;
  /** undefined: an existing row keeps its locator; null clears it. */
  locator?: string | null;
  now: string;
}

/** A progress row a migration brings from another server (docs/DECISIONS.md §Coming from Komga or Kavita). */
export interface ImportedProgress {
  userId: string;
  bookId: string;
  seriesId: string;
  currentPage: number;
  completed: boolean;
  completedAt: string | null;
  progressPercentage: number;
  locator: string | null;
  deviceId: string;
  deviceName: string;
  readerDevice: { id: string; name: string } | null;
  startedAt: string;
  updatedAt: string;
}

/** A UUID v4 made by SQLite, for rows inserted by INSERT … SELECT. */
const SQL_UUID_V4 = sql`lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
  substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||
  substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))`;

/** A completion date survives re-completion; leaving the completed state clears it. */
const KEEP_FIRST_COMPLETION = sql`CASE WHEN excluded.completed = 1
  THEN coalesce(CASE WHEN ${readProgress.completed} = 1 THEN ${readProgress.completedAt} END, excluded.completed_at)
  ELSE NULL END`;

/**
 * The ON CONFLICT of an INSERT … SELECT into read_progress (a write that reads its book in its own statement, a
 * migration's rows): the user's row takes the selected row's position, locator and device. What each decides
 * against the row that was there is `keep`: the completion date, the start date (kept when not given), and
 * whether the row is updated at all.
 */
function selectedRowWins(keep: { completedAt: SQL; startedAt?: SQL; onlyIf?: SQL }) {
  return {
    target: [readProgress.userId, readProgress.bookId],
    set: {
      // The position replaces the last one: a locator not sent again would point where the reader left.
      ...fromExcluded(readProgress, [
        'currentPage',
        'completed',
        'progressPercentage',
        'locator',
        'deviceId',
        'deviceName',
        'readerDeviceId',
        'readerDeviceName',
        'updatedAt',
      ]),
      completedAt: keep.completedAt,
      ...(keep.startedAt ? { startedAt: keep.startedAt } : {}),
    },
    ...(keep.onlyIf ? { setWhere: keep.onlyIf } : {}),
  };
}

export class ReadProgressRepository {
  constructor(private readonly db: Database) {}

  async get(viewer: Viewer, bookId: string): Promise<ReadProgressRecord | undefined> {
    return this.db.select().from(readProgress).where(progressOf(viewer, bookId)).get();
  }

  /**
   * The book's paging facts, when the viewer sees it, with the viewer's progress in it (null: none): one
   * statement, where a book lookup and then a progress read would be two round trips.
   */
  async inBook(viewer: Viewer, bookId: string): Promise<BookProgress | undefined> {
    return this.bookAndProgress(viewer)
      .where(and(eq(books.id, bookId), visibleBooks(viewer, books)))
      .get();
  }

  /** `inBook` of the book KOReader means by a document hash (BooksRepository.findByReaderHash). */
  async inReaderHashBook(viewer: Viewer, hash: string): Promise<BookProgress | undefined> {
    return this.bookAndProgress(viewer)
      .where(and(eq(books.readerHash, hash.toLowerCase()), visibleBooks(viewer, books)))
      .orderBy(...READER_HASH_ORDER)
      .limit(1)
      .get();
  }

  private bookAndProgress(viewer: Viewer) {
    return this.db
      .select({ book: pagingColumns, progress: readProgress })
      .from(books)
      .leftJoin(readProgress, progressOf(viewer, books.id))
      .$dynamic();
  }

  /** `before`: the statement run first in the batch (the reading-sessions fold); `alongside` after the write. */
  async upsert(
    write: ProgressWrite,
    alongside: readonly AlongsideWrite[] = [],
    before?: BeforeWrite,
  ): Promise<ReadProgressRecord> {
    const written = this.writeStatement(write).returning();
    const recount = this.recount(write.userId, [write.bookId]);
    if (!before) {
      const [rows] = await this.db.batch([written, ...recount, ...alongside]);
      return rows[0] as ReadProgressRecord;
    }
    const [, rows] = await this.db.batch([before, written, ...recount, ...alongside]);
    return rows[0] as ReadProgressRecord;
  }

  /**
   * Moves the progress forward only (DECISIONS.md §Reader apps, page streaming): the row is written when
   * there is none, or when it is not completed and behind `currentPage` (or at it, and now completed: the
   * last page read again once the reading took a person's time); otherwise nothing changes. One statement,
   * so concurrent page fetches of an app cannot move it back.
   */
  async advance(write: Omit<ProgressWrite, 'locator'>, before?: BeforeWrite): Promise<void> {
    // The series counts change only when this write started the book or completed it (it never un-completes
    // one); other pages leave them alone, so a page costs the one upsert it did before.
    const startedOrCompleted = sql`EXISTS (SELECT 1 FROM read_progress WHERE user_id = ${write.userId}
      AND book_id = ${write.bookId} AND updated_at = ${write.now} AND (started_at = ${write.now} OR completed = 1))`;
    const written = this.writeStatement(
      write,
      sql`${readProgress.completed} = 0 AND (${readProgress.currentPage} < excluded.current_page OR excluded.completed = 1)`,
    );
    const recount = this.recount(write.userId, [write.bookId], startedOrCompleted);
    await this.db.batch(before ? [before, written, ...recount] : [written, ...recount]);
  }

  /**
   * A progress write that reads its book in the same statement (docs/ARCHITECTURE.md, "The credential check
   * beside the request"): the book the viewer sees (by id, or KOReader's document hash), the position worked
   * out from its row (progress-position.ts) and, when `caller` is given, the credential tested too
   * (credential-guard.ts) — one batch with the series recount and, for when nothing was written, a look at
   * the book and the credential in the same transaction, so the caller can tell a 404 from a 400 from a
   * changed credential without another round trip.
   */
  async writeInBook(
    target: { bookId: string } | { readerHash: string },
    sent: SentPosition,
    write: InBookWrite,
    fold?: (inBook: InBookFold) => BeforeWrite,
  ): Promise<InBookWriteResult> {
    const { viewer, now } = write;
    const position = positionSql(sent);
    const credentialHolds = this.credentialHolds(write);
    const theBook = and(
      'bookId' in target ? eq(books.id, target.bookId) : eq(books.readerHash, target.readerHash.toLowerCase()),
      visibleBooks(viewer, books),
      write.also,
    );
    const first = <Q extends { orderBy: (...order: never[]) => Q; limit: (n: number) => Q }>(query: Q) =>
      'bookId' in target ? query : query.orderBy(...(READER_HASH_ORDER as never[])).limit(1);
    const where = and(theBook, position.valid, credentialHolds) as SQL;
    const row = first(
      this.db
        .select({
          id: sql<string>`${crypto.randomUUID()}`.as('id'),
          userId: sql<string>`${viewer.userId}`.as('user_id'),
          bookId: books.id,
          currentPage: sql<number>`${position.currentPage}`.as('current_page'),
          completed: sql<boolean>`${position.completed}`.as('completed'),
          completedAt: sql<string | null>`CASE WHEN ${position.completed} THEN ${now} END`.as('completed_at'),
          progressPercentage: sql<number>`${position.progressPercentage}`.as('progress_percentage'),
          locator: sql<string | null>`${position.locator}`.as('locator'),
          deviceId: sql<string>`${write.deviceId}`.as('device_id'),
          deviceName: sql<string>`${write.deviceName}`.as('device_name'),
          readerDeviceId: sql<string | null>`${write.readerDevice?.id ?? null}`.as('reader_device_id'),
          readerDeviceName: sql<string | null>`${write.readerDevice?.name ?? null}`.as('reader_device_name'),
          startedAt: sql<string>`${now}`.as('started_at'),
          updatedAt: sql<string>`${now}`.as('updated_at'),
        })
        .from(books)
        .where(where)
        .$dynamic(),
    );
    const seriesIds =
      'bookId' in target
        ? seriesOfBooks([target.bookId])
        : sql`SELECT series_id FROM books WHERE reader_hash = ${target.readerHash.toLowerCase()}`;
    // The fold (when given) runs first, as the write's own guard: the same book, position and credential.
    const before = fold?.({
      where,
      bookId: sql`${books.id}`,
      currentPage: position.currentPage,
      completed: position.completed,
      order: 'bookId' in target ? [] : READER_HASH_ORDER,
    });
    const insert = this.db
      .insert(readProgress)
      .select(row)
      .onConflictDoUpdate(selectedRowWins({ completedAt: KEEP_FIRST_COMPLETION }))
      .returning();
    const recount = recountSeriesProgress(this.db, seriesIds, viewer.userId, credentialHolds);
    const alongside = write.alongside?.(where) ?? [];
    const look = first(this.look(theBook, credentialHolds));
    const results = await this.db.batch([
      ...(before ? [before] : []),
      insert,
      ...recount,
      ...alongside,
      look,
    ] as unknown as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    const record = results[before ? 1 : 0][0];
    if (record) return { written: record as ReadProgressRecord };
    return { written: null, ...this.outcome(results[results.length - 1]) };
  }

  /**
   * A reader app's statements in a book, guarded as writeInBook's (the book the viewer sees, `guard.also`, the
   * credential), in one batch with a look at the book and the credential: with `clear`, the viewer's progress in
   * the book is deleted first (a book marked unread) and the series counts recounted; `alongside` follows.
   */
  async guardedInBook(
    bookId: string,
    guard: InBookGuard,
    change: { clear: boolean; alongside: GuardedAlongside },
  ): Promise<InBookOutcome> {
    const credentialHolds = this.credentialHolds(guard);
    const theBook = and(eq(books.id, bookId), visibleBooks(guard.viewer, books), guard.also) as SQL;
    const where = and(theBook, credentialHolds) as SQL;
    const clear = change.clear
      ? [
          this.db
            .delete(readProgress)
            .where(and(progressOf(guard.viewer, bookId), sql`EXISTS (SELECT 1 FROM ${books} WHERE ${where})`)),
          ...recountSeriesProgress(this.db, seriesOfBooks([bookId]), guard.viewer.userId, credentialHolds),
        ]
      : [];
    const statements = [...clear, ...change.alongside(where), this.look(theBook, credentialHolds)];
    const results = await this.db.batch(statements as unknown as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    return this.outcome(results[results.length - 1]);
  }

  /** The caller's credential as a condition, or TRUE for a write that is not guarded. */
  private credentialHolds(guard: InBookGuard): SQL {
    return guard.caller ? credentialStillGrants(guard.caller, guard.now) : sql`1`;
  }

  /** The book the write meant, as the viewer sees it, and whether the credential holds: read in the write's batch. */
  private look(theBook: SQL | undefined, credentialHolds: SQL) {
    return this.db
      .select({ ...pagingColumns, credentialHolds: sql<number>`${credentialHolds}` })
      .from(books)
      .where(theBook)
      .$dynamic();
  }

  /** What `look` found. */
  private outcome(found: unknown): InBookOutcome {
    const book = (found as Array<BookPaging & { credentialHolds: number }>)[0];
    if (!book) return { book: undefined, credentialHolds: true };
    const { credentialHolds: holds, ...paging } = book;
    return { book: paging as BookPaging, credentialHolds: Boolean(holds) };
  }

  /**
   * Progress brought from another server, in one batch: each row is written unless the user's progress on the
   * book is as recent or more (so running a migration again changes nothing, and reading done in Longbox since
   * is kept), then every user's counts are recounted for the series the batch touched, as every progress write
   * does (docs/ARCHITECTURE.md §Series read state). Returns how many rows were written.
   */
  async importRows(rows: readonly ImportedProgress[]): Promise<number> {
    if (rows.length === 0) return 0;
    const values = JSON.stringify(
      rows.map((r) => [
        r.userId,
        r.bookId,
        r.currentPage,
        r.completed ? 1 : 0,
        r.completedAt,
        r.progressPercentage,
        r.locator,
        r.deviceId,
        r.deviceName,
        r.readerDevice?.id ?? null,
        r.readerDevice?.name ?? null,
        r.startedAt,
        r.updatedAt,
      ]),
    );
    // Every column in table order (an INSERT … SELECT through the builder, so it can join the batch).
    const upsert = this.db
      .insert(readProgress)
      .select(
        sql`SELECT ${SQL_UUID_V4}, r.value ->> 0, r.value ->> 1, r.value ->> 2, r.value ->> 3, r.value ->> 4,
          r.value ->> 5, r.value ->> 6, r.value ->> 7, r.value ->> 8, r.value ->> 9, r.value ->> 10, r.value ->> 11,
          r.value ->> 12 FROM json_each(${values}) r WHERE true`,
      )
      .onConflictDoUpdate(
        selectedRowWins({
          completedAt: sql`excluded.completed_at`,
          startedAt: sql`min(${readProgress.startedAt}, excluded.started_at)`,
          onlyIf: sql`${readProgress.updatedAt} < excluded.updated_at`,
        }),
      )
      .returning({ id: readProgress.id });
    const seriesByUser = new Map<string, Set<string>>();
    for (const row of rows) seriesByUser.set(row.userId, (seriesByUser.get(row.userId) ?? new Set()).add(row.seriesId));
    const recounts = [...seriesByUser].flatMap(([userId, seriesIds]) =>
      recountSeriesProgress(this.db, seriesIdList([...seriesIds]), userId),
    );
    const [written] = await this.db.batch([upsert, ...recounts]);
    return written.length;
  }

  /** The statements that recount the user's progress in the series of these books, after a write. */
  private recount(userId: string, bookIds: readonly string[], onlyIf?: SQL) {
    return recountSeriesProgress(this.db, seriesOfBooks(bookIds), userId, onlyIf);
  }

  /** The one upsert both writes share; `onlyIf` limits when an existing row is updated. */
  private writeStatement(write: ProgressWrite, onlyIf?: SQL) {
    return this.db
      .insert(readProgress)
      .values({
        id: crypto.randomUUID(),
        userId: write.userId,
        bookId: write.bookId,
        currentPage: write.currentPage,
        completed: write.completed,
        completedAt: write.completed ? write.now : null,
        progressPercentage: write.progressPercentage,
        deviceId: write.deviceId,
        deviceName: write.deviceName,
        readerDeviceId: write.readerDevice?.id ?? null,
        readerDeviceName: write.readerDevice?.name ?? null,
        locator: write.locator ?? null,
        startedAt: write.now,
        updatedAt: write.now,
      })
      .onConflictDoUpdate({
        target: [readProgress.userId, readProgress.bookId],
        set: {
          currentPage: write.currentPage,
          completed: write.completed,
          completedAt: KEEP_FIRST_COMPLETION,
          progressPercentage: write.progressPercentage,
          deviceId: write.deviceId,
          deviceName: write.deviceName,
          readerDeviceId: write.readerDevice?.id ?? null,
          readerDeviceName: write.readerDevice?.name ?? null,
          ...(write.locator !== undefined ? { locator: write.locator } : {}),
          updatedAt: write.now,
        },
        ...(onlyIf ? { setWhere: onlyIf } : {}),
      });
  }

  async delete(viewer: Viewer, bookId: string, alongside: readonly AlongsideWrite[] = []): Promise<void> {
    await this.db.batch([
      this.db.delete(readProgress).where(progressOf(viewer, bookId)),
      ...this.recount(viewer.userId, [bookId]),
      ...alongside,
    ]);
  }

  /**
   * All of the viewer's progress on books they may see (deleted books included: their progress is
   * kept), latest first.
   */
  async listForUser(viewer: Viewer, limit: number, offset: number) {
    const where = and(
      eq(readProgress.userId, viewer.userId),
      visibleBooks(viewer, { seriesId: sql`(SELECT b.series_id FROM books b WHERE b.id = ${readProgress.bookId})` }),
    );
    const [totals, rows] = await this.db.batch([
      this.db.select({ n: count() }).from(readProgress).where(where),
      this.db
        .select()
        .from(readProgress)
        .where(where)
        .orderBy(desc(readProgress.updatedAt), readProgress.id)
        .limit(limit)
        .offset(offset),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }

  /** Marks every live book of a series completed on its last page, in one statement. */
  async markSeriesRead(
    seriesId: string,
    write: Omit<ProgressWrite, 'bookId' | 'currentPage' | 'completed' | 'progressPercentage'>,
  ) {
    await this.markReadWhere(sql`b.series_id = ${seriesId}`, sql`SELECT ${seriesId}`, write);
  }

  /** Marks these live books read, on their last page, in one statement (Komga's tracker catching up). */
  async markBooksRead(
    bookIds: readonly string[],
    write: Omit<ProgressWrite, 'bookId' | 'currentPage' | 'completed' | 'progressPercentage'>,
  ) {
    if (bookIds.length === 0) return;
    // One JSON parameter however many books (D1 binds at most 100 parameters).
    await this.markReadWhere(
      sql`b.id IN (SELECT value FROM json_each(${JSON.stringify(bookIds)}))`,
      seriesOfBooks(bookIds),
      write,
    );
  }

  /**
   * The live books `which` selects (over `books b`) become read on their last page; one upsert, and the
   * recount of the series they are in (`seriesIds`).
   */
  private async markReadWhere(
    which: SQL,
    seriesIds: SQL,
    write: Omit<ProgressWrite, 'bookId' | 'currentPage' | 'completed' | 'progressPercentage'>,
  ) {
    // Every column in table order (an INSERT … SELECT through the builder, so it can join the batch).
    const markRead = this.db
      .insert(readProgress)
      .select(
        sql`SELECT ${SQL_UUID_V4}, ${write.userId}, b.id, max(b.page_count, 1), 1, ${write.now}, 1.0, NULL,
          ${write.deviceId}, ${write.deviceName}, NULL, NULL, ${write.now}, ${write.now}
        FROM books b WHERE ${which} AND b.deleted_at IS NULL`,
      )
      .onConflictDoUpdate({
        target: [readProgress.userId, readProgress.bookId],
        set: {
          ...fromExcluded(readProgress, ['currentPage', 'deviceId', 'deviceName', 'updatedAt']),
          completed: true,
          completedAt: KEEP_FIRST_COMPLETION,
          progressPercentage: 1,
          readerDeviceId: null,
          readerDeviceName: null,
        },
      });
    await this.db.batch([markRead, ...recountSeriesProgress(this.db, seriesIds, write.userId)]);
  }

  /** Clears the user's progress on every live book of a series. */
  async clearSeries(userId: string, seriesId: string): Promise<void> {
    const seriesBooks = this.db
      .select({ id: books.id })
      .from(books)
      .where(and(eq(books.seriesId, seriesId), isNull(books.deletedAt)));
    await this.db.batch([
      this.db
        .delete(readProgress)
        .where(and(eq(readProgress.userId, userId), inArray(readProgress.bookId, seriesBooks))),
      ...recountSeriesProgress(this.db, sql`SELECT ${seriesId}`, userId),
    ]);
  }
}
