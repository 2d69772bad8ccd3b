/**
 * Book lists and details for the viewer (API.md §4 Books, DECISIONS.md §Lists): catalog lists with
 * sort and filters, and the reading-state lists (in progress, on deck, recently read).
 */
import { parseSort, type Sort } from '../catalog/sort';
import { notFound } from '../lib/errors';
import type { PageRequest } from '../lib/pagination';
import { toBookDto } from '../mappers/book.mapper';
import {
  BOOK_SORT_FIELDS,
  type BookListQuery,
  type BookRow,
  type BookSortField,
  type BooksRepository,
  bookSortKeys,
  positionInReadListKeys,
} from '../repositories/books.repository';
import { BOOK_FILTER_FIELDS } from '../repositories/catalog-filters';
import { type PageEnrichment, RELEVANCE } from '../repositories/catalog-page';
import type { SeriesRepository } from '../repositories/series.repository';
import type { Viewer } from '../repositories/visibility';
import type { BookDto } from '../schemas/book.schema';
import { checkedCondition, type ListFilter, type ListResult, type SortParams, searchTerms } from './catalog-list';

const BY_TITLE: Sort<BookSortField> = { field: 'title', direction: 'asc' };
/** Within one series the natural default is reading order. */
const READING_ORDER: Sort<BookSortField> = { field: 'number', direction: 'asc' };

const toPage = ({ rows, total }: { rows: BookRow[]; total: number }): ListResult<BookDto> => ({
  data: rows.map(toBookDto),
  total,
});

/** The scope of the fixed-order lists: one library, or all. */
export interface LibraryScope {
  libraryId?: string;
}

export class BookQueryService {
  constructor(
    private readonly books: BooksRepository,
    private readonly series: SeriesRepository,
  ) {}

  /** GET /books and POST /books/list. */
  async list(
    viewer: Viewer,
    params: SortParams & { libraryId?: string; seriesId?: string },
    page: PageRequest,
    filter: ListFilter = {},
  ): Promise<ListResult<BookDto>> {
    const query = this.listQuery(params, page, filter);
    return query === null ? { data: [], total: 0 } : toPage(await this.books.list(viewer, query));
  }

  /**
   * The page `list` returns, its rows in a caller's own book shape (`enrich`, the Komga API's), read in the
   * page's statement, and the total.
   */
  async listAs<Row extends { pageTotal: number | null }>(
    viewer: Viewer,
    params: SortParams & { libraryId?: string; seriesId?: string },
    page: PageRequest,
    filter: ListFilter,
    enrich: PageEnrichment<Row>,
  ): Promise<{ rows: Array<Omit<Row, 'pageTotal'>>; total: number }> {
    const query = this.listQuery(params, page, filter);
    return query === null ? { rows: [], total: 0 } : this.books.listAs(viewer, query, enrich);
  }

  /** The order, condition and search of a list request, checked (400s); null when nothing can match. */
  private listQuery(
    params: SortParams & { libraryId?: string; seriesId?: string },
    page: PageRequest,
    filter: ListFilter,
  ): BookListQuery | null {
    const sort = parseSort(params, BOOK_SORT_FIELDS, params.seriesId ? READING_ORDER : BY_TITLE);
    const match = searchTerms(filter.fullTextSearch);
    if (match === null) return null;
    return {
      libraryId: params.libraryId,
      seriesId: params.seriesId,
      filter: checkedCondition(filter, BOOK_FILTER_FIELDS),
      match,
      // A read list's own order when asked (Komga's readList.number); with a text search and no explicit sort,
      // best matches first.
      keys: params.listOrder
        ? positionInReadListKeys(params.listOrder.listId, params.listOrder.direction)
        : match && !params.sort
          ? RELEVANCE
          : bookSortKeys(sort.field, sort.direction),
      limit: page.pageSize,
      offset: page.offset,
    };
  }

  /** GET /series/{id}/books: reading order unless sorted otherwise; 404 for an unknown series. */
  async listOfSeries(viewer: Viewer, seriesId: string, params: SortParams, page: PageRequest) {
    const result = await this.list(viewer, { ...params, seriesId }, page);
    // A book listed shows the series is there for the viewer: only an empty page asks whether it is.
    if (result.data.length === 0 && !(await this.series.exists(viewer, seriesId))) throw notFound('Series');
    return result;
  }

  async get(viewer: Viewer, id: string): Promise<BookDto> {
    const row = await this.books.getById(viewer, id);
    if (!row) throw notFound('Book');
    return toBookDto(row);
  }

  async recentlyAdded(viewer: Viewer, scope: LibraryScope, page: PageRequest) {
    return this.list(viewer, { libraryId: scope.libraryId, sort: 'created_at', order: 'desc' }, page);
  }

  /** Books the viewer is reading (progress not completed), latest activity first. */
  async inProgress(viewer: Viewer, scope: LibraryScope, page: PageRequest) {
    return toPage(await this.books.listByProgress(viewer, false, scope.libraryId, page.pageSize, page.offset));
  }

  /** Books the viewer completed, most recently first. */
  async recentlyRead(viewer: Viewer, scope: LibraryScope, page: PageRequest) {
    return toPage(await this.books.listByProgress(viewer, true, scope.libraryId, page.pageSize, page.offset));
  }

  async onDeck(viewer: Viewer, scope: LibraryScope, page: PageRequest) {
    return toPage(await this.books.listOnDeck(viewer, scope.libraryId, page.pageSize, page.offset));
  }

  /** `inProgress` (`completed` false) or `recentlyRead` (true) in a caller's own book shape (listAs). */
  progressAs<Row extends { pageTotal: number | null }>(
    viewer: Viewer,
    completed: boolean,
    scope: LibraryScope,
    page: PageRequest,
    enrich: PageEnrichment<Row>,
  ) {
    const window = { libraryId: scope.libraryId, limit: page.pageSize, offset: page.offset };
    return this.books.byProgressAs(viewer, completed, window, enrich);
  }

  /** `onDeck` in a caller's own book shape (listAs). */
  onDeckAs<Row extends { pageTotal: number | null }>(
    viewer: Viewer,
    scope: LibraryScope,
    page: PageRequest,
    enrich: PageEnrichment<Row>,
  ) {
    return this.books.onDeckAs(
      viewer,
      { libraryId: scope.libraryId, limit: page.pageSize, offset: page.offset },
      enrich,
    );
  }
}
