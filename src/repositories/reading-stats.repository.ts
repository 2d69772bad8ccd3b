/**
 * The reading statistics read model (GET /reading-stats, GET /admin/reading-stats; DECISIONS.md §Reading
 * statistics): every panel of a window from one statement, so a year of a heavy reader is one round trip. The
 * window's sessions (those the viewer may see now: `visibleBooks`) are read once into a materialised CTE with
 * their local day, and each breakdown is a GROUP BY over it, joined by UNION ALL under one column layout — nested
 * three at a time, as D1 allows few terms in one compound SELECT ("too many terms in compound SELECT").
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { type Viewer, visibleBooks } from './visibility';

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
  readers: number;
}

/** The measures of a group of the window's rows `w`, in Row's column order after kind, k and label. */
const MEASURES =
  sql.raw(`coalesce(sum(w.measured_ms), 0), coalesce(sum(w.inferred_ms), 0), coalesce(sum(w.pages_read), 0),
  count(*), count(DISTINCT w.book_id), count(DISTINCT CASE WHEN w.finished THEN w.book_id END),
  sum(w.measured_ms IS NULL AND w.inferred_ms IS NULL), sum(w.pages_read IS NULL), max(w.ended_at),
  count(DISTINCT w.user_id)`);

/** MEASURES named, for the first member of a UNION ALL (which names the columns). */
const NAMED_MEASURES =
  sql.raw(`coalesce(sum(w.measured_ms), 0) AS measured, coalesce(sum(w.inferred_ms), 0) AS inferred,
  coalesce(sum(w.pages_read), 0) AS pages, count(*) AS sessions, count(DISTINCT w.book_id) AS books,
  count(DISTINCT CASE WHEN w.finished THEN w.book_id END) AS finished,
  sum(w.measured_ms IS NULL AND w.inferred_ms IS NULL) AS no_duration, sum(w.pages_read IS NULL) AS no_pages,
  max(w.ended_at) AS last_at, count(DISTINCT w.user_id) AS readers`);

const COLUMNS = sql.raw(
  'kind, k, label, measured, inferred, pages, sessions, books, finished, no_duration, no_pages, last_at, readers',
);

const RANKING: Record<StatsSort, string> = {
  time: 'coalesce(sum(w.measured_ms), 0) + coalesce(sum(w.inferred_ms), 0)',
  pages: 'coalesce(sum(w.pages_read), 0)',
  completions: 'count(DISTINCT CASE WHEN w.finished THEN w.book_id END)',
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
    const rank = sql.raw(RANKING[window.sort]);
    const rows = await this.db.all<Row>(sql`
      WITH w AS MATERIALIZED (${this.windowRows(viewer, window, sql`s.user_id = ${viewer.userId}`)})
      SELECT ${COLUMNS} FROM (
        SELECT * FROM (SELECT 'summary' AS kind, NULL AS k, NULL AS label, ${NAMED_MEASURES} FROM w
        UNION ALL
        SELECT 'started', NULL, NULL, 0, 0, 0, 0, count(*), 0, 0, 0, NULL, 0 FROM (SELECT DISTINCT book_id FROM w) AS read
          WHERE NOT EXISTS (SELECT 1 FROM reading_sessions AS earlier WHERE earlier.user_id = ${viewer.userId}
            AND earlier.book_id = read.book_id AND earlier.started_at < ${window.from})
        UNION ALL
        SELECT 'period', w.bucket, NULL, ${MEASURES} FROM w GROUP BY w.bucket)
        UNION ALL
        SELECT * FROM (SELECT 'device', w.device_id, coalesce(
            (SELECT named.name FROM reading_device_names AS named WHERE named.user_id = ${viewer.userId}
              AND named.device_id = w.device_id),
            (SELECT latest.device_name FROM w AS latest WHERE latest.device_id = w.device_id
              ORDER BY latest.ended_at DESC LIMIT 1)), ${MEASURES}
          FROM w GROUP BY w.device_id
        UNION ALL
        SELECT * FROM (SELECT 'series', w.series_id, (SELECT title FROM series WHERE series.id = w.series_id), ${MEASURES}
          FROM w GROUP BY w.series_id ORDER BY ${rank} DESC, w.series_id LIMIT ${window.limit})
        UNION ALL
        SELECT * FROM (SELECT 'author', a.value ->> 'name', a.value ->> 'name', ${MEASURES}
          FROM w JOIN json_each(w.authors) AS a
          WHERE coalesce(a.value ->> 'role', 'writer') IN ('writer', 'author', '') AND a.value ->> 'name' <> ''
          GROUP BY a.value ->> 'name' ORDER BY ${rank} DESC, a.value ->> 'name' LIMIT ${window.limit}))
        UNION ALL
        SELECT 'format', w.file_format, NULL, ${MEASURES} FROM w GROUP BY w.file_format
      )`);
    const of = (kind: string) => rows.filter((row) => row.kind === kind);
    const summary = of('summary')[0] ?? EMPTY;
    return {
      summary: { ...measuresOf(summary), booksStarted: Number(of('started')[0]?.books ?? 0) },
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
   */
  async forServer(viewer: Viewer, window: StatsWindow): Promise<ServerStats> {
    const rank = sql.raw(RANKING[window.sort]);
    const rows = await this.db.all<Row>(sql`
      WITH w AS MATERIALIZED (${this.windowRows(viewer, window, sql`TRUE`)})
      SELECT ${COLUMNS} FROM (
        SELECT * FROM (SELECT 'summary' AS kind, NULL AS k, NULL AS label, ${NAMED_MEASURES} FROM w
        UNION ALL
        SELECT 'period', w.bucket, NULL, ${MEASURES} FROM w GROUP BY w.bucket)
        UNION ALL
        SELECT * FROM (SELECT 'series', w.series_id, (SELECT title FROM series WHERE series.id = w.series_id), ${MEASURES}
          FROM w GROUP BY w.series_id ORDER BY ${rank} DESC, w.series_id LIMIT ${window.limit})
        UNION ALL
        SELECT * FROM (SELECT 'user', w.user_id, (SELECT username FROM users WHERE users.id = w.user_id), ${MEASURES}
          FROM w GROUP BY w.user_id ORDER BY ${rank} DESC, w.user_id LIMIT ${window.limit})
        UNION ALL
        SELECT 'library', w.library_id, (SELECT name FROM libraries WHERE libraries.id = w.library_id), ${MEASURES}
          FROM w GROUP BY w.library_id
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

  /** The window's sessions the viewer may see, with what the breakdowns group by. */
  private windowRows(viewer: Viewer, window: StatsWindow, whose: SQL): SQL {
    const day = localDay(sql`s.started_at`, window.offsets);
    return sql`SELECT s.user_id, s.book_id, s.device_id, s.device_name, s.ended_at, s.measured_ms, s.inferred_ms,
        s.pages_read, s.finished, b.series_id, b.library_id, b.file_format, b.authors,
        ${bucketOf(day, window.granularity)} AS bucket
      FROM reading_sessions AS s JOIN books AS b ON b.id = s.book_id
      WHERE ${whose} AND s.started_at >= ${window.from} AND s.started_at < ${window.to}
        AND ${visibleBooks(viewer, { seriesId: sql`b.series_id`, libraryId: sql`b.library_id` })}`;
  }
}

/** Most first by the window's ranking, ties by key. */
function byRank(sort: StatsSort) {
  const value = (b: Breakdown) =>
    sort === 'pages' ? b.pagesRead : sort === 'completions' ? b.booksFinished : b.measuredMs + b.inferredMs;
  return (a: Breakdown, b: Breakdown) => value(b) - value(a) || a.key.localeCompare(b.key);
}
