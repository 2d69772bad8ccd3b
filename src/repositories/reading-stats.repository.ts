/**
 * The reading statistics read model (GET /reading-stats, GET /admin/reading-stats; DECISIONS.md §Reading
 * statistics): every panel of a window from one statement, so a year of a heavy reader is one round trip.
 *
 * A reader's statement reads sittings and books from indexes only (migration 0026). The window's sittings are
 * grouped once per book (`books_read`): each book is then looked up once — in id order, in a covering index — for
 * visibility and for what the series, author and format breakdowns group by, and those breakdowns (and the
 * summary) add books up instead of counting distinct ones over every sitting. Periods and devices group the
 * sittings themselves, read again from the covering index in time order, and count distinct books. The server's
 * statement (an admin's) reads the same indexes user by user, grouping once per user and book. The breakdowns are
 * joined by UNION ALL under one column layout, nested three at a time, as D1 allows few terms in one compound
 * SELECT ("too many terms in compound SELECT").
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { BOOKS_READING_STATS_INDEX } from '../db/tables/books';
import { READING_SESSIONS_USER_STARTED_INDEX } from '../db/tables/reading-sessions';
import { seesEverything, type Viewer, visibleBooks } from './visibility';

/** A stretch of the window with one UTC offset: until `until` (exclusive; null: the rest), local = UTC + offset. */
export interface OffsetSpan {
  until: string | null;
  offsetMinutes: number;
}

export type Granularity = 'day' | 'week' | 'month';
export type StatsSort = 'time' | 'pages' | 'completions';

export interface StatsWindow {
  from: string;
  to: string;
  /** The viewer's time zone over the window (src/reading/time-zone.ts), for local days. */
  offsets: readonly OffsetSpan[];
  granularity: Granularity;
  sort: StatsSort;
  /** How many series and authors. */
  limit: number;
}

/** The measures every breakdown has. */
export interface Measures {
  measuredMs: number;
  inferredMs: number;
  pagesRead: number;
  sessions: number;
  books: number;
  booksFinished: number;
  sessionsWithoutDuration: number;
  sessionsWithoutPages: number;
  lastReadAt: string | null;
}

export interface Breakdown extends Measures {
  key: string;
  label: string | null;
}

export interface ReaderStats {
  summary: Measures & { booksStarted: number };
  periods: Breakdown[];
  devices: Breakdown[];
  series: Breakdown[];
  authors: Breakdown[];
  formats: Breakdown[];
}

export interface ServerStats {
  summary: Measures & { readers: number };
  periods: Breakdown[];
  series: Array<Breakdown & { readers: number }>;
  users: Breakdown[];
  libraries: Array<Breakdown & { readers: number }>;
}

interface Row {
  kind: string;
  k: string | null;
  label: string | null;
  measured: number;
  inferred: number;
  pages: number;
  sessions: number;
  books: number;
  finished: number;
  no_duration: number;
  no_pages: number;
  last_at: string | null;
  /** The server's rows: how many people. */
  readers?: number;
  /** A reader's summary: how many of the books were first read in the window. */
  started?: number;
}

/** The server's measures of a group of the window's sittings `w` (its periods), in Row's column order after kind, k and label. */
const MEASURES =
  sql.raw(`coalesce(sum(w.measured_ms), 0), coalesce(sum(w.inferred_ms), 0), coalesce(sum(w.pages_read), 0),
  count(*), count(DISTINCT w.book_id), count(DISTINCT CASE WHEN w.finished THEN w.book_id END),
  sum(w.measured_ms IS NULL AND w.inferred_ms IS NULL), sum(w.pages_read IS NULL), max(w.ended_at),
  count(DISTINCT w.user_id)`);

/**
 * The server's measures of a group of rows of `user_books` (`r`: one user's sittings of one book): time, pages and
 * sittings add up; books and readers are distinct among the rows, a book finished when any of its sittings was.
 * RANKING ranks groups of these rows.
 */
const READ_MEASURES =
  sql.raw(`coalesce(sum(r.measured_ms), 0), coalesce(sum(r.inferred_ms), 0), coalesce(sum(r.pages_read), 0),
  coalesce(sum(r.sessions), 0), count(DISTINCT r.book_id), count(DISTINCT CASE WHEN r.finished THEN r.book_id END),
  sum(r.no_duration), sum(r.no_pages), max(r.ended_at), count(DISTINCT r.user_id)`);

/** READ_MEASURES named, for the first member of a UNION ALL. */
const NAMED_READ_MEASURES =
  sql.raw(`coalesce(sum(r.measured_ms), 0) AS measured, coalesce(sum(r.inferred_ms), 0) AS inferred,
  coalesce(sum(r.pages_read), 0) AS pages, coalesce(sum(r.sessions), 0) AS sessions, count(DISTINCT r.book_id) AS books,
  count(DISTINCT CASE WHEN r.finished THEN r.book_id END) AS finished, sum(r.no_duration) AS no_duration,
  sum(r.no_pages) AS no_pages, max(r.ended_at) AS last_at, count(DISTINCT r.user_id) AS readers`);

const COLUMNS = sql.raw(
  'kind, k, label, measured, inferred, pages, sessions, books, finished, no_duration, no_pages, last_at, readers',
);

/**
 * A reader's measures of a group of sittings (`s`, from reading_sessions): books and finished books are
 * distinct counts here, as a book is read in many sittings of a day or a device.
 */
const SITTING_MEASURES =
  sql.raw(`coalesce(sum(s.measured_ms), 0), coalesce(sum(s.inferred_ms), 0), coalesce(sum(s.pages_read), 0),
  count(*), count(DISTINCT s.book_id), count(DISTINCT CASE WHEN s.finished THEN s.book_id END),
  sum(s.measured_ms IS NULL AND s.inferred_ms IS NULL), sum(s.pages_read IS NULL), max(s.ended_at), 0`);

/**
 * A reader's measures of a group of rows that each stand for some books (`r`: a book of `books_read`, or the books
 * of one credit list): everything adds up.
 */
const BOOK_MEASURES = sql.raw(`coalesce(sum(r.measured), 0), coalesce(sum(r.inferred), 0), coalesce(sum(r.pages), 0),
  coalesce(sum(r.sessions), 0), coalesce(sum(r.books), 0), coalesce(sum(r.finished), 0), sum(r.no_duration),
  sum(r.no_pages), max(r.last_at)`);

const NAMED_BOOK_MEASURES_TEXT = `coalesce(sum(r.measured), 0) AS measured, coalesce(sum(r.inferred), 0) AS inferred,
  coalesce(sum(r.pages), 0) AS pages, coalesce(sum(r.sessions), 0) AS sessions, coalesce(sum(r.books), 0) AS books,
  coalesce(sum(r.finished), 0) AS finished, sum(r.no_duration) AS no_duration, sum(r.no_pages) AS no_pages,
  max(r.last_at) AS last_at`;

/** BOOK_MEASURES named, for the first member of a UNION ALL and for subqueries. */
const NAMED_BOOK_MEASURES = sql.raw(NAMED_BOOK_MEASURES_TEXT);

/**
 * The credited writers of the window's books, as rows of BOOK_MEASURES: one per writer of each distinct credit
 * list, carrying the books with that list (books of a series mostly share one, so each list is read from its JSON
 * once, not once per book). A list naming a writer k times counts the sittings k times and the books once, as
 * counting over each book's credits would.
 */
const CREDITED_ROWS = sql.raw(`SELECT a.value ->> 'name' AS name, list.measured * count(*) AS measured,
    list.inferred * count(*) AS inferred, list.pages * count(*) AS pages, list.sessions * count(*) AS sessions,
    list.books, list.finished, list.no_duration * count(*) AS no_duration, list.no_pages * count(*) AS no_pages,
    list.last_at
  FROM (SELECT r.authors, ${NAMED_BOOK_MEASURES_TEXT} FROM books_read AS r GROUP BY r.authors) AS list
  JOIN json_each(list.authors) AS a
  WHERE coalesce(a.value ->> 'role', 'writer') IN ('writer', 'author', '') AND a.value ->> 'name' <> ''
  GROUP BY list.authors, a.value ->> 'name'`);

const READER_COLUMNS = sql.raw(
  'kind, k, label, measured, inferred, pages, sessions, books, finished, no_duration, no_pages, last_at, started',
);

/** A ranking over groups of `r` rows (BOOK_MEASURES). */
const BOOK_RANKING: Record<StatsSort, string> = {
  time: 'coalesce(sum(r.measured), 0) + coalesce(sum(r.inferred), 0)',
  pages: 'coalesce(sum(r.pages), 0)',
  completions: 'coalesce(sum(r.finished), 0)',
};

const RANKING: Record<StatsSort, string> = {
  time: 'coalesce(sum(r.measured_ms), 0) + coalesce(sum(r.inferred_ms), 0)',
  pages: 'coalesce(sum(r.pages_read), 0)',
  completions: 'count(DISTINCT CASE WHEN r.finished THEN r.book_id END)',
};

/** The local calendar day of a UTC time, by the window's offsets. */
function localDay(time: SQL, offsets: readonly OffsetSpan[]): SQL {
  const shifted = (minutes: number) => sql`date(${time}, ${`${minutes >= 0 ? '+' : ''}${minutes} minutes`})`;
  const last = offsets[offsets.length - 1];
  if (!last) return sql`date(${time})`;
  const cases = offsets
    .filter((span) => span.until !== null)
    .map((span) => sql`WHEN ${time} < ${span.until} THEN ${shifted(span.offsetMinutes)}`);
  return cases.length === 0
    ? shifted(last.offsetMinutes)
    : sql`CASE ${sql.join(cases, sql` `)} ELSE ${shifted(last.offsetMinutes)} END`;
}

/** The first day of the bucket holding `day`: itself, the Monday of its week, or the first of its month. */
function bucketOf(day: SQL, granularity: Granularity): SQL {
  if (granularity === 'week') return sql`date(${day}, '-6 days', 'weekday 1')`;
  if (granularity === 'month') return sql`strftime('%Y-%m-01', ${day})`;
  return day;
}

const measuresOf = (row: Row): Measures => ({
  measuredMs: Number(row.measured),
  inferredMs: Number(row.inferred),
  pagesRead: Number(row.pages),
  sessions: Number(row.sessions),
  books: Number(row.books),
  booksFinished: Number(row.finished),
  sessionsWithoutDuration: Number(row.no_duration ?? 0),
  sessionsWithoutPages: Number(row.no_pages ?? 0),
  lastReadAt: row.last_at,
});

const breakdownOf = (row: Row): Breakdown => ({ key: row.k ?? '', label: row.label, ...measuresOf(row) });

const EMPTY: Row = {
  kind: 'summary',
  k: null,
  label: null,
  measured: 0,
  inferred: 0,
  pages: 0,
  sessions: 0,
  books: 0,
  finished: 0,
  no_duration: 0,
  no_pages: 0,
  last_at: null,
  readers: 0,
};

export class ReadingStatsRepository {
  constructor(private readonly db: Database) {}

  /** A reader's statistics over the window: summary, periods, devices, series, authors, formats. */
  async forReader(viewer: Viewer, window: StatsWindow): Promise<ReaderStats> {
    const rank = sql.raw(BOOK_RANKING[window.sort]);
    const userId = viewer.userId;
    const inWindow = sql`s.user_id = ${userId} AND s.started_at >= ${window.from} AND s.started_at < ${window.to}`;
    // Periods and devices count the sittings of the books the viewer sees: every sitting when they see every book
    // (a sitting goes with its book: cascade, and the purges delete it explicitly), else those of books_read.
    const ofVisibleBooks = seesEverything(viewer) ? sql`` : sql` AND s.book_id IN (SELECT book_id FROM books_read)`;
    const bucket = bucketOf(localDay(sql`s.started_at`, window.offsets), window.granularity);
    const rows = await this.db.all<Row>(sql`
      WITH books_read AS MATERIALIZED (
        SELECT x.*, 1 AS books, b.series_id, b.file_format, b.authors,
          -- Read before the window: a seek in (user, book, …, started_at); the unary + keeps the planner off the
          -- (user, started_at) index, which would scan every earlier sitting of the user once per book.
          NOT EXISTS (SELECT 1 FROM reading_sessions AS earlier WHERE earlier.user_id = ${userId}
            AND earlier.book_id = x.book_id AND +earlier.started_at < ${window.from}) AS fresh
        FROM (SELECT s.book_id, sum(s.measured_ms) AS measured, sum(s.inferred_ms) AS inferred,
            sum(s.pages_read) AS pages, count(*) AS sessions, max(CASE WHEN s.finished THEN 1 ELSE 0 END) AS finished,
            sum(s.measured_ms IS NULL AND s.inferred_ms IS NULL) AS no_duration, sum(s.pages_read IS NULL) AS no_pages,
            max(s.ended_at) AS last_at
          FROM reading_sessions AS s WHERE ${inWindow} GROUP BY s.book_id) AS x
        JOIN books AS b INDEXED BY ${sql.raw(BOOKS_READING_STATS_INDEX)} ON b.id = x.book_id
        WHERE ${visibleBooks(viewer, { seriesId: sql`b.series_id`, libraryId: sql`b.library_id` })})
      SELECT ${READER_COLUMNS} FROM (
        SELECT * FROM (SELECT 'summary' AS kind, NULL AS k, NULL AS label, ${NAMED_BOOK_MEASURES},
            coalesce(sum(r.fresh), 0) AS started
          FROM books_read AS r
        UNION ALL
        SELECT 'period', ${bucket} AS bucket, NULL, ${SITTING_MEASURES}
          FROM reading_sessions AS s WHERE ${inWindow}${ofVisibleBooks} GROUP BY bucket
        UNION ALL
        SELECT 'device', s.device_id, coalesce(
            (SELECT named.name FROM reading_device_names AS named WHERE named.user_id = ${userId}
              AND named.device_id = s.device_id),
            -- The name it had in its latest sitting: max(ended_at) is the only min/max of this SELECT, so SQLite
            -- takes this bare column from the row holding it.
            s.device_name), ${SITTING_MEASURES}
          FROM reading_sessions AS s WHERE ${inWindow}${ofVisibleBooks} GROUP BY s.device_id)
        UNION ALL
        SELECT * FROM (SELECT 'series', top.series_id, (SELECT title FROM series WHERE series.id = top.series_id),
            top.measured, top.inferred, top.pages, top.sessions, top.books, top.finished, top.no_duration, top.no_pages,
            top.last_at, 0
          FROM (SELECT r.series_id, ${NAMED_BOOK_MEASURES} FROM books_read AS r
            GROUP BY r.series_id ORDER BY ${rank} DESC, r.series_id LIMIT ${window.limit}) AS top
        UNION ALL
        SELECT * FROM (SELECT 'author', r.name, r.name, ${BOOK_MEASURES}, 0 FROM (${CREDITED_ROWS}) AS r
          GROUP BY r.name ORDER BY ${rank} DESC, r.name LIMIT ${window.limit})
        UNION ALL
        SELECT 'format', r.file_format, NULL, ${BOOK_MEASURES}, 0 FROM books_read AS r GROUP BY r.file_format)
      )`);
    const of = (kind: string) => rows.filter((row) => row.kind === kind);
    const summary = of('summary')[0] ?? EMPTY;
    return {
      summary: { ...measuresOf(summary), booksStarted: Number(summary.started ?? 0) },
      periods: of('period')
        .map(breakdownOf)
        .sort((a, b) => a.key.localeCompare(b.key)),
      devices: of('device').map(breakdownOf).sort(byRank(window.sort)),
      series: of('series').map(breakdownOf).sort(byRank(window.sort)),
      authors: of('author').map(breakdownOf).sort(byRank(window.sort)),
      formats: of('format').map(breakdownOf).sort(byRank(window.sort)),
    };
  }

  /**
   * The server's statistics over the window, for an admin: totals, periods, the most read series, the most
   * active users and reading by library — counts and sums only, never which books a user read.
   *
   * Read as a reader's are, from indexes only: users one by one (a server has few), each user's window from the
   * covering (user, started_at, …) index, grouped once per user and book (`user_books`); each book looked up once in
   * `books_reading_stats_idx`. Series, users and libraries add up those (user, book) rows and count distinct
   * books and readers among them; periods group the sittings themselves.
   */
  async forServer(viewer: Viewer, window: StatsWindow): Promise<ServerStats> {
    const rank = sql.raw(RANKING[window.sort]);
    // CROSS JOIN keeps users outside (SQLite does not reorder it), so each user's window is one seek in the
    // covering index rather than a walk of every sitting by start through (started_at), reading table rows.
    const sittings = sql`users AS u CROSS JOIN reading_sessions AS w INDEXED BY ${sql.raw(READING_SESSIONS_USER_STARTED_INDEX)}`;
    const inWindow = sql`w.user_id = u.id AND w.started_at >= ${window.from} AND w.started_at < ${window.to}`;
    // As a reader's: every sitting counts when the admin sees every book (a sitting goes with its book), else
    // those of the books `user_books` kept.
    const ofVisibleBooks = seesEverything(viewer) ? sql`` : sql` AND w.book_id IN (SELECT book_id FROM user_books)`;
    const bucket = bucketOf(localDay(sql`w.started_at`, window.offsets), window.granularity);
    const rows = await this.db.all<Row>(sql`
      WITH user_books AS MATERIALIZED (
        SELECT x.*, b.series_id, b.library_id
        FROM (SELECT w.user_id, w.book_id, sum(w.measured_ms) AS measured_ms, sum(w.inferred_ms) AS inferred_ms,
            sum(w.pages_read) AS pages_read, count(*) AS sessions,
            max(CASE WHEN w.finished THEN 1 ELSE 0 END) AS finished,
            sum(w.measured_ms IS NULL AND w.inferred_ms IS NULL) AS no_duration, sum(w.pages_read IS NULL) AS no_pages,
            max(w.ended_at) AS ended_at
          FROM ${sittings} WHERE ${inWindow} GROUP BY w.user_id, w.book_id) AS x
        JOIN books AS b INDEXED BY ${sql.raw(BOOKS_READING_STATS_INDEX)} ON b.id = x.book_id
        WHERE ${visibleBooks(viewer, { seriesId: sql`b.series_id`, libraryId: sql`b.library_id` })})
      SELECT ${COLUMNS} FROM (
        SELECT * FROM (SELECT 'summary' AS kind, NULL AS k, NULL AS label, ${NAMED_READ_MEASURES} FROM user_books AS r
        UNION ALL
        SELECT 'period', ${bucket} AS bucket, NULL, ${MEASURES} FROM ${sittings}
          WHERE ${inWindow}${ofVisibleBooks} GROUP BY bucket)
        UNION ALL
        SELECT * FROM (SELECT 'series', r.series_id, (SELECT title FROM series WHERE series.id = r.series_id),
            ${READ_MEASURES}
          FROM user_books AS r GROUP BY r.series_id ORDER BY ${rank} DESC, r.series_id LIMIT ${window.limit})
        UNION ALL
        SELECT * FROM (SELECT 'user', r.user_id, (SELECT username FROM users WHERE users.id = r.user_id), ${READ_MEASURES}
          FROM user_books AS r GROUP BY r.user_id ORDER BY ${rank} DESC, r.user_id LIMIT ${window.limit})
        UNION ALL
        SELECT 'library', r.library_id, (SELECT name FROM libraries WHERE libraries.id = r.library_id), ${READ_MEASURES}
          FROM user_books AS r GROUP BY r.library_id
      )`);
    const of = (kind: string) => rows.filter((row) => row.kind === kind);
    const withReaders = (row: Row) => ({ ...breakdownOf(row), readers: Number(row.readers) });
    const summary = of('summary')[0] ?? EMPTY;
    return {
      summary: { ...measuresOf(summary), readers: Number(summary.readers) },
      periods: of('period')
        .map(breakdownOf)
        .sort((a, b) => a.key.localeCompare(b.key)),
      series: of('series').map(withReaders).sort(byRank(window.sort)),
      users: of('user').map(breakdownOf).sort(byRank(window.sort)),
      libraries: of('library').map(withReaders).sort(byRank(window.sort)),
    };
  }

  /** The first and last reading of the viewer on books they see now (GET /reading-stats/coverage). */
  async coverage(viewer: Viewer): Promise<{ firstReadAt: string | null; lastReadAt: string | null }> {
    const [row] = await this.db.all<{ first: string | null; last: string | null }>(sql`
      SELECT min(s.started_at) AS first, max(s.ended_at) AS last
      FROM reading_sessions AS s JOIN books AS b ON b.id = s.book_id
      WHERE s.user_id = ${viewer.userId} AND ${visibleBooks(viewer, { seriesId: sql`b.series_id`, libraryId: sql`b.library_id` })}`);
    return { firstReadAt: row?.first ?? null, lastReadAt: row?.last ?? null };
  }
}

/** Most first by the window's ranking, ties by key. */
function byRank(sort: StatsSort) {
  const value = (b: Breakdown) =>
    sort === 'pages' ? b.pagesRead : sort === 'completions' ? b.booksFinished : b.measuredMs + b.inferredMs;
  return (a: Breakdown, b: Breakdown) => value(b) - value(a) || a.key.localeCompare(b.key);
}
