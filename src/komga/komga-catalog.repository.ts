/**
 * What Komga's DTOs show beyond Longbox's own Series and Book responses (genres, tags, authors, the
 * user's read counts, the position of a book in reading order…), read from the same tables for a
 * page of ids the existing list services chose. Nothing is stored for the Komga API: these are reads.
 *
 * D1 binds at most 100 parameters per statement, so ids are looked up in chunks.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';

const ID_CHUNK = 40;
/** Two bound values each, within D1's 100 per statement. */
const MAX_AUTHORS = 45;

export interface KomgaSeriesRow {
  id: string;
  libraryId: string;
  title: string;
  titleSort: string;
  summary: string | null;
  publisher: string | null;
  language: string | null;
  status: string | null;
  readingDirection: string | null;
  /** The direction most of the series' books state (ComicInfo Manga), used when the series has none. */
  booksReadingDirection: string | null;
  libraryReadingDirection: string;
  year: number | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  fileLastModified: string | null;
  /** The first book (reading order) with a summary: its summary and number (Komga's booksMetadata). */
  bookSummary: { summary: string; number: string } | null;
  booksCount: number;
  booksReadCount: number;
  booksInProgressCount: number;
  genres: string[];
  tags: string[];
  bookTags: string[];
  authors: Array<{ name: string; role: string }>;
}

export interface KomgaBookRow {
  id: string;
  seriesId: string;
  seriesTitle: string;
  libraryId: string;
  title: string;
  summary: string | null;
  number: number | null;
  chapter: number | null;
  fileName: string;
  fileFormat: 'cbz' | 'cbr' | 'epub' | 'pdf';
  fileSize: number;
  fileModifiedAt: string;
  fileHash: string;
  pageCount: number;
  epubLayout: 'image' | 'reflowable' | null;
  analysisError: string | null;
  year: number | null;
  authors: Array<{ name: string; role: string }>;
  tags: string[];
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  /** 1-based place in the series' reading order among live books; null for a deleted book. */
  position: number | null;
  progress: {
    page: number;
    completed: boolean;
    startedAt: string;
    updatedAt: string;
    deviceId: string | null;
    deviceName: string | null;
  } | null;
}

type Raw = Record<string, unknown>;

const jsonList = <T>(value: unknown): T[] => {
  if (typeof value !== 'string' || value === '') return [];
  const parsed = JSON.parse(value) as unknown;
  return Array.isArray(parsed) ? (parsed.filter((v) => v !== null) as T[]) : [];
};

const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ID_CHUNK) out.push(items.slice(i, i + ID_CHUNK));
  return out;
};

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

export class KomgaCatalogRepository {
  constructor(private readonly db: Database) {}

  /** Series by id, in the order given; unknown or deleted-and-missing ids are left out. */
  async series(ids: readonly string[], userId: string): Promise<KomgaSeriesRow[]> {
    const found = new Map<string, KomgaSeriesRow>();
    for (const chunk of chunks([...new Set(ids)])) {
      for (const row of await this.db.all<Raw>(seriesQuery(sql`s.id IN (${idList(chunk)})`, userId))) {
        const mapped = toSeriesRow(row);
        found.set(mapped.id, mapped);
      }
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** Books by id, in the order given. */
  async books(ids: readonly string[], userId: string): Promise<KomgaBookRow[]> {
    const found = new Map<string, KomgaBookRow>();
    for (const chunk of chunks([...new Set(ids)])) {
      const list = idList(chunk);
      const scope = sql`o.series_id IN (SELECT series_id FROM books WHERE id IN (${list}))`;
      for (const row of await this.db.all<Raw>(booksQuery(sql`b.id IN (${list})`, scope, userId))) {
        const mapped = toBookRow(row);
        found.set(mapped.id, mapped);
      }
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** Every live book of a series in reading order (the tracker works on the whole series). */
  async liveBooksOfSeries(seriesId: string, userId: string): Promise<KomgaBookRow[]> {
    const rows = await this.db.all<Raw>(
      booksQuery(
        sql`b.series_id = ${seriesId} AND b.deleted_at IS NULL`,
        sql`o.series_id = ${seriesId}`,
        userId,
        sql`ORDER BY pos.position`,
      ),
    );
    return rows.map(toBookRow);
  }

  /** Series with a live book credited to any of these authors (name case-insensitive; role when given). */
  async seriesWithAuthors(authors: ReadonlyArray<{ name: string; role?: string }>): Promise<Set<string>> {
    const tests = authors
      .slice(0, MAX_AUTHORS)
      .map(({ name, role }) =>
        role
          ? sql`(json_extract(a.value, '$.name') = ${name} COLLATE NOCASE AND json_extract(a.value, '$.role') = ${role})`
          : sql`json_extract(a.value, '$.name') = ${name} COLLATE NOCASE`,
      );
    if (tests.length === 0) return new Set();
    const rows = await this.db.all<{ id: string }>(sql`
      SELECT DISTINCT b.series_id AS id FROM books b, json_each(b.authors) a
      WHERE b.deleted_at IS NULL AND (${sql.join(tests, sql` OR `)})`);
    return new Set(rows.map((r) => r.id));
  }

  /** Distinct genre or tag values of live series and books, sorted case-insensitively. */
  async terms(kind: 'genre' | 'tag'): Promise<string[]> {
    const rows = await this.db.all<{ value: string }>(sql`
      SELECT value FROM (
        SELECT st.value AS value FROM series_terms st JOIN series s ON s.id = st.series_id
          WHERE st.kind = ${kind} AND s.deleted_at IS NULL
        UNION
        SELECT bt.value AS value FROM book_terms bt JOIN books b ON b.id = bt.book_id
          WHERE bt.kind = ${kind} AND b.deleted_at IS NULL
      ) GROUP BY value COLLATE NOCASE ORDER BY value COLLATE NOCASE`);
    return rows.map((r) => r.value);
  }

  async publishers(): Promise<string[]> {
    const rows = await this.db.all<{ value: string }>(sql`
      SELECT publisher AS value FROM series WHERE deleted_at IS NULL AND publisher IS NOT NULL AND publisher <> ''
      GROUP BY publisher COLLATE NOCASE ORDER BY publisher COLLATE NOCASE`);
    return rows.map((r) => r.value);
  }

  async authors(): Promise<Array<{ name: string; role: string }>> {
    return this.db.all<{ name: string; role: string }>(sql`
      SELECT DISTINCT json_extract(a.value, '$.name') AS name, json_extract(a.value, '$.role') AS role
      FROM books b, json_each(b.authors) a
      WHERE b.deleted_at IS NULL AND json_extract(a.value, '$.name') IS NOT NULL
      ORDER BY name COLLATE NOCASE, role`);
  }
}

function seriesQuery(where: SQL, userId: string): SQL {
  return sql`
    SELECT s.id, s.library_id AS libraryId, s.title, s.title_sort AS titleSort, s.summary, s.publisher,
      s.language, s.status, s.reading_direction AS readingDirection,
      (SELECT b.reading_direction FROM books b WHERE b.series_id = s.id AND b.deleted_at IS NULL
        AND b.reading_direction IS NOT NULL GROUP BY b.reading_direction ORDER BY count(*) DESC LIMIT 1)
        AS booksReadingDirection,
      l.default_reading_direction AS libraryReadingDirection, s.year, s.created_at AS createdAt,
      s.updated_at AS updatedAt, s.deleted_at AS deletedAt,
      (SELECT max(b.file_modified_at) FROM books b WHERE b.series_id = s.id) AS fileLastModified,
      (SELECT json_array(b.summary, coalesce(b.number, b.chapter)) FROM books b WHERE b.series_id = s.id
        AND b.deleted_at IS NULL AND b.summary IS NOT NULL AND b.summary <> ''
        ORDER BY b.number IS NULL, b.number, b.sort_key, b.id LIMIT 1) AS firstBookSummary,
      (SELECT count(*) FROM books b WHERE b.series_id = s.id AND b.deleted_at IS NULL) AS booksCount,
      (SELECT count(*) FROM books b JOIN read_progress rp ON rp.book_id = b.id AND rp.user_id = ${userId}
        WHERE b.series_id = s.id AND b.deleted_at IS NULL AND rp.completed = 1) AS booksReadCount,
      (SELECT count(*) FROM books b JOIN read_progress rp ON rp.book_id = b.id AND rp.user_id = ${userId}
        WHERE b.series_id = s.id AND b.deleted_at IS NULL AND rp.completed = 0) AS booksInProgressCount,
      (SELECT json_group_array(st.value) FROM series_terms st WHERE st.series_id = s.id AND st.kind = 'genre') AS genres,
      (SELECT json_group_array(st.value) FROM series_terms st WHERE st.series_id = s.id AND st.kind = 'tag') AS tags,
      (SELECT json_group_array(DISTINCT bt.value) FROM book_terms bt JOIN books b ON b.id = bt.book_id
        WHERE b.series_id = s.id AND b.deleted_at IS NULL AND bt.kind = 'tag') AS bookTags,
      (SELECT json_group_array(DISTINCT json_object('name', json_extract(a.value, '$.name'),
          'role', json_extract(a.value, '$.role')))
        FROM books b, json_each(b.authors) a WHERE b.series_id = s.id AND b.deleted_at IS NULL) AS authors
    FROM series s
    JOIN libraries l ON l.id = s.library_id
    WHERE ${where}`;
}

function booksQuery(where: SQL, positionScope: SQL, userId: string, order: SQL = sql``): SQL {
  return sql`
    WITH pos AS (
      SELECT o.id AS id, row_number() OVER (PARTITION BY o.series_id
        ORDER BY o.number IS NULL, o.number, o.sort_key, o.id) AS position
      FROM books o WHERE o.deleted_at IS NULL AND ${positionScope}
    )
    SELECT b.id, b.series_id AS seriesId, s.title AS seriesTitle, b.library_id AS libraryId, b.title, b.summary,
      b.number, b.chapter, b.file_name AS fileName, b.file_format AS fileFormat, b.file_size AS fileSize,
      b.file_modified_at AS fileModifiedAt, b.file_hash AS fileHash, b.page_count AS pageCount,
      b.epub_layout AS epubLayout, b.analysis_error AS analysisError, b.year, b.authors,
      b.created_at AS createdAt, b.updated_at AS updatedAt, b.deleted_at AS deletedAt, pos.position AS position,
      (SELECT json_group_array(bt.value) FROM book_terms bt WHERE bt.book_id = b.id AND bt.kind = 'tag') AS tags,
      rp.current_page AS rpPage, rp.completed AS rpCompleted, rp.started_at AS rpStartedAt,
      rp.updated_at AS rpUpdatedAt, rp.device_id AS rpDeviceId, rp.device_name AS rpDeviceName
    FROM books b
    JOIN series s ON s.id = b.series_id
    LEFT JOIN pos ON pos.id = b.id
    LEFT JOIN read_progress rp ON rp.book_id = b.id AND rp.user_id = ${userId}
    WHERE ${where} ${order}`;
}

function toSeriesRow(row: Raw): KomgaSeriesRow {
  return {
    id: row.id as string,
    libraryId: row.libraryId as string,
    title: row.title as string,
    titleSort: row.titleSort as string,
    summary: row.summary as string | null,
    publisher: row.publisher as string | null,
    language: row.language as string | null,
    status: row.status as string | null,
    readingDirection: row.readingDirection as string | null,
    booksReadingDirection: row.booksReadingDirection as string | null,
    libraryReadingDirection: row.libraryReadingDirection as string,
    year: row.year as number | null,
    createdAt: row.createdAt as string,
    updatedAt: row.updatedAt as string,
    deletedAt: row.deletedAt as string | null,
    fileLastModified: row.fileLastModified as string | null,
    bookSummary: firstBookSummary(row.firstBookSummary),
    booksCount: Number(row.booksCount ?? 0),
    booksReadCount: Number(row.booksReadCount ?? 0),
    booksInProgressCount: Number(row.booksInProgressCount ?? 0),
    genres: jsonList<string>(row.genres),
    tags: jsonList<string>(row.tags),
    bookTags: jsonList<string>(row.bookTags),
    authors: jsonList<{ name: string | null; role: string | null }>(row.authors)
      .filter((a) => typeof a === 'object' && a.name)
      .map((a) => ({ name: a.name as string, role: a.role ?? 'writer' })),
  };
}

function firstBookSummary(value: unknown): KomgaSeriesRow['bookSummary'] {
  const [summary, number] = jsonList<unknown>(value);
  return typeof summary === 'string' ? { summary, number: number === undefined ? '' : String(number) } : null;
}

function toBookRow(row: Raw): KomgaBookRow {
  const authors = jsonList<{ name?: unknown; role?: unknown }>(row.authors).flatMap((a) =>
    typeof a === 'object' && typeof a.name === 'string'
      ? [{ name: a.name, role: typeof a.role === 'string' ? a.role : 'writer' }]
      : [],
  );
  return {
    id: row.id as string,
    seriesId: row.seriesId as string,
    seriesTitle: row.seriesTitle as string,
    libraryId: row.libraryId as string,
    title: row.title as string,
    summary: row.summary as string | null,
    number: row.number as number | null,
    chapter: row.chapter as number | null,
    fileName: row.fileName as string,
    fileFormat: row.fileFormat as KomgaBookRow['fileFormat'],
    fileSize: Number(row.fileSize),
    fileModifiedAt: row.fileModifiedAt as string,
    fileHash: row.fileHash as string,
    pageCount: Number(row.pageCount),
    epubLayout: row.epubLayout as KomgaBookRow['epubLayout'],
    analysisError: row.analysisError as string | null,
    year: row.year as number | null,
    authors,
    tags: jsonList<string>(row.tags),
    createdAt: row.createdAt as string,
    updatedAt: row.updatedAt as string,
    deletedAt: row.deletedAt as string | null,
    position: row.position === null || row.position === undefined ? null : Number(row.position),
    progress:
      row.rpPage === null || row.rpPage === undefined
        ? null
        : {
            page: Number(row.rpPage),
            completed: Number(row.rpCompleted) === 1,
            startedAt: row.rpStartedAt as string,
            updatedAt: row.rpUpdatedAt as string,
            deviceId: row.rpDeviceId as string | null,
            deviceName: row.rpDeviceName as string | null,
          },
  };
}
