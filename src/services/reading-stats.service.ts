/**
 * Reading statistics (docs/DECISIONS.md §Reading statistics; docs/API.md §Reading statistics): measured sessions
 * from clients that time themselves (Codex-rs's POST /reading-sessions contract), a person's statistics over a
 * window in their time zone, the server's for an admin, and what a person may do with their own: export them,
 * delete them, name their devices. Recording pauses with the preference `stats.recording`; the fold of progress
 * writes into sessions lives with those writes (read-progress.service.ts).
 */
import type { Database } from '../db/client';
import { badRequest, notFound } from '../lib/errors';
import { nowIso } from '../lib/ids';
import { koreaderStatisticsDevice, measuringDevice } from '../reading/devices';
import { type KoreaderSitting, NotKoreaderStatistics, readKoreaderStatistics } from '../reading/koreader-statistics';
import { FOLD_RULES, MAX_SESSION_SPAN_MS, MAX_STATS_WINDOW_DAYS } from '../reading/rules';
import { offsetSpans } from '../reading/time-zone';
import {
  type ExportedSession,
  type MeasuredSession,
  ReadingSessionsRepository,
} from '../repositories/reading-sessions.repository';
import { type Measures, ReadingStatsRepository, type StatsWindow } from '../repositories/reading-stats.repository';
import type { Viewer } from '../repositories/visibility';
import type {
  KoreaderUploadResult,
  MeasuredSessionBody,
  ReadingStatsDto,
  RecordSessionsResult,
  RejectionReason,
  ServerStatsDto,
  StatsQuery,
} from '../schemas/reading-stats.schema';

const DAY_MS = 86_400_000;
/** A client clock a little ahead of the server's is not an error; a session ending later than this is. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** Who sends measured sessions: whose they are, what they may see, and the agent that names a device without a name. */
export interface SessionSender {
  viewer: Viewer;
  userAgent: string | null;
  /** The API key the request used (a KOReader upload's device), if any. */
  apiKey?: { id: string; name: string };
}

/** A device whose clock was never set reads 1970: reading before this is a clock error (KOReader's sittings). */
const EARLIEST_READING = Date.parse('2000-01-01T00:00:00Z');

type Rejection = { id: string; reason: RejectionReason; detail: string };

/** A session as stored, or why it cannot be (each check a Codex-rs rejection reason). */
function checked(body: MeasuredSessionBody, now: number): MeasuredSession | Omit<Rejection, 'id'> {
  const started = Date.parse(body.clientStartedAt);
  const ended = Date.parse(body.clientEndedAt);
  if (Number.isNaN(started) || Number.isNaN(ended)) {
    return { reason: 'invalid_time_range', detail: 'clientStartedAt and clientEndedAt must be ISO 8601 date-times' };
  }
  if (ended < started) return { reason: 'invalid_time_range', detail: 'clientEndedAt is before clientStartedAt' };
  if (ended - started > MAX_SESSION_SPAN_MS) {
    return { reason: 'invalid_time_range', detail: 'a session spans at most 24 hours' };
  }
  if (ended > now + CLOCK_SKEW_MS) return { reason: 'invalid_time_range', detail: 'the session ends in the future' };
  if (body.activeDurationMs !== undefined && (body.activeDurationMs < 0 || body.activeDurationMs > ended - started)) {
    return {
      reason: 'invalid_measurement',
      detail: 'activeDurationMs must be between 0 and the time from clientStartedAt to clientEndedAt',
    };
  }
  if (body.pagesRead !== undefined && body.pagesRead < 0) {
    return { reason: 'invalid_measurement', detail: 'pagesRead must not be negative' };
  }
  if (body.toPercentage !== undefined && (body.toPercentage < 0 || body.toPercentage > 1)) {
    return { reason: 'invalid_percentage', detail: 'toPercentage must be between 0 and 1' };
  }
  if (body.toPage !== undefined && body.toPage < 1) {
    return { reason: 'invalid_percentage', detail: 'toPage must be 1 or more' };
  }
  return {
    clientId: body.id,
    book: { id: body.bookId },
    device: null,
    startedAt: new Date(started).toISOString(),
    endedAt: new Date(ended).toISOString(),
    measuredMs: body.activeDurationMs ?? null,
    pagesRead: body.pagesRead ?? null,
    finished: body.kind === 'completed',
  };
}

/** Why a KOReader sitting cannot be a session (the same rules as a client's, for a device's clock), or null. */
function koreaderProblem(sitting: KoreaderSitting, now: number): string | null {
  const started = Date.parse(sitting.startedAt);
  const ended = Date.parse(sitting.endedAt);
  if (started < EARLIEST_READING) return 'the sitting starts before 2000: the device’s clock was not set';
  if (ended - started > MAX_SESSION_SPAN_MS) return 'a sitting spans at most 24 hours';
  if (ended > now + CLOCK_SKEW_MS) return 'the sitting ends in the future';
  return null;
}

const duration = (b: { measuredMs: number; inferredMs: number }) => ({
  measuredMs: b.measuredMs,
  inferredMs: b.inferredMs,
  totalMs: b.measuredMs + b.inferredMs,
});

const measures = (b: Measures) => ({
  duration: duration(b),
  pagesRead: b.pagesRead,
  sessions: b.sessions,
  books: b.books,
  booksFinished: b.booksFinished,
});

/** One CSV field: quoted when it holds a separator, a quote or a line break; a formula's lead neutralised. */
function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const EXPORT_COLUMNS: ReadonlyArray<keyof ExportedSession> = [
  'id',
  'bookId',
  'bookTitle',
  'seriesName',
  'deviceId',
  'deviceName',
  'startedAt',
  'endedAt',
  'measuredMs',
  'inferredMs',
  'pagesRead',
  'finished',
];

export class ReadingStatsService {
  constructor(
    private readonly sessions: ReadingSessionsRepository,
    private readonly stats: ReadingStatsRepository,
  ) {}

  /**
   * POST /reading-sessions: each session checked on its own (rejections name a reason), the acceptable ones
   * written in one batch — all or none — and the progress of their books returned.
   */
  async record(sender: SessionSender, bodies: readonly MeasuredSessionBody[]): Promise<RecordSessionsResult> {
    const now = Date.now();
    const rejected: Rejection[] = [];
    const valid: MeasuredSession[] = [];
    const seen = new Set<string>();
    for (const body of bodies) {
      if (seen.has(body.id)) {
        rejected.push({ id: body.id, reason: 'duplicate_in_batch', detail: 'the batch holds this id more than once' });
        continue;
      }
      seen.add(body.id);
      const result = checked(body, now);
      if ('reason' in result) {
        rejected.push({ id: body.id, ...result });
        continue;
      }
      valid.push({ ...result, device: measuringDevice(body.deviceId, body.deviceName, sender.userAgent) });
    }
    if (valid.length === 0) return { accepted: [], rejected, progress: [] };
    const outcome = await this.sessions.recordMeasured({
      userId: sender.viewer.userId,
      viewer: sender.viewer,
      sessions: valid,
      fallbackDevice: measuringDevice('unknown', null, sender.userAgent),
      replaceRepeats: false,
      now: new Date(now).toISOString(),
    });
    const unknown = new Set(outcome.unknownBook);
    for (const id of outcome.unknownBook) {
      rejected.push({ id, reason: 'book_not_found', detail: 'no book with this id is visible to you' });
    }
    return {
      accepted: valid.filter((s) => !unknown.has(s.clientId)).map((s) => s.clientId),
      rejected,
      progress: outcome.progress,
    };
  }

  /**
   * POST /reading-sessions/koreader: KOReader's statistics database, its sittings recorded as measured sessions of
   * the books the viewer sees with the same KOReader hash. Sent again (the database grows on the device and is
   * sent whole), a sitting keeps its id and takes its new figures: nothing is counted twice. A file that is not
   * KOReader's statistics is a 400 saying why.
   */
  async recordKoreader(sender: SessionSender, bytes: Uint8Array): Promise<KoreaderUploadResult> {
    const now = Date.now();
    let statistics: ReturnType<typeof readKoreaderStatistics>;
    try {
      statistics = readKoreaderStatistics(bytes, FOLD_RULES.mergeWindowMs);
    } catch (error) {
      if (error instanceof NotKoreaderStatistics) throw badRequest(error.message);
      throw error;
    }
    const device = await koreaderStatisticsDevice(sender.apiKey, sender.userAgent);
    const rejected: Rejection[] = [];
    const valid: KoreaderSitting[] = [];
    for (const sitting of statistics.sittings) {
      const problem = koreaderProblem(sitting, now);
      if (problem) rejected.push({ id: sitting.clientId, reason: 'invalid_time_range', detail: problem });
      else valid.push(sitting);
    }
    const unmatched = statistics.books
      .filter((book) => book.md5 === null)
      .map(({ md5, title, authors, sittings }) => ({ md5, title, authors, sittings }));
    const result = {
      schemaVersion: statistics.schemaVersion,
      device: { deviceId: device.id, deviceName: device.name },
    };
    if (valid.length === 0) {
      return { ...result, accepted: 0, alreadyKnown: 0, measuredMs: 0, unmatchedBooks: unmatched, rejected };
    }
    const outcome = await this.sessions.recordMeasured({
      userId: sender.viewer.userId,
      viewer: sender.viewer,
      sessions: valid.map((s) => ({
        clientId: s.clientId,
        book: { readerHash: s.md5 },
        device: null,
        startedAt: s.startedAt,
        endedAt: s.endedAt,
        measuredMs: s.measuredMs,
        pagesRead: s.pagesRead,
        finished: false,
      })),
      fallbackDevice: device,
      replaceRepeats: true,
      now: new Date(now).toISOString(),
    });
    const unknown = new Set(outcome.unknownBook);
    const known = new Set(outcome.known);
    const unmatchedHashes = new Set(valid.filter((s) => unknown.has(s.clientId)).map((s) => s.md5));
    for (const book of statistics.books) {
      if (book.md5 !== null && unmatchedHashes.has(book.md5)) {
        unmatched.push({ md5: book.md5, title: book.title, authors: book.authors, sittings: book.sittings });
      }
    }
    const recorded = valid.filter((s) => !unknown.has(s.clientId) && !known.has(s.clientId));
    return {
      ...result,
      accepted: recorded.length,
      alreadyKnown: valid.filter((s) => !unknown.has(s.clientId) && known.has(s.clientId)).length,
      measuredMs: recorded.reduce((sum, s) => sum + s.measuredMs, 0),
      unmatchedBooks: unmatched,
      rejected,
    };
  }

  /** GET /reading-stats: the viewer's reading over the window, in the time zone asked for. */
  async forReader(viewer: Viewer, query: StatsQuery): Promise<ReadingStatsDto> {
    const window = this.window(query);
    const stats = await this.stats.forReader(viewer, window);
    return {
      from: window.from,
      to: window.to,
      granularity: window.granularity,
      timeZone: query.tz,
      summary: {
        ...measures(stats.summary),
        booksStarted: stats.summary.booksStarted,
        sessionsWithoutDuration: stats.summary.sessionsWithoutDuration,
        sessionsWithoutPages: stats.summary.sessionsWithoutPages,
      },
      periods: stats.periods.map((b) => ({ bucket: b.key, ...measures(b) })),
      devices: stats.devices.map((b) => ({
        deviceId: b.key,
        deviceName: b.label,
        ...measures(b),
        lastReadAt: b.lastReadAt,
      })),
      series: stats.series.map((b) => ({ seriesId: b.key, seriesName: b.label, ...measures(b) })),
      authors: stats.authors.map((b) => ({ name: b.key, ...measures(b) })),
      formats: stats.formats.map((b) => ({ format: b.key, ...measures(b) })),
    };
  }

  /** GET /admin/reading-stats: the server's reading, counts and sums only (never who read which book). */
  async forServer(viewer: Viewer, query: StatsQuery): Promise<ServerStatsDto> {
    const window = this.window(query);
    const stats = await this.stats.forServer(viewer, window);
    return {
      from: window.from,
      to: window.to,
      granularity: window.granularity,
      timeZone: query.tz,
      summary: { ...measures(stats.summary), readers: stats.summary.readers },
      periods: stats.periods.map((b) => ({ bucket: b.key, ...measures(b) })),
      series: stats.series.map((b) => ({ seriesId: b.key, seriesName: b.label, ...measures(b), readers: b.readers })),
      users: stats.users.map((b) => ({ userId: b.key, username: b.label, ...measures(b) })),
      libraries: stats.libraries.map((b) => ({
        libraryId: b.key,
        libraryName: b.label,
        ...measures(b),
        readers: b.readers,
      })),
    };
  }

  /** GET /reading-stats/coverage: the first and last reading the viewer may see. */
  coverage(viewer: Viewer) {
    return this.stats.coverage(viewer);
  }

  /** GET /reading-sessions/export: every session of the viewer on books they see, as JSON rows or CSV text. */
  async exportSessions(viewer: Viewer): Promise<ExportedSession[]> {
    return this.sessions.exportFor(viewer);
  }

  /** The export as CSV (RFC 4180, a header row). */
  async exportCsv(viewer: Viewer): Promise<string> {
    const rows = await this.sessions.exportFor(viewer);
    const lines = [
      EXPORT_COLUMNS.join(','),
      ...rows.map((row) => EXPORT_COLUMNS.map((c) => csvField(row[c])).join(',')),
    ];
    return `${lines.join('\r\n')}\r\n`;
  }

  /** DELETE /reading-sessions: all of the user's sessions go. */
  deleteAll(userId: string): Promise<void> {
    return this.sessions.deleteAllOf(userId);
  }

  /** PUT /reading-devices/{deviceId}: names one of the user's devices (null: its own name again). */
  async renameDevice(userId: string, deviceId: string, name: string | null): Promise<void> {
    if (!(await this.sessions.renameDevice(userId, deviceId, name, nowIso()))) throw notFound('Reading device');
  }

  /** The hourly housekeeping: sessions older than the retention setting go (0 keeps them). */
  async prune(retentionDays: number, now: Date, limit = 5000): Promise<number> {
    if (retentionDays <= 0) return 0;
    return this.sessions.pruneBefore(new Date(now.getTime() - retentionDays * DAY_MS).toISOString(), limit);
  }

  /** The window a query asks for, checked: from before to, at most a few years. */
  private window(query: StatsQuery): StatsWindow {
    const to = query.to ? Date.parse(query.to) : Date.now();
    const from = query.from ? Date.parse(query.from) : to - 365 * DAY_MS;
    if (from >= to) throw badRequest('from must be before to', [{ path: 'from', message: 'must be before to' }]);
    if (to - from > MAX_STATS_WINDOW_DAYS * DAY_MS) {
      throw badRequest(`The window spans at most ${MAX_STATS_WINDOW_DAYS} days`, [
        { path: 'from', message: `at most ${MAX_STATS_WINDOW_DAYS} days before to` },
      ]);
    }
    return {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      offsets: offsetSpans(query.tz, from, to),
      granularity: query.granularity,
      sort: query.sort,
      limit: query.seriesLimit,
    };
  }
}

/** The service over the request's database. */
export const readingStatsService = (db: Database) =>
  new ReadingStatsService(new ReadingSessionsRepository(db, FOLD_RULES), new ReadingStatsRepository(db));
