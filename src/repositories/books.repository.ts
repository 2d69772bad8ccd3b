/**
 * Books read side (API.md §2 Book, §4 Books): paginated lists and details joined with library and
 * series names, the viewer's progress and want-to-read flag, in one query per page. Lists hide
 * soft-deleted books; a detail still shows one (`deleted: true`). Every read is for a viewer and sees
 * only the books visibility.ts lets it.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { books, libraries, readListBooks, readProgress, series } from '../db/schema';
import { BOOKS_LIVE_CATALOG_INDEX } from '../db/tables/books';
import { bookCoverSource } from './cover-source';
import { type BookExtrasRow, bookExtrasColumns, toBookExtras } from './book-extras.repository';
import { BOOK_FILTER_FIELDS, compileFilter, type FilterNode } from './catalog-filters';
import {
  type ListSpec,
  nullsLast,
  ONE_ROW,
  type PageEnrichment,
  type PageWindow,
  readList,
  type SortKey,
} from './catalog-page';
import { firstBookOf, progressColumns, progressOf, readingOrderKeys } from './catalog-sql';
import { CatalogListRepository } from './catalog-list.repository';
import { rankedMatches } from './search-index';
import { type CountedRows, seesEverything, type Viewer, visibleBooks, visibleCount, visibleSeries } from './visibility';
import { booksAndSeriesOf, type IdsQuery, liveVisibleBooks } from './live-visible';

/**
 * `books` read through the covering live-books index: for filtered lists, whose rows are found by id
 * (from a term list, the user's progress, search results) or tested column by column, never needing
 * the table row. SQLite would otherwise pick the primary-key index and read each row.
 */
const liveBooksByCatalogIndex = sql`${books} INDEXED BY ${sql.raw(BOOKS_LIVE_CATALOG_INDEX)}`;
/** Live books as visibleCount counts them: by condition, or by series through the reading-order index. */
const countedBooks: CountedRows = {
  count: (where) => sql<number>`(SELECT count(*) FROM ${books} WHERE ${books.deletedAt} IS NULL AND ${where})`,
  countInSeries: (seriesIds) =>
    sql<number>`(SELECT count(*) FROM ${books} INDEXED BY books_live_reading_order_idx
      WHERE ${books.deletedAt} IS NULL AND ${books.seriesId} IN (${seriesIds}))`,
  libraryId: books.libraryId,
  seriesId: books.seriesId,
};

export const BOOK_SORT_FIELDS = ['title', 'number', 'file_size', 'page_count', 'created_at', 'modified_at'] as const;
export type BookSortField = (typeof BOOK_SORT_FIELDS)[number];

/** The ORDER BY of each sort field; `number` is reading order (catalog-sql.ts). */
export function bookSortKeys(field: BookSortField, direction: SortKey['direction']): SortKey[] {
  switch (field) {
    case 'title':
      return [{ expr: sql`${books.titleSort} COLLATE NOCASE`, direction }];
    case 'number':
      return readingOrderKeys(books, direction);
    case 'file_size':
      return [{ expr: sql`${books.fileSize}`, direction }];
    case 'page_count':
      return [{ expr: sql`${books.pageCount}`, direction }];
    case 'created_at':
      return [{ expr: sql`${books.createdAt}`, direction }];
    case 'modified_at':
      return [{ expr: sql`${books.updatedAt}`, direction }];
  }
}

/** Columns of a Book response; `progress` comes from the viewer's read_progress row (left-joined). */
function bookColumns(viewer: Viewer) {
  return {
    id: books.id,
    title: books.title,
    titleSort: books.titleSort,
    summary: books.summary,
    libraryId: books.libraryId,
    libraryName: libraries.name,
    libraryReadingDirection: libraries.defaultReadingDirection,
    seriesId: books.seriesId,
    seriesName: series.title,
    seriesReadingDirection: series.readingDirection,
    path: books.path,
    fileFormat: books.fileFormat,
    fileSize: books.fileSize,
    fileHash: books.fileHash,
    readerHash: books.readerHash,
    pageCount: books.pageCount,
    analyzed: books.analyzed,
    analysisError: books.analysisError,
    number: books.number,
    numberSort: books.numberSort,
    volume: books.volume,
    chapter: books.chapter,
    ageRating: books.ageRating,
    bookReadingDirection: books.readingDirection,
    deletedAt: books.deletedAt,
    createdAt: books.createdAt,
    updatedAt: books.updatedAt,
    coverSource: bookCoverSource,
    progress: progressColumns,
    wantToRead:
      sql<boolean>`EXISTS (SELECT 1 FROM want_to_read w WHERE w.user_id = ${viewer.userId} AND w.book_id = ${books.id})`.mapWith(
        Boolean,
      ),
  };
}

export interface BookListQuery extends PageWindow {
  libraryId?: string;
  seriesId?: string;
  /** A checked filter condition (src/catalog/filters.ts). */
  filter?: FilterNode;
  /** A FTS5 MATCH expression (search-index.ts): only matching books. */
  match?: string;
}

/** What the rules of reading progress need to know about a book (src/progress). */
export interface BookPaging {
  id: string;
  pageCount: number;
  fileFormat: 'cbz' | 'cbr' | 'epub' | 'pdf';
  epubLayout: 'image' | 'reflowable' | null;
}

/** A book's paging facts (BookPaging). */
export const pagingColumns = {
  id: books.id,
  pageCount: books.pageCount,
  fileFormat: books.fileFormat,
  epubLayout: books.epubLayout,
};

/** Of the books sharing a KOReader document hash, the one it means comes first: live before trashed, then the oldest. */
export const READER_HASH_ORDER = [sql`${books.deletedAt} IS NOT NULL`, books.createdAt, books.id];

/** Books; with `extrasRead`, its lists read each row's extras (book-extras.repository.ts) in the page's statement. */
export class BooksRepository extends CatalogListRepository<BookListQuery> {
  /**
   * A page of live books. Unfiltered, an index serves the order and the page stops after its rows; the
   * count is a second statement. Filtered or searched, rows are read through the covering index, and
   * when the condition narrows to id lists (or a search does), the page visits and sorts every match
   * anyway, so it counts them in the same pass (catalog-page.ts).
   */
  async list(viewer: Viewer, query: BookListQuery) {
    return this.read(viewer, this.listSpec(viewer, query));
  }

  protected listSpec(viewer: Viewer, query: BookListQuery): ListSpec {
    const filter = query.filter ? compileFilter(query.filter, BOOK_FILTER_FIELDS, viewer) : undefined;
    const filtered = filter !== undefined || query.match !== undefined;
    const countInPage = query.match !== undefined || filter?.narrowsToIds === true;
    const scope = [
      query.libraryId ? eq(books.libraryId, query.libraryId) : undefined,
      query.seriesId ? eq(books.seriesId, query.seriesId) : undefined,
    ];
    // Unfiltered, a restricted viewer's total is the admin's count less the hidden books
    // (visibility.ts visibleCount) rather than a test of every book.
    const countByFormula = !filtered && !seesEverything(viewer) && !query.seriesId;
    return {
      id: books.id,
      from: countInPage ? liveBooksByCatalogIndex : books,
      countFrom: filtered ? liveBooksByCatalogIndex : books,
      total: countByFormula ? visibleCount(viewer, countedBooks, query.libraryId) : undefined,
      // The filter's tests before visibility's: SQLite tests terms in this order, so the viewer's lists
      // are probed only for the rows the filter keeps.
      where: and(isNull(books.deletedAt), ...scope, filter?.where, visibleBooks(viewer, books)),
      match: query.match ? rankedMatches('book', query.match) : undefined,
      window: query,
      countInPage,
    };
  }

  /**
   * Live books the viewer has progress on, most recently updated first: in progress (`completed`
   * false) or read (true). Driven by the viewer's progress rows, not by the catalog.
   */
  async listByProgress(
    viewer: Viewer,
    completed: boolean,
    libraryId: string | undefined,
    limit: number,
    offset: number,
  ) {
    return this.read(viewer, this.progressSpec(viewer, completed, libraryId, limit, offset));
  }

  /** The page `listByProgress` reads, in a caller's own shape (listAs). */
  async byProgressAs<Row extends { pageTotal: number | null }>(
    viewer: Viewer,
    completed: boolean,
    window: { libraryId: string | undefined; limit: number; offset: number },
    enrich: PageEnrichment<Row>,
  ) {
    const { libraryId, limit, offset } = window;
    return readList(this.db, this.progressSpec(viewer, completed, libraryId, limit, offset), enrich);
  }

  private progressSpec(
    viewer: Viewer,
    completed: boolean,
    libraryId: string | undefined,
    limit: number,
    offset: number,
  ): ListSpec {
    return {
      id: books.id,
      from: readProgress,
      joins: [{ table: books, on: eq(books.id, readProgress.bookId) }],
      where: and(
        eq(readProgress.userId, viewer.userId),
        eq(readProgress.completed, completed),
        liveVisibleBooks(viewer),
        libraryId ? eq(books.libraryId, libraryId) : undefined,
      ),
      window: { keys: [{ expr: sql`${readProgress.updatedAt}`, direction: 'desc' }], limit, offset },
      countInPage: false,
    };
  }

  /**
   * On deck (API.md §4 Books): per live series where the viewer completed at least one book and has
   * none in progress (every progress row completed), the first book in reading order without progress
   * and without an analysis error;
   * series ordered by the viewer's latest activity in them.
   *
   * Starts from the viewer's progress rows (an index-only read) and their books through the covering
   * index, groups them by series, and walks each finished series in reading order (a partial index) to
   * its first unread book. Every finished series is visited anyway, so the page counts them too.
   */
  async listOnDeck(viewer: Viewer, libraryId: string | undefined, limit: number, offset: number) {
    return this.read(viewer, this.onDeckSpec(viewer, libraryId, limit, offset));
  }

  /** The page `listOnDeck` reads, in a caller's own shape (listAs). */
  async onDeckAs<Row extends { pageTotal: number | null }>(
    viewer: Viewer,
    window: { libraryId: string | undefined; limit: number; offset: number },
    enrich: PageEnrichment<Row>,
  ) {
    return readList(this.db, this.onDeckSpec(viewer, window.libraryId, window.limit, window.offset), enrich);
  }

  private onDeckSpec(viewer: Viewer, libraryId: string | undefined, limit: number, offset: number): ListSpec {
    const library = libraryId ? sql`AND b.library_id = ${libraryId}` : sql``;
    const finishedSeries = sql`SELECT g.series_id AS series_id, g.last_read AS last_read FROM (
        SELECT b.series_id AS series_id, max(rp.updated_at) AS last_read, min(rp.completed) AS finished
        FROM read_progress rp CROSS JOIN books b INDEXED BY ${sql.raw(BOOKS_LIVE_CATALOG_INDEX)} ON b.id = rp.book_id
        WHERE rp.user_id = ${viewer.userId} AND b.deleted_at IS NULL ${library} GROUP BY b.series_id
      ) g CROSS JOIN series s ON s.id = g.series_id WHERE g.finished = 1 AND s.deleted_at IS NULL
        AND ${visibleSeries(viewer, { id: sql.raw('g.series_id'), libraryId: sql.raw('s.library_id') })}`;
    // A book whose analysis failed (a damaged file) is no suggestion: nobody can read it, so the next
    // readable one is on deck instead (DECISIONS.md §Books). The error is tested after the progress, so
    // the walk past read books stays in the reading-order index.
    const nextUnread = firstBookOf(
      sql.raw('f.series_id'),
      (b) =>
        sql`NOT EXISTS (SELECT 1 FROM read_progress p WHERE p.user_id = ${viewer.userId} AND p.book_id = ${b.id}) AND ${b.analysisError} IS NULL`,
    );
    // OFFSET 0 keeps SQLite from flattening this into the outer query, which would run the next-unread
    // subquery twice per series (once for the IS NOT NULL test, once for the value).
    const source = sql`(SELECT f.last_read AS last_read, ${nextUnread} AS book_id
      FROM (${finishedSeries}) f LIMIT -1 OFFSET 0) AS nb`;
    return {
      id: sql`nb.book_id`,
      from: source,
      where: sql`nb.book_id IS NOT NULL`,
      window: { keys: [{ expr: sql`nb.last_read`, direction: 'desc' }], limit, offset },
      countInPage: true,
    };
  }

  /**
   * A page of a read list's live books the viewer may see, in the order `keys` give (READ_LIST_ORDER, or
   * RELEASE_ORDER for an unordered list), narrowed by a checked filter when given.
   */
  async listInReadList(viewer: Viewer, readListId: string, window: PageWindow, filter?: FilterNode) {
    return this.read(viewer, this.membersSpec(viewer, readListId, window, filter));
  }

  protected membersSpec(viewer: Viewer, readListId: string, window: PageWindow, filter?: FilterNode): ListSpec {
    const compiled = filter ? compileFilter(filter, BOOK_FILTER_FIELDS, viewer) : undefined;
    return {
      id: books.id,
      from: readListBooks,
      // RELEASE_ORDER sorts by the series' title.
      joins: booksAndSeriesOf(readListBooks.bookId),
      where: and(eq(readListBooks.readListId, readListId), liveVisibleBooks(viewer), compiled?.where),
      window,
      countInPage: false,
    };
  }

  /**
   * Book responses of the given ids the viewer may see (live ones), in no particular order; the ids may be a
   * subquery read in the same statement (at most `limit` of them).
   */
  async byIds(viewer: Viewer, ids: readonly string[] | IdsQuery) {
    const limit = 'query' in ids ? ids.limit : ids.length;
    if (limit === 0) return [];
    const named = 'query' in ids ? ids.query : ids;
    const { rows } = await this.read(viewer, {
      id: books.id,
      from: books,
      where: liveVisibleBooks(viewer, named),
      window: { keys: [], limit, offset: 0 },
      countInPage: true,
    });
    return rows;
  }

  /** Which of the ids are live books the viewer may see. */
  async visibleIds(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.select({ id: books.id }).from(books).where(liveVisibleBooks(viewer, ids));
    return new Set(rows.map((row) => row.id));
  }

  /** One book, deleted or not, with the viewer's progress. */
  async getById(viewer: Viewer, id: string) {
    const spec: ListSpec = {
      id: books.id,
      from: books,
      where: and(eq(books.id, id), visibleBooks(viewer, books)),
      window: ONE_ROW,
      countInPage: true,
    };
    return (await this.read(viewer, spec)).rows[0];
  }

  /** What progress validation needs to know about a book (deleted or not); undefined when not visible. */
  async getPaging(viewer: Viewer, id: string): Promise<BookPaging | undefined> {
    return this.db
      .select(pagingColumns)
      .from(books)
      .where(and(eq(books.id, id), visibleBooks(viewer, books)))
      .get();
  }

  /**
   * The book KOReader means by a document hash (DECISIONS.md §Reader apps): readerHash compared
   * case-insensitively (stored lowercase); a live book before a trashed one, then the oldest. Its paging
   * facts come with it (a sync then needs no second read of the row).
   */
  async findByReaderHash(viewer: Viewer, hash: string): Promise<BookPaging | undefined> {
    return this.db
      .select(pagingColumns)
      .from(books)
      .where(and(eq(books.readerHash, hash.toLowerCase()), visibleBooks(viewer, books)))
      .orderBy(...READER_HASH_ORDER)
      .limit(1)
      .get();
  }

  /** Book responses of the page's rows, with the names and the viewer's data joined (and their extras, when kept). */
  private async read(viewer: Viewer, spec: ListSpec) {
    const { extrasRead } = this;
    const read = await readList(this.db, spec, ({ cte, id, total, order }) =>
      this.db
        .with(cte)
        .select({ ...bookColumns(viewer), pageTotal: total, ...(extrasRead ? { extras: bookExtrasColumns() } : {}) })
        .from(cte)
        // The page drives (CROSS JOIN keeps SQLite from reordering): left free, the planner scanned every book
        // and looked the page up per row once the cover source's subquery was selected (80 ms on 100,000 books).
        .crossJoin(books)
        .innerJoin(libraries, eq(libraries.id, books.libraryId))
        .innerJoin(series, eq(series.id, books.seriesId))
        .leftJoin(readProgress, progressOf(viewer, books.id))
        .where(sql`${books.id} = ${id}`)
        .orderBy(...order),
    );
    if (!extrasRead) return read;
    const rows = read.rows.map(({ extras, ...row }: (typeof read.rows)[number] & { extras?: BookExtrasRow }) => {
      if (extras) extrasRead.books.set(row.id, toBookExtras(extras));
      return row;
    });
    return { rows, total: read.total };
  }
}

/** A read list's own order (its positions), for `listInReadList`. */
export const READ_LIST_ORDER: SortKey[] = [{ expr: sql`${readListBooks.position}`, direction: 'asc' }];

/**
 * Each book's position in one read list, Komga's `readList.number` sort of a search narrowed to that list
 * (a primary-key lookup per book); books outside it, which an `anyOf` may add, come last.
 */
export function positionInReadListKeys(readListId: string, direction: SortKey['direction']): SortKey[] {
  return nullsLast(
    sql`(SELECT rb.position FROM ${readListBooks} rb WHERE rb.read_list_id = ${readListId} AND rb.book_id = ${books.id})`,
    direction,
  );
}

/** An unordered read list's order, Komga's: by release (the book's year, undated last), then series and number. */
export const RELEASE_ORDER: SortKey[] = [
  ...nullsLast(sql`${books.year}`, 'asc'),
  { expr: sql`${series.titleSort} COLLATE NOCASE`, direction: 'asc' },
];

export type BookRow = Awaited<ReturnType<BooksRepository['list']>>['rows'][number];
