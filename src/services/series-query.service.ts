/**
 * Series lists, search and details for the requesting user (API.md §4 Series; DECISIONS.md §Lists):
 * turns query parameters and filter bodies into repository queries and maps rows to Series responses.
 */
import { compileCondition } from '../catalog/filters';
import { seriesFilterFields } from '../catalog/filter-fields';
import { parseSort, type Sort } from '../catalog/sort';
import { notFound } from '../lib/errors';
import type { PageRequest } from '../lib/pagination';
import { toSeriesDto } from '../mappers/series.mapper';
import { RELEVANCE, type SortKey } from '../repositories/catalog-page';
import { toMatchExpression } from '../repositories/search-index';
import { type ListFilter, type ListResult, type SortParams, searchTerms } from './catalog-list';
import {
  SERIES_SORT_FIELDS,
  type SeriesRepository,
  type SeriesSortField,
  seriesSortKeys,
} from '../repositories/series.repository';
import type { SeriesDto } from '../schemas/series.schema';

const BY_NAME: Sort<SeriesSortField> = { field: 'name', direction: 'asc' };
const EMPTY = { data: [], total: 0 };

export class SeriesQueryService {
  constructor(private readonly series: SeriesRepository) {}

  /** GET /series and POST /series/list. With a text search and no explicit sort, best matches first. */
  async list(
    userId: string,
    params: SortParams & { libraryId?: string },
    page: PageRequest,
    filter: ListFilter = {},
  ): Promise<ListResult<SeriesDto>> {
    const sort = parseSort(params, SERIES_SORT_FIELDS, BY_NAME);
    const match = searchTerms(filter.fullTextSearch);
    if (match === null) return EMPTY;
    const keys = match && !params.sort ? RELEVANCE : seriesSortKeys(sort.field, sort.direction, userId);
    const condition = filter.condition ? compileCondition(filter.condition, seriesFilterFields(userId)) : undefined;
    return this.run(userId, page, keys, { libraryId: params.libraryId, condition, match });
  }

  /** POST /series/search: ranked by relevance (DECISIONS.md §Lists). */
  async search(userId: string, body: { query: string; libraryId?: string }, page: PageRequest) {
    const match = toMatchExpression(body.query);
    if (match === null) return EMPTY;
    return this.run(userId, page, RELEVANCE, { libraryId: body.libraryId, match });
  }

  async recentlyAdded(userId: string, libraryId: string | undefined, page: PageRequest) {
    return this.run(userId, page, seriesSortKeys('date_added', 'desc', userId), { libraryId });
  }

  async recentlyUpdated(userId: string, libraryId: string | undefined, page: PageRequest) {
    return this.run(userId, page, seriesSortKeys('date_updated', 'desc', userId), { libraryId });
  }

  async inProgress(userId: string, libraryId: string | undefined, page: PageRequest): Promise<ListResult<SeriesDto>> {
    const { rows, total } = await this.series.listInProgress(userId, libraryId, page.pageSize, page.offset);
    return { data: rows.map(toSeriesDto), total };
  }

  async get(id: string, userId: string): Promise<SeriesDto> {
    const row = await this.series.getById(id, userId);
    if (!row) throw notFound('Series');
    return toSeriesDto(row);
  }

  private async run(
    userId: string,
    page: PageRequest,
    keys: SortKey[],
    scope: { libraryId?: string; condition?: ReturnType<typeof compileCondition>; match?: string },
  ): Promise<ListResult<SeriesDto>> {
    const { rows, total } = await this.series.list({
      userId,
      ...scope,
      keys,
      limit: page.pageSize,
      offset: page.offset,
    });
    return { data: rows.map(toSeriesDto), total };
  }
}
