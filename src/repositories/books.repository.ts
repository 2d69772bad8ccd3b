/**
 * Books read side (API.md §2 Book, §4 Books): paginated lists and details joined with library and
 * series names, the requesting user's progress and want-to-read flag, in one query per page.
 * Lists hide soft-deleted books; a detail still shows one (`deleted: true`).
 */
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { CompiledCondition } from '../catalog/filters';
import type { Database } from '../db/client';
import { books, libraries, readProgress, series } from '../db/schema';
import { BOOKS_LIVE_CATALOG_INDEX } from '../db/tables/books';
import {
  nullsLast,
  orderKeys,
  orderPage,
  PAGE_ID,
  PAGE_TOTAL,
  type PageCte,
  pageSelection,
  pageWithTotal,
  type SortKey,
} from './catalog-page';
import { rankedMatches } from './search-index';

/**
 * `books` read through the covering live-books index: for filtered lists, whose rows are found by id
 * (from a term list, the user's progress, search results) or tested column by column, never needing
 * the table row. SQLite would otherwise pick the primary-key index and read each row.
 */
const liveBooksByCatalogIndex = sql`${books} INDEXED BY ${sql.raw(BOOKS_LIVE_CATALOG_INDEX)}`;

export const BOOK_SORT_FIELDS = ['title', 'number', 'file_size', 'page_count', 'created_at', 'modified_at'] as const;
export type BookSortField = (typeof BOOK_SORT_FIELDS)[number];

/** Reading order within a series: number (books without one last), then the natural file-name order. */
export function bookSortKeys(field: BookSortField, direction: 'asc' | 'desc'): SortKey[] {
  switch (field) {
    case 'title':
      return [{ expr: sql`${books.titleSort} COLLATE NOCASE`, direction }];
    case 'number':
      return [...nullsLast(sql`${books.number}`, direction), { expr: sql`${books.sortKey}`, direction }];
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

/** Columns of a Book response; `progress*` come from the user's read_progress row (left-joined). */
function bookColumns(userId: string) {
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
    volume: books.volume,
    chapter: books.chapter,
    bookReadingDirection: books.readingDirection,
    deletedAt: books.deletedAt,
    createdAt: books.createdAt,
    updatedAt: books.updatedAt,
    progress: {
      id: readProgress.id,
      userId: readProgress.userId,
      currentPage: readProgress.currentPage,
      completed: readProgress.completed,
      completedAt: readProgress.completedAt,
      progressPercentage: readProgress.progressPercentage,
      locator: readProgress.locator,
      startedAt: readProgress.startedAt,
      updatedAt: readProgress.updatedAt,
    },
    wantToRead:
      sql<boolean>`EXISTS (SELECT 1 FROM want_to_read w WHERE w.user_id = ${userId} AND w.book_id = ${books.id})`.mapWith(
        Boolean,
      ),
  };
}

export interface BookListQuery {
  userId: string;
  libraryId?: string;
  seriesId?: string;
  /** A compiled filter condition (src/catalog/filters.ts). */
  condition?: CompiledCondition;
  /** A FTS5 MATCH expression (search-index.ts): only matching books. */
  match?: string;
  keys: SortKey[];
  limit: number;
  offset: number;
}

export class BooksRepository {
  constructor(private readonly db: Database) {}

  /**
   * A page of live books. Unfiltered, an index serves the order and the page stops after its rows; the
   * count is a second statement. Filtered or searched, rows are read through the covering index, and
   * when the condition narrows to id lists (or a search does), the page visits and sorts every match
   * anyway, so it counts them in the same pass (catalog-page.ts pageSelection).
   */
  async list(query: BookListQuery) {
    const where = and(
      isNull(books.deletedAt),
      query.libraryId ? eq(books.libraryId, query.libraryId) : undefined,
      query.seriesId ? eq(books.seriesId, query.seriesId) : undefined,
      query.condition?.where,
    );
    const filtered = query.condition !== undefined || query.match !== undefined;
    const countInPage = query.match !== undefined || query.condition?.narrowsToIds === true;
    const pageSource = countInPage ? liveBooksByCatalogIndex : books;
    const pageQuery = this.db
      .select(pageSelection(books.id, query.keys, countInPage))
      .from(pageSource)
      .$dynamic();
    const countQuery = this.db
      .select({ n: count() })
      .from(filtered ? liveBooksByCatalogIndex : books)
      .$dynamic();
    if (query.match) {
      const matches = sql`(${rankedMatches('book', query.match)}) AS m`;
      pageQuery.innerJoin(matches, sql`m.entity_id = ${books.id}`);
      countQuery.innerJoin(matches, sql`m.entity_id = ${books.id}`);
    }
    const page = this.db.$with('page').as(
      pageQuery
        .where(where)
        .orderBy(...orderKeys(query.keys, books.id))
        .limit(query.limit)
        .offset(query.offset),
    );
    return this.runPage(page, countQuery.where(where), query.keys, query.userId, countInPage, query.offset);
  }

  /**
   * Live books the user has progress on, most recently updated first: in progress (`completed` false)
   * or read (true). Driven by the user's progress rows, not by the catalog.
   */
  async listByProgress(
    userId: string,
    completed: boolean,
    libraryId: string | undefined,
    limit: number,
    offset: number,
  ) {
    const keys: SortKey[] = [{ expr: sql`${readProgress.updatedAt}`, direction: 'desc' }];
    const where = and(
      eq(readProgress.userId, userId),
      eq(readProgress.completed, completed),
      isNull(books.deletedAt),
      libraryId ? eq(books.libraryId, libraryId) : undefined,
    );
    const page = this.db.$with('page').as(
      this.db
        .select(pageSelection(books.id, keys))
        .from(readProgress)
        .innerJoin(books, eq(books.id, readProgress.bookId))
        .where(where)
        .orderBy(...orderKeys(keys, books.id))
        .limit(limit)
        .offset(offset),
    );
    const total = this.db
      .select({ n: count() })
      .from(readProgress)
      .innerJoin(books, eq(books.id, readProgress.bookId))
      .where(where);
    return this.runPage(page, total, keys, userId, false, offset);
  }

  /**
   * On deck (API.md §4 Books): per live series where the user completed at least one book and has none
   * in progress (every progress row completed), the first book in reading order without progress;
   * series ordered by the user's latest activity in them.
   *
   * Starts from the user's progress rows (an index-only read) and their books through the covering
   * index, groups them by series, and walks each finished series in reading order (a partial index) to
   * its first unread book. Every finished series is visited anyway, so the page counts them too.
   */
  async listOnDeck(userId: string, libraryId: string | undefined, limit: number, offset: number) {
    const library = libraryId ? sql`AND b.library_id = ${libraryId}` : sql``;
    const finishedSeries = sql`SELECT g.series_id AS series_id, g.last_read AS last_read FROM (
        SELECT b.series_id AS series_id, max(rp.updated_at) AS last_read, min(rp.completed) AS finished
        FROM read_progress rp CROSS JOIN books b INDEXED BY ${sql.raw(BOOKS_LIVE_CATALOG_INDEX)} ON b.id = rp.book_id
        WHERE rp.user_id = ${userId} AND b.deleted_at IS NULL ${library} GROUP BY b.series_id
      ) g CROSS JOIN series s ON s.id = g.series_id WHERE g.finished = 1 AND s.deleted_at IS NULL`;
    const nextUnread = sql`SELECT b.id FROM books b WHERE b.series_id = f.series_id AND b.deleted_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM read_progress p WHERE p.user_id = ${userId} AND p.book_id = b.id)
      ORDER BY b.number IS NULL, b.number, b.sort_key, b.id LIMIT 1`;
    // OFFSET 0 keeps SQLite from flattening this into the outer query, which would run the next-unread
    // subquery twice per series (once for the IS NOT NULL test, once for the value).
    const source = sql`(SELECT f.last_read AS last_read, (${nextUnread}) AS book_id
      FROM (${finishedSeries}) f LIMIT -1 OFFSET 0) AS nb`;
    const keys: SortKey[] = [{ expr: sql`nb.last_read`, direction: 'desc' }];
    const found = sql`nb.book_id IS NOT NULL`;
    const page = this.db.$with('page').as(
      this.db
        .select(pageSelection(sql`nb.book_id`, keys, true))
        .from(source)
        .where(found)
        .orderBy(...orderKeys(keys, sql`nb.book_id`))
        .limit(limit)
        .offset(offset),
    );
    const total = this.db.select({ n: count() }).from(source).where(found);
    return this.runPage(page, total, keys, userId, true, offset);
  }

  /** One book, deleted or not, with the user's progress. */
  async getById(id: string, userId: string) {
    return this.db
      .select(bookColumns(userId))
      .from(books)
      .innerJoin(libraries, eq(libraries.id, books.libraryId))
      .innerJoin(series, eq(series.id, books.seriesId))
      .leftJoin(readProgress, and(eq(readProgress.bookId, books.id), eq(readProgress.userId, userId)))
      .where(eq(books.id, id))
      .get();
  }

  /** What progress validation needs to know about a book. */
  async getPaging(id: string) {
    return this.db
      .select({ id: books.id, pageCount: books.pageCount, fileFormat: books.fileFormat, epubLayout: books.epubLayout })
      .from(books)
      .where(eq(books.id, id))
      .get();
  }

  /**
   * The book KOReader means by a document hash (DECISIONS.md §Reader apps): readerHash compared
   * case-insensitively (stored lowercase); a live book before a trashed one, then the oldest.
   */
  async findByReaderHash(hash: string) {
    return this.db
      .select({ id: books.id })
      .from(books)
      .where(eq(books.readerHash, hash.toLowerCase()))
      .orderBy(sql`${books.deletedAt} IS NOT NULL`, books.createdAt, books.id)
      .limit(1)
      .get();
  }

  private async runPage(
    page: PageCte,
    countQuery: PromiseLike<Array<{ n: number }>>,
    keys: SortKey[],
    userId: string,
    countInPage: boolean,
    offset: number,
  ) {
    const rowsQuery = this.db
      .with(page)
      .select({ ...bookColumns(userId), pageTotal: PAGE_TOTAL })
      .from(page)
      .innerJoin(books, sql`${books.id} = ${PAGE_ID}`)
      .innerJoin(libraries, eq(libraries.id, books.libraryId))
      .innerJoin(series, eq(series.id, books.seriesId))
      .leftJoin(readProgress, and(eq(readProgress.bookId, books.id), eq(readProgress.userId, userId)))
      .orderBy(...orderPage(keys));
    // Not one D1 batch: batched results come back as objects keyed by column name, which loses the
    // joined tables' same-named columns (title, id…); a plain query reads rows positionally.
    return pageWithTotal(rowsQuery, countQuery, countInPage, offset);
  }
}

export type BookRow = Awaited<ReturnType<BooksRepository['list']>>['rows'][number];
