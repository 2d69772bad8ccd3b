/**
 * Series read side (API.md §2 Series, §4 Series): paginated lists with the viewer's unread count and
 * the release-tracking columns, in one query per page. Soft-deleted series never show. Every read is for
 * a viewer and sees only the series visibility.ts lets it.
 */
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { books, collectionSeries, libraries, readProgress, series, seriesTracking, wantToRead } from '../db/schema';
import { SERIES_LIVE_CATALOG_INDEX } from '../db/tables/series';
import { seriesCoverSource } from './cover-source';
import { seriesHasCoverColumn } from './book-extras.repository';
import { compileFilter, type FilterNode, SERIES_FILTER_FIELDS } from './catalog-filters';
import {
  type ListSpec,
  nullsLast,
  ONE_ROW,
  type PageWindow,
  pageIdsQuery,
  readList,
  type SortKey,
} from './catalog-page';
import { readCountsOf } from './catalog-sql';
import { CatalogListRepository } from './catalog-list.repository';
import { rankedMatches } from './search-index';
import { type CountedRows, seesEverything, type Viewer, visibleCount, visibleSeries } from './visibility';

/**
 * `series` read through the covering live-series index: for lists whose rows are found by id (from a term
 * list, the viewer's progress, search results). SQLite would otherwise pick the primary-key index and read
 * each row.
 */
const liveSeriesByCatalogIndex = sql`${series} INDEXED BY ${sql.raw(SERIES_LIVE_CATALOG_INDEX)}`;

/** Live series as visibleCount counts them: by condition, or by id (a series is its own series). */
const countedSeries: CountedRows = {
  count: (where) => sql<number>`(SELECT count(*) FROM ${series} WHERE ${series.deletedAt} IS NULL AND ${where})`,
  countInSeries: (seriesIds) =>
    sql<number>`(SELECT count(*) FROM ${liveSeriesByCatalogIndex} WHERE ${series.deletedAt} IS NULL AND ${series.id} IN (${seriesIds}))`,
  libraryId: series.libraryId,
  seriesId: series.id,
};
import { booksAndSeriesOf, type IdsQuery, liveVisibleSeries } from './live-visible';

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

/** The ORDER BY of each sort field of API.md §4 (date_read: the viewer's latest progress in the series). */
export function seriesSortKeys(field: SeriesSortField, direction: SortKey['direction'], viewer: Viewer): SortKey[] {
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
          WHERE b.series_id = ${series.id} AND rp.user_id = ${viewer.userId})`,
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

/** Columns of a Series response; `wantToRead` (the series itself is queued) only for a detail (lists show null). */
function seriesColumns(viewer: Viewer, detail: boolean) {
  return {
    id: series.id,
    title: series.title,
    titleSort: series.titleSort,
    summary: series.summary,
    publisher: series.publisher,
    year: series.year,
    ageRating: series.ageRating,
    libraryId: series.libraryId,
    libraryName: libraries.name,
    path: series.path,
    bookCount: series.bookCount,
    hasCustomCover: series.hasCustomCover,
    selectedCoverSource: series.selectedCoverSource,
    coverSource: seriesCoverSource,
    localMaxChapter: series.localMaxChapter,
    localMaxVolume: series.localMaxVolume,
    volumesOwned: series.volumesOwned,
    createdAt: series.createdAt,
    updatedAt: series.updatedAt,
    tracking: {
      seriesId: seriesTracking.seriesId,
      tracked: seriesTracking.tracked,
      chapterTracking: seriesTracking.chapterTracking,
      volumeTracking: seriesTracking.volumeTracking,
      providerName: seriesTracking.providerName,
      providerChapterCount: seriesTracking.providerChapterCount,
      providerVolumeCount: seriesTracking.providerVolumeCount,
    },
    readCounts: readCountsOf(viewer, series.id, series.bookCount),
    wantToRead: (detail
      ? sql`EXISTS (SELECT 1 FROM ${wantToRead} WHERE ${wantToRead.userId} = ${viewer.userId}
      AND ${wantToRead.seriesId} = ${series.id})`
      : sql`NULL`
    ).mapWith(Boolean) as SQL<boolean | null>,
  };
}

/** A collection's own order (the positions its writers gave), for `listInCollection`. */
export const COLLECTION_ORDER: SortKey[] = [{ expr: sql`${collectionSeries.position}`, direction: 'asc' }];

/**
 * Each series' position in one collection, Komga's `collection.number` sort of a search narrowed to that
 * collection (a primary-key lookup per series); series outside it, which an `anyOf` may add, come last.
 */
export function positionInCollectionKeys(collectionId: string, direction: SortKey['direction']): SortKey[] {
  return nullsLast(
    sql`(SELECT cs.position FROM ${collectionSeries} cs WHERE cs.collection_id = ${collectionId} AND cs.series_id = ${series.id})`,
    direction,
  );
}

export type SeriesRow = Awaited<ReturnType<SeriesRepository['list']>>['rows'][number];

export interface SeriesListQuery extends PageWindow {
  libraryId?: string;
  /** A checked filter condition (src/catalog/filters.ts). */
  filter?: FilterNode;
  /** A FTS5 MATCH expression (search-index.ts): only matching series, `RELEVANCE` may order them. */
  match?: string;
}

/** Series; with `extrasRead`, its lists read whether each row has a cover in the page's statement. */
export class SeriesRepository extends CatalogListRepository<SeriesListQuery> {
  /**
   * A page of live series. When a search or a condition narrowing to id lists drives it, the page
   * visits and sorts every match anyway and counts them in the same pass (catalog-page.ts).
   */
  async list(viewer: Viewer, query: SeriesListQuery) {
    return this.read(viewer, this.listSpec(viewer, query));
  }

  /**
   * The ids of each list's page, in one D1 batch (Komga's `seriesIds` of a page of smart collections): no
   * count, no enrichment; the same rows and order as `list`.
   */
  async idsOfEach(viewer: Viewer, queries: readonly SeriesListQuery[]): Promise<string[][]> {
    const [first, ...rest] = queries.map((query) => pageIdsQuery(this.db, this.listSpec(viewer, query)));
    if (!first) return [];
    const results = await this.db.batch([first, ...rest]);
    return results.map((rows) => rows.map((row) => row.id));
  }

  protected listSpec(viewer: Viewer, query: SeriesListQuery): ListSpec {
    const filter = query.filter ? compileFilter(query.filter, SERIES_FILTER_FIELDS, viewer) : undefined;
    const unfiltered = filter === undefined && query.match === undefined;
    const countInPage = query.match !== undefined || filter?.narrowsToIds === true;
    return {
      id: series.id,
      from: countInPage ? liveSeriesByCatalogIndex : series,
      // A restricted viewer's filtered count tests each series' library and id: this index holds both.
      countFrom: seesEverything(viewer) ? series : sql`${series} INDEXED BY series_live_library_title_idx`,
      // Unfiltered, the admin's count less the hidden series (visibility.ts visibleCount).
      total: unfiltered && !seesEverything(viewer) ? visibleCount(viewer, countedSeries, query.libraryId) : undefined,
      // The filter's tests before visibility's (SQLite tests terms in this order): the viewer's lists are
      // probed only for the series the filter keeps.
      where: and(
        isNull(series.deletedAt),
        query.libraryId ? eq(series.libraryId, query.libraryId) : undefined,
        filter?.where,
        visibleSeries(viewer, series),
      ),
      match: query.match ? rankedMatches('series', query.match) : undefined,
      window: query,
      countInPage,
    };
  }

  /** Series where the viewer has a book in progress, latest activity first. */
  async listInProgress(viewer: Viewer, libraryId: string | undefined, limit: number, offset: number) {
    return this.read(viewer, {
      id: books.seriesId,
      from: readProgress,
      joins: booksAndSeriesOf(readProgress.bookId),
      where: and(
        eq(readProgress.userId, viewer.userId),
        eq(readProgress.completed, false),
        isNull(books.deletedAt),
        liveVisibleSeries(viewer),
        libraryId ? eq(series.libraryId, libraryId) : undefined,
      ),
      groupBy: books.seriesId,
      window: { keys: [{ expr: sql`max(${readProgress.updatedAt})`, direction: 'desc' }], limit, offset },
      countInPage: false,
    });
  }

  /** One live series with the viewer's data. */
  async getById(viewer: Viewer, id: string): Promise<SeriesRow | undefined> {
    const spec: ListSpec = {
      id: series.id,
      from: series,
      where: liveVisibleSeries(viewer, id),
      window: ONE_ROW,
      countInPage: true,
    };
    return (await this.read(viewer, spec, true)).rows[0];
  }

  /**
   * A page of a collection's live series the viewer may see, in the order `keys` give (the collection's own
   * order is `collection_series.position`: COLLECTION_ORDER), narrowed by a checked filter when given.
   */
  async listInCollection(viewer: Viewer, collectionId: string, window: PageWindow, filter?: FilterNode) {
    return this.read(viewer, this.membersSpec(viewer, collectionId, window, filter));
  }

  protected membersSpec(viewer: Viewer, collectionId: string, window: PageWindow, filter?: FilterNode): ListSpec {
    const compiled = filter ? compileFilter(filter, SERIES_FILTER_FIELDS, viewer) : undefined;
    return {
      id: series.id,
      from: collectionSeries,
      joins: [{ table: series, on: eq(series.id, collectionSeries.seriesId) }],
      where: and(eq(collectionSeries.collectionId, collectionId), liveVisibleSeries(viewer), compiled?.where),
      window,
      countInPage: false,
    };
  }

  /**
   * Series responses of the given ids the viewer may see (live ones), in no particular order; the ids may be a
   * subquery read in the same statement (at most `limit` of them).
   */
  async byIds(viewer: Viewer, ids: readonly string[] | IdsQuery) {
    const limit = 'query' in ids ? ids.limit : ids.length;
    if (limit === 0) return [];
    const named = 'query' in ids ? ids.query : ids;
    const { rows } = await this.read(
      viewer,
      {
        id: series.id,
        from: series,
        where: liveVisibleSeries(viewer, named),
        window: { keys: [], limit, offset: 0 },
        countInPage: true,
      },
      true,
    );
    return rows;
  }

  /** Which of the ids are live series the viewer may see. */
  async visibleIds(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.select({ id: series.id }).from(series).where(liveVisibleSeries(viewer, ids));
    return new Set(rows.map((row) => row.id));
  }

  /** The series is live and visible to the viewer. */
  async exists(viewer: Viewer, id: string): Promise<boolean> {
    const row = await this.db.select({ id: series.id }).from(series).where(liveVisibleSeries(viewer, id)).get();
    return row !== undefined;
  }

  /** Series responses of the page's rows, with the library name, tracking and the viewer's data joined. */
  private async read(viewer: Viewer, spec: ListSpec, detail = false) {
    const { extrasRead } = this;
    const read = await readList(this.db, spec, ({ cte, id, total, order }) =>
      this.db
        .with(cte)
        .select({
          ...seriesColumns(viewer, detail),
          pageTotal: total,
          ...(extrasRead ? { hasCover: seriesHasCoverColumn(viewer) } : {}),
        })
        .from(cte)
        // The page drives (CROSS JOIN keeps SQLite from reordering; books.repository.ts `read` says why).
        .crossJoin(series)
        .innerJoin(libraries, eq(libraries.id, series.libraryId))
        .leftJoin(seriesTracking, eq(seriesTracking.seriesId, series.id))
        .where(sql`${series.id} = ${id}`)
        .orderBy(...order),
    );
    if (!extrasRead) return read;
    const rows = read.rows.map(({ hasCover, ...row }: (typeof read.rows)[number] & { hasCover?: number }) => {
      if (hasCover !== undefined) extrasRead.seriesWithCover.set(row.id, Boolean(hasCover));
      return row;
    });
    return { rows, total: read.total };
  }
}
