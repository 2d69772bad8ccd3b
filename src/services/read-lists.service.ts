/**
 * Read lists (docs/DECISIONS.md §Organise and share, §Collections and read lists): ordered lists of books
 * across series, shared by everyone and written by maintainers; read in their order (or by release when
 * unordered), one book after the other. Every read and write is for a viewer: hidden books are left out of
 * what is shown and kept in place by edits.
 */
import type { EventPublisher } from '../events/events';
import { badRequest, conflict, notFound } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import { checkMemberIds, replaceVisibleMembers } from '../lists/members';
import { toBookDto } from '../mappers/book.mapper';
import { toReadListDto } from '../mappers/lists.mapper';
import { type BooksRepository, READ_LIST_ORDER, RELEASE_ORDER } from '../repositories/books.repository';
import type { FilterNode } from '../repositories/catalog-filters';
import type {
  ReadListChanges,
  ReadListListQuery,
  ReadListRecord,
  ReadListRow,
  ReadListsRepository,
} from '../repositories/read-lists.repository';
import type { Viewer } from '../repositories/visibility';
import type { BookDto } from '../schemas/book.schema';
import type { CreateReadListBody, ReadListDto, UpdateReadListBody } from '../schemas/lists.schema';
import type { ListResult } from './catalog-list';

/** Read lists holding one book, read at once for Komga's unpaged answer. */
const MEMBERS_LIMIT = 10_000;

export interface ReadListsDeps {
  readLists: ReadListsRepository;
  books: BooksRepository;
  events: EventPublisher;
}

export class ReadListsService {
  constructor(private readonly deps: ReadListsDeps) {}

  async list(viewer: Viewer, query: Omit<ReadListListQuery, 'limit' | 'offset'>, page: PageRequest) {
    const { rows, total } = await this.rows(viewer, query, page);
    return { data: rows.map(toReadListDto), total };
  }

  /** A page of the read lists the viewer may see, as rows (the Komga API shows them its own way). */
  rows(viewer: Viewer, query: Omit<ReadListListQuery, 'limit' | 'offset'>, page: PageRequest) {
    return this.deps.readLists.list(viewer, { ...query, limit: page.pageSize, offset: page.offset });
  }

  /** Every read list holding a book, as rows (404 when the book is unknown or hidden). */
  async rowsOfBook(viewer: Viewer, bookId: string) {
    if ((await this.deps.books.visibleIds(viewer, [bookId])).size === 0) throw notFound('Book');
    return this.deps.readLists.ofBook(viewer, bookId, MEMBERS_LIMIT, 0);
  }

  /** The read list of that name whatever its case, if any (any viewer's: names are unique for everyone). */
  idOfName(name: string): Promise<string | undefined> {
    return this.deps.readLists.idByName(name);
  }

  async get(viewer: Viewer, id: string): Promise<ReadListDto> {
    return toReadListDto(await this.row(viewer, id));
  }

  /** The read lists holding a book (404 when the book is unknown or hidden). */
  async ofBook(viewer: Viewer, bookId: string, page: PageRequest): Promise<ListResult<ReadListDto>> {
    if ((await this.deps.books.visibleIds(viewer, [bookId])).size === 0) throw notFound('Book');
    const { rows, total } = await this.deps.readLists.ofBook(viewer, bookId, page.pageSize, page.offset);
    return { data: rows.map(toReadListDto), total };
  }

  async create(viewer: Viewer, body: CreateReadListBody): Promise<ReadListDto> {
    const bookIds = body.bookIds ?? [];
    await this.assertNameFree(body.name);
    await this.checkBooks(viewer, bookIds);
    const id = await this.insert(
      { name: body.name, summary: body.summary ?? '', ordered: body.ordered ?? true },
      bookIds,
    );
    return this.get(viewer, id);
  }

  /** Writes a new list with its books (checked by the caller) and announces it; its id. */
  async insert(list: { name: string; summary: string; ordered: boolean }, bookIds: readonly string[]): Promise<string> {
    const id = newId();
    const now = nowIso();
    const { readLists } = this.deps;
    await readLists
      .run([
        readLists.create({ id, ...list, createdAt: now, updatedAt: now }),
        ...readLists.members.replace(id, bookIds),
      ])
      .catch(rethrowDuplicateName);
    this.publish('read_list_created', id, [...bookIds]);
    return id;
  }

  async update(viewer: Viewer, id: string, body: UpdateReadListBody): Promise<ReadListDto> {
    const current = await this.row(viewer, id);
    const changes: ReadListChanges = { updatedAt: nowIso() };
    if (body.name !== undefined && body.name !== current.name) {
      await this.assertNameFree(body.name, id);
      changes.name = body.name;
    }
    if (body.summary !== undefined) changes.summary = body.summary;
    if (body.ordered !== undefined) changes.ordered = body.ordered;
    await this.deps.readLists.run([this.deps.readLists.update(id, changes)]).catch(rethrowDuplicateName);
    this.publish('read_list_updated', id, await this.deps.readLists.members.all(id));
    return this.get(viewer, id);
  }

  async delete(viewer: Viewer, id: string): Promise<void> {
    await this.row(viewer, id);
    const members = await this.deps.readLists.members.all(id);
    await this.deps.readLists.run(this.deps.readLists.delete(id));
    this.publish('read_list_deleted', id, members);
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

  async addBooks(viewer: Viewer, id: string, bookIds: string[]): Promise<ReadListDto> {
    await this.record(viewer, id);
    if (bookIds.length === 0)
      throw badRequest('bookIds must name at least one book', [{ path: 'bookIds', message: 'empty' }]);
    await this.checkBooks(viewer, bookIds);
    const { readLists } = this.deps;
    await readLists.run([...readLists.members.append(id, bookIds), readLists.update(id, { updatedAt: nowIso() })]);
    this.publish('read_list_updated', id, await readLists.members.all(id));
    return this.get(viewer, id);
  }

  /**
   * The books the viewer sees become `bookIds`, in that order (Komelia's reorder, Codex-rs's PUT): books hidden
   * from the viewer stay where they are (docs/DECISIONS.md §Organise and share).
   */
  async replaceBooks(viewer: Viewer, id: string, bookIds: readonly string[]): Promise<ReadListDto> {
    await this.record(viewer, id);
    await this.checkBooks(viewer, bookIds);
    await this.writeVisibleBooks(viewer, id, bookIds);
    return this.get(viewer, id);
  }

  /** Replaces the books the viewer sees (already checked) and announces the change. */
  async writeVisibleBooks(viewer: Viewer, id: string, bookIds: readonly string[], changes: ReadListChanges = {}) {
    const { readLists, books } = this.deps;
    const current = await readLists.members.all(id);
    const visible = await books.visibleIds(viewer, current);
    const members = replaceVisibleMembers(current, (member) => !visible.has(member), bookIds);
    await readLists.run([
      ...readLists.members.replace(id, members),
      readLists.update(id, { ...changes, updatedAt: nowIso() }),
    ]);
    this.publish('read_list_updated', id, members);
  }

  async removeBook(viewer: Viewer, id: string, bookId: string): Promise<void> {
    await this.record(viewer, id);
    const { readLists } = this.deps;
    const visible = await this.deps.books.visibleIds(viewer, [bookId]);
    if (visible.size === 0 || !(await readLists.members.all(id)).includes(bookId))
      throw notFound('Book in this read list');
    await readLists.run([readLists.members.remove(id, bookId), readLists.update(id, { updatedAt: nowIso() })]);
    this.publish('read_list_updated', id, await readLists.members.all(id));
  }

  /** The books the viewer may see in each list, in its order. */
  visibleBookIds(viewer: Viewer, ids: readonly string[]): Promise<Map<string, string[]>> {
    return this.deps.readLists.visibleMemberIds(viewer, ids);
  }

  /** The book after (`step` 1) or before (-1) `bookId` in the list, as the viewer sees it; 404 at either end. */
  async sibling(viewer: Viewer, id: string, bookId: string, step: 1 | -1): Promise<string> {
    await this.record(viewer, id);
    const ids = (await this.visibleBookIds(viewer, [id])).get(id) ?? [];
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
  async cover(viewer: Viewer, id: string): Promise<{ kind: 'book'; id: string } | null> {
    const [book] = (await this.books(viewer, id, { page: 1, pageSize: 1, offset: 0 })).data;
    return book ? { kind: 'book', id: book.id } : null;
  }

  /** The read list as the viewer sees it: 404 when unknown or made only of books hidden from the viewer. */
  async row(viewer: Viewer, id: string): Promise<ReadListRow> {
    const row = await this.deps.readLists.get(viewer, id);
    if (!row) throw notFound('Read list');
    return row;
  }

  /** The read list's own row as the viewer sees it, without counting its books (404 as `row`). */
  async record(viewer: Viewer, id: string): Promise<ReadListRecord> {
    const row = await this.deps.readLists.find(viewer, id);
    if (!row) throw notFound('Read list');
    return row;
  }

  async checkBooks(viewer: Viewer, bookIds: readonly string[]): Promise<void> {
    checkMemberIds(bookIds, await this.deps.books.visibleIds(viewer, bookIds), 'bookIds', 'book');
  }

  async assertNameFree(name: string, exceptId?: string): Promise<void> {
    const taken = await this.deps.readLists.idByName(name);
    if (taken && taken !== exceptId) {
      throw conflict(`A read list named "${name}" already exists`, [{ path: 'name', message: 'already used' }]);
    }
  }

  private publish(
    type: 'read_list_created' | 'read_list_updated' | 'read_list_deleted',
    id: string,
    bookIds: string[],
  ) {
    this.deps.events.publish({ type, read_list_id: id, book_ids: bookIds });
  }
}

function rethrowDuplicateName(error: unknown): never {
  const messages = `${error} ${(error as { cause?: unknown } | null)?.cause ?? ''}`;
  if (/UNIQUE constraint failed/i.test(messages)) throw conflict('A read list with this name already exists');
  throw error;
}
