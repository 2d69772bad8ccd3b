/**
 * Read lists (docs/DECISIONS.md §Organise and share, §Collections and read lists): ordered lists of books
 * across series, shared by everyone and written by maintainers; read in their order (or by release when
 * unordered), one book after the other. Every read and write is for a viewer: hidden books are left out of
 * what is shown and kept in place by edits.
 */
import type { EventPublisher } from '../events/events';
import { notFound } from '../lib/errors';
import type { PageRequest } from '../lib/pagination';
import { toBookDto } from '../mappers/book.mapper';
import { toReadListDto } from '../mappers/lists.mapper';
import { type BooksRepository, READ_LIST_ORDER, RELEASE_ORDER } from '../repositories/books.repository';
import type { FilterNode } from '../repositories/catalog-filters';
import type { PageEnrichment } from '../repositories/catalog-page';
import type { ReadListListQuery, ReadListRow, ReadListsRepository } from '../repositories/read-lists.repository';
import type { Viewer } from '../repositories/visibility';
import type { BookDto } from '../schemas/book.schema';
import type { CreateReadListBody, ReadListDto, UpdateReadListBody } from '../schemas/lists.schema';
import type { ListResult } from './catalog-list';
import { MemberListService } from './member-list.service';

/** The types a read list is made of (member-list.service.ts ListTypes). */
type ReadList = { row: ReadListRow; dto: ReadListDto; query: ReadListListQuery } & {
  create: CreateReadListBody;
  edit: UpdateReadListBody;
};

export interface ReadListsDeps {
  readLists: ReadListsRepository;
  books: BooksRepository;
  events: EventPublisher;
}

export class ReadListsService extends MemberListService<ReadList> {
  constructor(private readonly deps: ReadListsDeps) {
    super(deps.readLists, deps.events, { noun: 'Read list', members: deps.books, toDto: toReadListDto });
  }

  /** A read list of books, ordered unless said otherwise. */
  protected override newList(body: CreateReadListBody) {
    const { name, summary = '', ordered = true, bookIds = [] } = body;
    return { list: { name, summary, ordered }, memberIds: bookIds };
  }

  /** The list's books the viewer may see, in its order (or by release), narrowed by a checked filter. */
  async books(viewer: Viewer, id: string, page: PageRequest, filter?: FilterNode): Promise<ListResult<BookDto>> {
    const list = await this.record(viewer, id);
    const { rows, total } = await this.deps.books.listInReadList(
      viewer,
      id,
      { keys: list.ordered ? READ_LIST_ORDER : RELEASE_ORDER, limit: page.pageSize, offset: page.offset },
      filter,
    );
    return { data: rows.map(toBookDto), total };
  }

  /** The page `books` returns (unfiltered), its rows in a caller's own book shape (`enrich`) read in the page's statement. */
  async booksAs<Row extends { pageTotal: number | null }>(
    viewer: Viewer,
    id: string,
    page: PageRequest,
    enrich: PageEnrichment<Row>,
  ): Promise<{ rows: Array<Omit<Row, 'pageTotal'>>; total: number }> {
    const list = await this.record(viewer, id);
    const keys = list.ordered ? READ_LIST_ORDER : RELEASE_ORDER;
    return this.deps.books.listMembersAs(viewer, id, { keys, limit: page.pageSize, offset: page.offset }, enrich);
  }

  /** The book after (`step` 1) or before (-1) `bookId` in the list, as the viewer sees it; 404 at either end. */
  async sibling(viewer: Viewer, id: string, bookId: string, step: 1 | -1): Promise<string> {
    const ids = (await this.memberIdsOf(viewer, [await this.record(viewer, id)])).get(id) ?? [];
    const index = ids.indexOf(bookId);
    if (index < 0) throw notFound('Book in this read list');
    const other = ids[index + step];
    if (!other) throw notFound(step === 1 ? 'Next book in this read list' : 'Previous book in this read list');
    return other;
  }

  async siblingBook(viewer: Viewer, id: string, bookId: string, step: 1 | -1): Promise<BookDto> {
    const other = await this.sibling(viewer, id, bookId, step);
    const [row] = await this.deps.books.byIds(viewer, [other]);
    if (!row) throw notFound('Book');
    return toBookDto(row);
  }

  /** What the list's cover shows: its first book the viewer may see; null when it has none. */
  override async cover(viewer: Viewer, id: string): Promise<{ kind: 'book'; id: string } | null> {
    const [book] = (await this.books(viewer, id, { page: 1, pageSize: 1, offset: 0 })).data;
    return book ? { kind: 'book', id: book.id } : null;
  }
}
