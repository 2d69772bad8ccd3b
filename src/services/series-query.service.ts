/**
 * Series lists, search and details for the viewer (API.md §4 Series; DECISIONS.md §Lists): turns query
 * parameters and filter bodies into repository queries and maps rows to Series responses.
 */
import { parseSort, type Sort } from '../catalog/sort';
import { notFound } from '../lib/errors';
import type { PageRequest } from '../lib/pagination';
import { toSeriesDto } from '../mappers/series.mapper';
import { type FilterNode, SERIES_FILTER_FIELDS } from '../repositories/catalog-filters';
import { type PageEnrichment, RELEVANCE, type SortKey } from '../repositories/catalog-page';
import { toMatchExpression } from '../repositories/search-index';
import {
  SERIES_SORT_FIELDS,
  type SeriesRepository,
  positionInCollectionKeys,
  type SeriesSortField,
  seriesSortKeys,
} from '../repositories/series.repository';
import type { Viewer } from '../repositories/visibility';
import type { SeriesDto } from '../schemas/series.schema';
import type { LibraryScope } from './book-query.service';
import { checkedCondition, type ListFilter, type ListResult, type SortParams, searchTerms } from './catalog-list';

const BY_NAME: Sort<SeriesSortField> = { field: 'name', direction: 'asc' };
const EMPTY = { data: [], total: 0 };

export class SeriesQueryService {
  constructor(private readonly series: SeriesRepository) {}

  /** GET /series and POST /series/list. With a text search and no explicit sort, best matches first. */
  async list(
    viewer: Viewer,
    params: SortParams & { libraryId?: string },
    page: PageRequest,
    filter: ListFilter = {},
  ): Promise<ListResult<SeriesDto>> {
    const query = this.listQuery(viewer, params, filter);
    if (query === null) return EMPTY;
    const { keys, ...scope } = query;
    return this.run(viewer, page, keys, { libraryId: params.libraryId, ...scope });
  }

  /**
   * The page `list` returns, its rows in a caller's own series shape (`enrich`, the Komga API's), read in the
   * page's statement, and the total.
   */
  async listAs<Row extends { pageTotal: number | null }>(
    viewer: Viewer,
    params: SortParams & { libraryId?: string },
    page: PageRequest,
    filter: ListFilter,
    enrich: PageEnrichment<Row>,
  ): Promise<{ rows: Array<Omit<Row, 'pageTotal'>>; total: number }> {
    const query = this.listQuery(viewer, params, filter);
    if (query === null) return { rows: [], total: 0 };
    const window = { libraryId: params.libraryId, ...query, limit: page.pageSize, offset: page.offset };
    return this.series.listAs(viewer, window, enrich);
  }

  /**
   * The ids of the first `limit` series of each list (as `list` orders them), in one batch: what a page of
   * smart collections shows Komga's clients as `seriesIds`, without reading a series response per member.
   */
  async idsOfEach(
    viewer: Viewer,
    lists: ReadonlyArray<{ params: SortParams; filter: ListFilter }>,
    limit: number,
  ): Promise<string[][]> {
    const queries = lists.map(({ params, filter }) => this.listQuery(viewer, params, filter));
    const runnable = queries.filter((query): query is NonNullable<typeof query> => query !== null);
    const ids = await this.series.idsOfEach(
      viewer,
      runnable.map((query) => ({ ...query, limit, offset: 0 })),
    );
    // A list whose search holds no searchable term has no series, and no statement.
    return queries.map((query) => (query === null ? [] : (ids[runnable.indexOf(query)] ?? [])));
  }

  /** The order, condition and search of a list request, checked (400s); null when nothing can match. */
  private listQuery(viewer: Viewer, params: SortParams, filter: ListFilter) {
    const sort = parseSort(params, SERIES_SORT_FIELDS, BY_NAME);
    const match = searchTerms(filter.fullTextSearch);
    if (match === null) return null;
    const keys = params.listOrder
      ? positionInCollectionKeys(params.listOrder.listId, params.listOrder.direction)
      : match && !params.sort
        ? RELEVANCE
        : seriesSortKeys(sort.field, sort.direction, viewer);
    return { keys, filter: checkedCondition(filter, SERIES_FILTER_FIELDS), match };
  }

  /** POST /series/search: ranked by relevance (DECISIONS.md §Lists). */
  async search(viewer: Viewer, body: { query: string; libraryId?: string }, page: PageRequest) {
    const match = toMatchExpression(body.query);
    if (match === null) return EMPTY;
    return this.run(viewer, page, RELEVANCE, { libraryId: body.libraryId, match });
  }

  async recentlyAdded(viewer: Viewer, scope: LibraryScope, page: PageRequest) {
    return this.run(viewer, page, seriesSortKeys('date_added', 'desc', viewer), scope);
  }

  async recentlyUpdated(viewer: Viewer, scope: LibraryScope, page: PageRequest) {
    return this.run(viewer, page, seriesSortKeys('date_updated', 'desc', viewer), scope);
  }

  async inProgress(viewer: Viewer, scope: LibraryScope, page: PageRequest): Promise<ListResult<SeriesDto>> {
    const { rows, total } = await this.series.listInProgress(viewer, scope.libraryId, page.pageSize, page.offset);
    return { data: rows.map(toSeriesDto), total };
  }

  /** 404 unless the series is live and the viewer sees it: an indexed lookup, not a series response. */
  async assertExists(viewer: Viewer, id: string): Promise<void> {
    if (!(await this.series.exists(viewer, id))) throw notFound('Series');
  }

  async get(viewer: Viewer, id: string): Promise<SeriesDto> {
    const row = await this.series.getById(viewer, id);
    if (!row) throw notFound('Series');
    return toSeriesDto(row);
  }

  private async run(
    viewer: Viewer,
    page: PageRequest,
    keys: SortKey[],
    scope: { libraryId?: string; filter?: FilterNode; match?: string },
  ): Promise<ListResult<SeriesDto>> {
    const { rows, total } = await this.series.list(viewer, {
      ...scope,
      keys,
      limit: page.pageSize,
      offset: page.offset,
    });
    return { data: rows.map(toSeriesDto), total };
  }
}
