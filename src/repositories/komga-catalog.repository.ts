/**
 * What Komga's DTOs show beyond Longbox's own Series and Book responses (genres, tags, authors, the
 * viewer's read counts, the position of a book in reading order…), read from the same tables with the
 * same fragments (catalog-sql.ts) for a page of ids the API's list services chose, and the term lists
 * Komga's filter sheets load. Nothing is stored for the Komga API: these are reads, for a viewer, of
 * what visibility.ts lets it see.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { books, libraries, readProgress, series } from '../db/schema';
import {
  AUTHOR_NAME,
  AUTHOR_ROLE,
  type Author,
  firstBookOf,
  inIds,
  parseAuthors,
  progressColumns,
  progressOf,
  readCountsOf,
  readingOrder,
} from './catalog-sql';
import type { PageEnrichment } from './catalog-page';
import { type Viewer, visibleBooks, visibleSeries } from './visibility';

/** The `books b` and `series s` of the raw statements below, for their visibility conditions. */
const liveBook = alias(books, 'b');
const liveSeries = alias(series, 's');

/** A JSON array column (json_group_array) as a list, nulls left out. */
const jsonList = <T>(value: unknown): T[] => {
  const parsed = typeof value === 'string' && value !== '' ? (JSON.parse(value) as unknown) : [];
  return Array.isArray(parsed) ? (parsed.filter((v) => v !== null) as T[]) : [];
};

const list = <T>(query: SQL) => sql<T[]>`${query}`.mapWith((value) => jsonList<T>(value));

/** The first book (reading order) with a summary: its summary and number (Komga's booksMetadata). */
function firstBookSummary(value: unknown): { summary: string; number: string } | null {
  const [summary, number] = jsonList<unknown>(value);
  return typeof summary === 'string'
    ? { summary, number: number === undefined || number === null ? '' : String(number) }
    : null;
}

const summarised = alias(books, 'summarised');

function seriesColumns(viewer: Viewer) {
  const withSummary = firstBookOf(series.id, (b) => sql`${b.summary} IS NOT NULL AND ${b.summary} <> ''`);
  return {
    id: series.id,
    libraryId: series.libraryId,
    title: series.title,
    titleSort: series.titleSort,
    summary: series.summary,
    publisher: series.publisher,
    language: series.language,
    status: series.status,
    readingDirection: series.readingDirection,
    /** The direction most of the series' books state (ComicInfo Manga), used when the series has none. */
    booksReadingDirection: sql<string | null>`(SELECT b.reading_direction FROM books b WHERE b.series_id = ${series.id}
      AND b.deleted_at IS NULL AND b.reading_direction IS NOT NULL
      GROUP BY b.reading_direction ORDER BY count(*) DESC LIMIT 1)`,
    libraryReadingDirection: libraries.defaultReadingDirection,
    year: series.year,
    totalBookCount: series.totalBookCount,
    links: series.links,
    alternateTitles: series.alternateTitles,
    locks: {
      status: series.statusLock,
      title: series.titleLock,
      titleSort: series.titleSortLock,
      summary: series.summaryLock,
      readingDirection: series.readingDirectionLock,
      publisher: series.publisherLock,
      language: series.languageLock,
      genres: series.genresLock,
      tags: series.tagsLock,
      totalBookCount: series.totalBookCountLock,
      links: series.linksLock,
      alternateTitles: series.alternateTitlesLock,
    },
    createdAt: series.createdAt,
    updatedAt: series.updatedAt,
    deletedAt: series.deletedAt,
    fileLastModified: sql<
      string | null
    >`(SELECT max(b.file_modified_at) FROM books b WHERE b.series_id = ${series.id})`,
    bookSummary: sql`(SELECT json_array(${summarised.summary}, ${summarised.numberSort})
      FROM ${books} AS ${sql.raw('summarised')} WHERE ${summarised.id} = ${withSummary})`.mapWith(firstBookSummary),
    readCounts: readCountsOf(viewer, series.id, series.bookCount),
    genres: list<string>(
      sql`(SELECT json_group_array(st.value) FROM series_terms st WHERE st.series_id = ${series.id} AND st.kind = 'genre')`,
    ),
    ageRating: series.ageRating,
    ageRatingLock: series.ageRatingLock,
    /** Komga shows sharing labels lower-cased. */
    sharingLabels: list<string>(
      sql`(SELECT json_group_array(lower(l.name)) FROM series_sharing_labels sl JOIN sharing_labels l ON l.id = sl.label_id
        WHERE sl.series_id = ${series.id})`,
    ),
    sharingLabelsLock: series.sharingLabelsLock,
    tags: list<string>(
      sql`(SELECT json_group_array(st.value) FROM series_terms st WHERE st.series_id = ${series.id} AND st.kind = 'tag')`,
    ),
    bookTags:
      list<string>(sql`(SELECT json_group_array(DISTINCT bt.value) FROM book_terms bt JOIN books b ON b.id = bt.book_id
      WHERE b.series_id = ${series.id} AND b.deleted_at IS NULL AND bt.kind = 'tag')`),
    authors: sql`(SELECT json_group_array(DISTINCT json_object('name', ${AUTHOR_NAME}, 'role', ${AUTHOR_ROLE}))
      FROM books b, json_each(b.authors) a WHERE b.series_id = ${series.id} AND b.deleted_at IS NULL)`.mapWith(
      parseAuthors,
    ),
  };
}

/** The books whose place in reading order `pos` numbers (aliased: `books` is the listed one). */
const ordered = alias(books, 'ordered');

function bookColumns() {
  return {
    id: books.id,
    seriesId: books.seriesId,
    seriesTitle: series.title,
    libraryId: books.libraryId,
    title: books.title,
    summary: books.summary,
    numberSort: books.numberSort,
    fileName: books.fileName,
    fileFormat: books.fileFormat,
    fileSize: books.fileSize,
    fileModifiedAt: books.fileModifiedAt,
    fileHash: books.fileHash,
    pageCount: books.pageCount,
    epubLayout: books.epubLayout,
    analysisError: books.analysisError,
    year: books.year,
    month: books.month,
    day: books.day,
    isbn: books.isbn,
    links: books.links,
    locks: {
      title: books.titleLock,
      summary: books.summaryLock,
      number: books.numberLock,
      numberSort: books.numberSortLock,
      releaseDate: books.yearLock,
      authors: books.authorsLock,
      tags: books.tagsLock,
      isbn: books.isbnLock,
      links: books.linksLock,
    },
    authors: sql`${books.authors}`.mapWith(parseAuthors),
    tags: list<string>(
      sql`(SELECT json_group_array(bt.value) FROM book_terms bt WHERE bt.book_id = ${books.id} AND bt.kind = 'tag')`,
    ),
    createdAt: books.createdAt,
    updatedAt: books.updatedAt,
    deletedAt: books.deletedAt,
    progress: progressColumns,
  };
}

export type KomgaSeriesRow = Awaited<ReturnType<KomgaCatalogRepository['series']>>[number];
export type KomgaBookRow = Awaited<ReturnType<KomgaCatalogRepository['books']>>[number];

/** Rows in the order of `ids`; ids not found are left out. */
function inOrder<Row extends { id: string }>(ids: readonly string[], rows: Row[]): Row[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export class KomgaCatalogRepository {
  constructor(private readonly db: Database) {}

  /** Series by id (deleted ones too: Komga shows them as `deleted`), in the order given. */
  async series(viewer: Viewer, ids: readonly string[]) {
    const rows = await this.db
      .select(seriesColumns(viewer))
      .from(series)
      .innerJoin(libraries, eq(libraries.id, series.libraryId))
      .where(and(inIds(series.id, ids), visibleSeries(viewer, series)));
    return inOrder(ids, rows);
  }

  /**
   * The series of a list's page (catalog-page.ts), in Komga's shape: the list service's page and these rows
   * are one statement.
   */
  seriesOfPage(viewer: Viewer): PageEnrichment<KomgaSeriesRow & { pageTotal: number | null }> {
    return ({ cte, id, total, order }) =>
      this.db
        .with(cte)
        .select({ ...seriesColumns(viewer), pageTotal: total })
        .from(cte)
        // The page drives (CROSS JOIN keeps SQLite from reordering; books.repository.ts `read` says why).
        .crossJoin(series)
        .innerJoin(libraries, eq(libraries.id, series.libraryId))
        .where(sql`${series.id} = ${id}`)
        .orderBy(...order);
  }

  /** Books by id, in the order given, with their 1-based place among their series' live books. */
  async books(viewer: Viewer, ids: readonly string[]) {
    const scope = sql`${ordered.seriesId} IN (SELECT ${books.seriesId} FROM ${books} WHERE ${inIds(books.id, ids)})`;
    return inOrder(ids, await this.bookRows(viewer, inIds(books.id, ids), scope));
  }

  /** The books of a list's page (catalog-page.ts), in Komga's shape (`books`): one statement with the page. */
  booksOfPage(viewer: Viewer): PageEnrichment<KomgaBookRow & { pageTotal: number | null }> {
    return async ({ cte, id, total, order }) => {
      const positions = this.positions(
        sql`${ordered.seriesId} IN (SELECT ${books.seriesId} FROM ${books} WHERE ${books.id} IN (SELECT "page"."id" FROM "page"))`,
      );
      const rows = await this.db
        .with(cte, positions)
        .select({ ...bookColumns(), position: sql<number | null>`"pos"."position"`, pageTotal: total })
        .from(cte)
        // The page drives (CROSS JOIN keeps SQLite from reordering; books.repository.ts `read` says why).
        .crossJoin(books)
        .innerJoin(series, eq(series.id, books.seriesId))
        .leftJoin(positions, sql`"pos"."book_id" = ${books.id}`)
        .leftJoin(readProgress, progressOf(viewer, books.id))
        .where(sql`${books.id} = ${id}`)
        .orderBy(...order);
      return rows.map((row) => ({ ...row, position: row.position === null ? null : Number(row.position) }));
    };
  }

  /** Every live book of a series in reading order (the tracker works on the whole series). */
  async liveBooksOfSeries(viewer: Viewer, seriesId: string) {
    const rows = await this.bookRows(
      viewer,
      and(eq(books.seriesId, seriesId), sql`${books.deletedAt} IS NULL`) as SQL,
      eq(ordered.seriesId, seriesId),
    );
    return rows.sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  }

  /** The live book at 1-based `position` of the series' reading order (Komga's next/previous), if any. */
  async liveBookAt(viewer: Viewer, seriesId: string, position: number) {
    if (position < 1) return undefined;
    const [row] = await this.bookRows(
      viewer,
      and(eq(books.seriesId, seriesId), sql`${books.deletedAt} IS NULL`, sql`"pos"."position" = ${position}`) as SQL,
      eq(ordered.seriesId, seriesId),
    );
    return row;
  }

  /**
   * Komga book rows: `position` numbers the live books of the series `positionScope` names in reading
   * order (one window over each series, null for a deleted book).
   */
  private async bookRows(viewer: Viewer, where: SQL, positionScope: SQL) {
    const positions = this.positions(positionScope);
    const rows = await this.db
      .with(positions)
      .select({ ...bookColumns(), position: sql<number | null>`"pos"."position"` })
      .from(books)
      .innerJoin(series, eq(series.id, books.seriesId))
      .leftJoin(positions, sql`"pos"."book_id" = ${books.id}`)
      .leftJoin(readProgress, progressOf(viewer, books.id))
      .where(and(where, visibleBooks(viewer, books)));
    return rows.map((row) => ({ ...row, position: row.position === null ? null : Number(row.position) }));
  }

  /** `pos`: the 1-based place of each live book of the series `scope` names, in reading order. */
  private positions(scope: SQL) {
    return this.db.$with('pos').as(
      this.db
        .select({
          id: sql<string>`${ordered.id}`.as('book_id'),
          position: sql<number>`row_number() OVER (PARTITION BY ${ordered.seriesId}
            ORDER BY ${sql.join(readingOrder(ordered), sql`, `)})`.as('position'),
        })
        .from(ordered)
        .where(and(sql`${ordered.deletedAt} IS NULL`, scope)),
    );
  }

  /** Distinct genre or tag values of the live series and books the viewer sees, sorted case-insensitively. */
  async terms(viewer: Viewer, kind: 'genre' | 'tag'): Promise<string[]> {
    const rows = await this.db.all<{ value: string }>(sql`
      SELECT value FROM (
        SELECT st.value AS value FROM series_terms st JOIN series s ON s.id = st.series_id
          WHERE st.kind = ${kind} AND s.deleted_at IS NULL AND ${visibleSeries(viewer, liveSeries)}
        UNION
        SELECT bt.value AS value FROM book_terms bt JOIN books b ON b.id = bt.book_id
          WHERE bt.kind = ${kind} AND b.deleted_at IS NULL AND ${visibleBooks(viewer, liveBook)}
      ) GROUP BY value COLLATE NOCASE ORDER BY value COLLATE NOCASE`);
    return rows.map((r) => r.value);
  }

  async publishers(viewer: Viewer): Promise<string[]> {
    const rows = await this.db.all<{ value: string }>(sql`
      SELECT s.publisher AS value FROM series s
      WHERE s.deleted_at IS NULL AND s.publisher IS NOT NULL AND s.publisher <> '' AND ${visibleSeries(viewer, liveSeries)}
      GROUP BY s.publisher COLLATE NOCASE ORDER BY s.publisher COLLATE NOCASE`);
    return rows.map((r) => r.value);
  }

  /**
   * Komga's `GET /api/v1/age-ratings`: the ratings of live series the viewer sees (of some libraries, when
   * given), as decimal strings in ascending order, with "None" when some have no rating.
   */
  async ageRatings(viewer: Viewer, libraryIds: readonly string[]): Promise<string[]> {
    const inLibraries =
      libraryIds.length > 0
        ? sql`AND s.library_id IN (SELECT value FROM json_each(${JSON.stringify(libraryIds)}))`
        : sql``;
    const rows = await this.db.all<{ rating: number | null }>(sql`
      SELECT DISTINCT s.age_rating AS rating FROM series s
      WHERE s.deleted_at IS NULL ${inLibraries} AND ${visibleSeries(viewer, liveSeries)}
      ORDER BY s.age_rating`);
    return rows.map((r) => (r.rating === null ? 'None' : String(r.rating)));
  }

  async authors(viewer: Viewer): Promise<Author[]> {
    return this.db.all<Author>(sql`
      SELECT DISTINCT ${AUTHOR_NAME} AS name, ${AUTHOR_ROLE} AS role
      FROM books b, json_each(b.authors) a
      WHERE b.deleted_at IS NULL AND ${AUTHOR_NAME} IS NOT NULL AND ${visibleBooks(viewer, liveBook)}
      ORDER BY name COLLATE NOCASE, role`);
  }
}
