/**
 * Series read side (API.md §2 Series, §4 Series): paginated lists with the viewer's unread count and
 * the release-tracking columns, in one query per page. Soft-deleted series never show. Every read is for
 * a viewer and sees only the series visibility.ts lets it.
 */
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books, libraries, readProgress, series, seriesTracking } from '../db/schema';
import { compileFilter, type FilterNode, SERIES_FILTER_FIELDS } from './catalog-filters';
import { type ListSpec, nullsLast, ONE_ROW, type PageWindow, readList, type SortKey } from './catalog-page';
import { readCountsOf } from './catalog-sql';
import { rankedMatches } from './search-index';
import { seesEverything, type Viewer, visibleSeries } from './visibility';

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

/** Columns of a Series response; `wantToRead` only for a detail (lists show null). */
function seriesColumns(viewer: Viewer, detail: boolean) {
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
    readCounts: readCountsOf(viewer, series.id),
    /** The viewer queued at least one of its live books. */
    wantToRead: (detail
      ? sql`EXISTS (SELECT 1 FROM want_to_read w JOIN books b ON b.id = w.book_id
      WHERE w.user_id = ${viewer.userId} AND b.series_id = ${series.id} AND b.deleted_at IS NULL)`
      : sql`NULL`
    ).mapWith(Boolean) as SQL<boolean | null>,
  };
}

export type SeriesRow = Awaited<ReturnType<SeriesRepository['list']>>['rows'][number];

export interface SeriesListQuery extends PageWindow {
  libraryId?: string;
  /** A checked filter condition (src/catalog/filters.ts). */
  filter?: FilterNode;
  /** A FTS5 MATCH expression (search-index.ts): only matching series, `RELEVANCE` may order them. */
  match?: string;
}

export class SeriesRepository {
  constructor(private readonly db: Database) {}

  /**
   * A page of live series. When a search or a condition narrowing to id lists drives it, the page
   * visits and sorts every match anyway and counts them in the same pass (catalog-page.ts).
   */
  async list(viewer: Viewer, query: SeriesListQuery) {
    const filter = query.filter ? compileFilter(query.filter, SERIES_FILTER_FIELDS, viewer) : undefined;
    return this.read(viewer, {
      id: series.id,
      from: series,
      // A restricted viewer's count tests each series' library and id: this index holds both.
      countFrom: seesEverything(viewer) ? series : sql`${series} INDEXED BY series_live_library_title_idx`,
      where: and(
        isNull(series.deletedAt),
        visibleSeries(viewer, series),
        query.libraryId ? eq(series.libraryId, query.libraryId) : undefined,
        filter?.where,
      ),
      match: query.match ? rankedMatches('series', query.match) : undefined,
      window: query,
      countInPage: query.match !== undefined || filter?.narrowsToIds === true,
    });
  }

  /** Series where the viewer has a book in progress, latest activity first. */
  async listInProgress(viewer: Viewer, libraryId: string | undefined, limit: number, offset: number) {
    return this.read(viewer, {
      id: books.seriesId,
      from: readProgress,
      joins: [
        { table: books, on: eq(books.id, readProgress.bookId) },
        { table: series, on: eq(series.id, books.seriesId) },
      ],
      where: and(
        eq(readProgress.userId, viewer.userId),
        eq(readProgress.completed, false),
        isNull(books.deletedAt),
        isNull(series.deletedAt),
        visibleSeries(viewer, series),
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
      where: and(eq(series.id, id), isNull(series.deletedAt), visibleSeries(viewer, series)),
      window: ONE_ROW,
      countInPage: true,
    };
    return (await this.read(viewer, spec, true)).rows[0];
  }

  /** The series is live and visible to the viewer. */
  async exists(viewer: Viewer, id: string): Promise<boolean> {
    const row = await this.db
      .select({ id: series.id })
      .from(series)
      .where(and(eq(series.id, id), isNull(series.deletedAt), visibleSeries(viewer, series)))
      .get();
    return row !== undefined;
  }

  /** Series responses of the page's rows, with the library name, tracking and the viewer's data joined. */
  private read(viewer: Viewer, spec: ListSpec, detail = false) {
    return readList(this.db, spec, ({ cte, id, total, order }) =>
      this.db
        .with(cte)
        .select({ ...seriesColumns(viewer, detail), pageTotal: total })
        .from(cte)
        .innerJoin(series, sql`${series.id} = ${id}`)
        .innerJoin(libraries, eq(libraries.id, series.libraryId))
        .leftJoin(seriesTracking, eq(seriesTracking.seriesId, series.id))
        .orderBy(...order),
    );
  }
}
