/**
 * Series read side (API.md §2 Series, §4 Series): paginated lists with the requesting user's unread
 * count and the release-tracking columns, in one query per page. Soft-deleted series never show.
 */
import { and, count, countDistinct, eq, isNull, sql } from 'drizzle-orm';
import type { CompiledCondition } from '../catalog/filters';
import type { Database } from '../db/client';
import { books, libraries, readProgress, series, seriesTracking } from '../db/schema';
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

export const SERIES_SORT_FIELDS = [
  'name',
  'date_added',
  'date_updated',
  'release_date',
  'date_read',
  'book_count',
  'file_size',
  'filename',
  'page_count',
] as const;
export type SeriesSortField = (typeof SERIES_SORT_FIELDS)[number];

/** The ORDER BY of each sort field of API.md §4 (date_read: the user's latest progress in the series). */
export function seriesSortKeys(field: SeriesSortField, direction: 'asc' | 'desc', userId: string): SortKey[] {
  switch (field) {
    case 'name':
      return [{ expr: sql`${series.titleSort} COLLATE NOCASE`, direction }];
    case 'date_added':
      return [{ expr: sql`${series.createdAt}`, direction }];
    case 'date_updated':
      return [{ expr: sql`${series.updatedAt}`, direction }];
    case 'release_date':
      return nullsLast(sql`${series.year}`, direction);
    case 'date_read':
      // CROSS JOIN keeps the series' books as the outer loop: left to itself SQLite starts from the
      // user's progress rows and reads all of them for every series.
      return nullsLast(
        sql`(SELECT max(rp.updated_at) FROM books b CROSS JOIN read_progress rp ON rp.book_id = b.id
          WHERE b.series_id = ${series.id} AND rp.user_id = ${userId})`,
        direction,
      );
    case 'book_count':
      return [{ expr: sql`${series.bookCount}`, direction }];
    case 'file_size':
      return [{ expr: sql`${series.fileSize}`, direction }];
    case 'filename':
      return nullsLast(sql`${series.path} COLLATE NOCASE`, direction);
    case 'page_count':
      return [{ expr: sql`${series.pageCount}`, direction }];
  }
}

function seriesColumns(userId: string) {
  return {
    id: series.id,
    title: series.title,
    titleSort: series.titleSort,
    summary: series.summary,
    publisher: series.publisher,
    year: series.year,
    libraryId: series.libraryId,
    libraryName: libraries.name,
    path: series.path,
    bookCount: series.bookCount,
    hasCustomCover: series.hasCustomCover,
    selectedCoverSource: series.selectedCoverSource,
    localMaxChapter: series.localMaxChapter,
    localMaxVolume: series.localMaxVolume,
    volumesOwned: series.volumesOwned,
    createdAt: series.createdAt,
    updatedAt: series.updatedAt,
    tracking: {
      seriesId: seriesTracking.seriesId,
      chapterTracking: seriesTracking.chapterTracking,
      volumeTracking: seriesTracking.volumeTracking,
      providerName: seriesTracking.providerName,
      providerChapterCount: seriesTracking.providerChapterCount,
      providerVolumeCount: seriesTracking.providerVolumeCount,
    },
    /** Live books the user has not completed. */
    unreadCount: sql<number>`(SELECT count(*) FROM books b WHERE b.series_id = ${series.id} AND b.deleted_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM read_progress rp WHERE rp.book_id = b.id AND rp.user_id = ${userId} AND rp.completed = 1))`,
  };
}

export type SeriesRow = Awaited<ReturnType<SeriesRepository['list']>>['rows'][number];
export type SeriesDetailRow = NonNullable<Awaited<ReturnType<SeriesRepository['getById']>>>;

export interface SeriesListQuery {
  userId: string;
  libraryId?: string;
  /** A compiled filter condition (src/catalog/filters.ts). */
  condition?: CompiledCondition;
  /** A FTS5 MATCH expression (search-index.ts): only matching series, `RELEVANCE` may order them. */
  match?: string;
  keys: SortKey[];
  limit: number;
  offset: number;
}

export class SeriesRepository {
  constructor(private readonly db: Database) {}

  /**
   * A page of live series. When a search or a condition narrowing to id lists drives it, the page
   * visits and sorts every match anyway and counts them in the same pass (catalog-page.ts).
   */
  async list(query: SeriesListQuery) {
    const where = and(
      isNull(series.deletedAt),
      query.libraryId ? eq(series.libraryId, query.libraryId) : undefined,
      query.condition?.where,
    );
    const countInPage = query.match !== undefined || query.condition?.narrowsToIds === true;
    const matches = query.match ? sql`(${rankedMatches('series', query.match)}) AS m` : undefined;
    const pageQuery = this.db
      .select(pageSelection(series.id, query.keys, countInPage))
      .from(series)
      .$dynamic();
    const countQuery = this.db.select({ n: count() }).from(series).$dynamic();
    if (matches) {
      pageQuery.innerJoin(matches, sql`m.entity_id = ${series.id}`);
      countQuery.innerJoin(matches, sql`m.entity_id = ${series.id}`);
    }
    const page = this.db.$with('page').as(
      pageQuery
        .where(where)
        .orderBy(...orderKeys(query.keys, series.id))
        .limit(query.limit)
        .offset(query.offset),
    );
    return this.runPage(page, countQuery.where(where), query.keys, query.userId, countInPage, query.offset);
  }

  /** Series where the user has a book in progress, latest activity first. */
  async listInProgress(userId: string, libraryId: string | undefined, limit: number, offset: number) {
    const keys: SortKey[] = [{ expr: sql`max(${readProgress.updatedAt})`, direction: 'desc' }];
    const where = and(
      eq(readProgress.userId, userId),
      eq(readProgress.completed, false),
      isNull(books.deletedAt),
      isNull(series.deletedAt),
      libraryId ? eq(series.libraryId, libraryId) : undefined,
    );
    const page = this.db.$with('page').as(
      this.db
        .select(pageSelection(books.seriesId, keys))
        .from(readProgress)
        .innerJoin(books, eq(books.id, readProgress.bookId))
        .innerJoin(series, eq(series.id, books.seriesId))
        .where(where)
        .groupBy(books.seriesId)
        .orderBy(...orderKeys(keys, books.seriesId))
        .limit(limit)
        .offset(offset),
    );
    const total = this.db
      .select({ n: countDistinct(books.seriesId) })
      .from(readProgress)
      .innerJoin(books, eq(books.id, readProgress.bookId))
      .innerJoin(series, eq(series.id, books.seriesId))
      .where(where);
    return this.runPage(page, total, keys, userId, false, offset);
  }

  /** One series with the user's data; `wantToRead` = the user queued at least one of its live books. */
  async getById(id: string, userId: string) {
    return this.db
      .select({
        ...seriesColumns(userId),
        wantToRead: sql<boolean>`EXISTS (SELECT 1 FROM want_to_read w JOIN books b ON b.id = w.book_id
          WHERE w.user_id = ${userId} AND b.series_id = ${series.id} AND b.deleted_at IS NULL)`.mapWith(Boolean),
      })
      .from(series)
      .innerJoin(libraries, eq(libraries.id, series.libraryId))
      .leftJoin(seriesTracking, eq(seriesTracking.seriesId, series.id))
      .where(and(eq(series.id, id), isNull(series.deletedAt)))
      .get();
  }

  async exists(id: string): Promise<boolean> {
    const row = await this.db
      .select({ id: series.id })
      .from(series)
      .where(and(eq(series.id, id), isNull(series.deletedAt)))
      .get();
    return row !== undefined;
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
      .select({ ...seriesColumns(userId), pageTotal: PAGE_TOTAL })
      .from(page)
      .innerJoin(series, sql`${series.id} = ${PAGE_ID}`)
      .innerJoin(libraries, eq(libraries.id, series.libraryId))
      .leftJoin(seriesTracking, eq(seriesTracking.seriesId, series.id))
      .orderBy(...orderPage(keys));
    // Not one D1 batch: batched results come back as objects keyed by column name, which loses the
    // joined tables' same-named columns (title, id…); a plain query reads rows positionally.
    return pageWithTotal(rowsQuery, countQuery, countInPage, offset);
  }
}
