/**
 * Book lists and details for the requesting user (API.md §4 Books, DECISIONS.md §Lists): catalog lists
 * with sort and filters, and the reading-state lists (in progress, on deck, recently read).
 */
import { compileCondition } from '../catalog/filters';
import { bookFilterFields } from '../catalog/filter-fields';
import { parseSort, type Sort } from '../catalog/sort';
import { notFound } from '../lib/errors';
import type { PageRequest } from '../lib/pagination';
import { toBookDto } from '../mappers/book.mapper';
import {
  BOOK_SORT_FIELDS,
  type BookRow,
  type BookSortField,
  type BooksRepository,
  bookSortKeys,
} from '../repositories/books.repository';
import { RELEVANCE } from '../repositories/catalog-page';
import type { SeriesRepository } from '../repositories/series.repository';
import type { BookDto } from '../schemas/book.schema';
import { type ListFilter, type ListResult, type SortParams, searchTerms } from './catalog-list';

const BY_TITLE: Sort<BookSortField> = { field: 'title', direction: 'asc' };
/** Within one series the natural default is reading order. */
const READING_ORDER: Sort<BookSortField> = { field: 'number', direction: 'asc' };

const toPage = ({ rows, total }: { rows: BookRow[]; total: number }): ListResult<BookDto> => ({
  data: rows.map(toBookDto),
  total,
});

export class BookQueryService {
  constructor(
    private readonly books: BooksRepository,
    private readonly series: SeriesRepository,
  ) {}

  /** GET /books and POST /books/list. */
  async list(
    userId: string,
    params: SortParams & { libraryId?: string; seriesId?: string },
    page: PageRequest,
    filter: ListFilter = {},
  ): Promise<ListResult<BookDto>> {
    const sort = parseSort(params, BOOK_SORT_FIELDS, params.seriesId ? READING_ORDER : BY_TITLE);
    const match = searchTerms(filter.fullTextSearch);
    if (match === null) return { data: [], total: 0 };
    const condition = filter.condition ? compileCondition(filter.condition, bookFilterFields(userId)) : undefined;
    return toPage(
      await this.books.list({
        userId,
        libraryId: params.libraryId,
        seriesId: params.seriesId,
        condition,
        match,
        // With a text search and no explicit sort, best matches first.
        keys: match && !params.sort ? RELEVANCE : bookSortKeys(sort.field, sort.direction),
        limit: page.pageSize,
        offset: page.offset,
      }),
    );
  }

  /** GET /series/{id}/books: reading order unless sorted otherwise; 404 for an unknown series. */
  async listOfSeries(userId: string, seriesId: string, params: SortParams, page: PageRequest) {
    if (!(await this.series.exists(seriesId))) throw notFound('Series');
    return this.list(userId, { ...params, seriesId }, page);
  }

  async get(id: string, userId: string): Promise<BookDto> {
    const row = await this.books.getById(id, userId);
    if (!row) throw notFound('Book');
    return toBookDto(row);
  }

  async recentlyAdded(userId: string, libraryId: string | undefined, page: PageRequest) {
    return this.list(userId, { libraryId, sort: 'created_at', order: 'desc' }, page);
  }

  /** Books the user is reading (progress not completed), latest activity first. */
  async inProgress(userId: string, libraryId: string | undefined, page: PageRequest) {
    return toPage(await this.books.listByProgress(userId, false, libraryId, page.pageSize, page.offset));
  }

  /** Books the user completed, most recently first. */
  async recentlyRead(userId: string, libraryId: string | undefined, page: PageRequest) {
    return toPage(await this.books.listByProgress(userId, true, libraryId, page.pageSize, page.offset));
  }

  async onDeck(userId: string, libraryId: string | undefined, page: PageRequest) {
    return toPage(await this.books.listOnDeck(userId, libraryId, page.pageSize, page.offset));
  }
}
