/**
 * The rules collections and read lists share (docs/DECISIONS.md §Organise and share, §Collections and read
 * lists): a list is shared by everyone and written by maintainers; a viewer sees it through the members it may
 * see (404 when all are hidden); names are unique ignoring case (409); a body's member ids are checked before
 * anything is written (an unknown, hidden or repeated id is a 400 naming them); and an edit keeps the members
 * hidden from the writer where they are. collections.service.ts and read-lists.service.ts configure this with
 * their member kind and add what is theirs alone (smart rules; reading order and next/previous).
 */
import type { DomainEvent, EventPublisher } from '../events/events';
import { badRequest, conflict, isUniqueViolation, notFound } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import { checkMemberIds, replaceVisibleMembers } from '../lists/members';
import type { MemberCounts } from '../repositories/list-members';
import type { Statement } from '../repositories/catalog-writer.repository';
import type { ListMembers } from '../repositories/list-members';
import type { Viewer } from '../repositories/visibility';
import type { ListResult } from './catalog-list';

/** Lists holding one member, read at once for Komga's unpaged answer. */
export const MEMBERS_LIMIT = 10_000;

/** The columns every list row has. */
interface ListRecord {
  id: string;
  name: string;
  summary: string | null;
  ordered: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What the members of each kind of list are, in the words of its messages and bodies. */
const MEMBER_WORDS = {
  Collection: { field: 'seriesIds', noun: 'series', notFound: 'Series' },
  'Read list': { field: 'bookIds', noun: 'book', notFound: 'Book' },
} as const;

/** One kind of list: what it is called, what its members are, its response. */
export interface MemberListKind<Row extends ListRecord & MemberCounts, Dto> {
  /** What a 404 names ('Collection'); lower-cased, what a 409 calls it. Its events are named after it. */
  noun: 'Collection' | 'Read list';
  /** Where the members are: which of the ids are live members the viewer may see. */
  members: { visibleIds(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> };
  toDto: (row: Row) => Dto;
}

/** The event announcing a list's life, its members as they are now (docs/DECISIONS.md §Organise and share). */
function listEvent(
  noun: MemberListKind<never, unknown>['noun'],
  change: 'created' | 'updated' | 'deleted',
  id: string,
  memberIds: string[],
): DomainEvent {
  return noun === 'Collection'
    ? { type: `collection_${change}`, collection_id: id, series_ids: memberIds }
    : { type: `read_list_${change}`, read_list_id: id, book_ids: memberIds };
}

/** The fields every list's edit may send. */
export interface ListEdit {
  name?: string;
  summary?: string | null;
  ordered?: boolean;
}

/** A list's own row, without the viewer's member counts. */
type RecordOf<Row> = Omit<Row, keyof MemberCounts>;

/** Where a page of lists starts and how long it is. */
interface PageWindow {
  limit: number;
  offset: number;
}

/** What the rules need of a list repository (lists.repository.ts ListsRepository, configured for one kind). */
export interface ListStore<Row extends ListRecord & MemberCounts, Query extends PageWindow> {
  readonly members: ListMembers;
  list(viewer: Viewer, query: Query): Promise<{ rows: Row[]; total: number }>;
  ofMember(viewer: Viewer, memberId: string, limit: number, offset: number): Promise<{ rows: Row[]; total: number }>;
  get(viewer: Viewer, id: string): Promise<Row | undefined>;
  find(viewer: Viewer, id: string): Promise<RecordOf<Row> | undefined>;
  idByName(name: string): Promise<string | undefined>;
  visibleMemberIds(viewer: Viewer, listIds: readonly string[]): Promise<Map<string, string[]>>;
  create(row: RecordOf<Row>): Statement;
  update(id: string, changes: Partial<RecordOf<Row>>): Statement;
  delete(id: string): Statement[];
  run(statements: Statement[]): Promise<void>;
}

/** What a list's cover shows: its first member (or, for a smart collection of books, book) the viewer may see. */
export interface ListCover {
  kind: 'series' | 'book';
  id: string;
}

/** The types one kind of list is made of: its row as a viewer sees it, its response, edit body and list query. */
export interface ListTypes {
  row: ListRecord & MemberCounts;
  dto: unknown;
  create: unknown;
  edit: ListEdit;
  query: PageWindow;
}

/** A new list's own fields. */
/** A list as a create body makes it: shared (an owner is set only by a migration from Kavita). */
type NewList<Row> = Omit<Row, 'id' | keyof MemberCounts | 'createdAt' | 'updatedAt' | 'ownerUserId'>;

export abstract class MemberListService<T extends ListTypes> {
  constructor(
    protected readonly lists: ListStore<T['row'], T['query']>,
    protected readonly events: EventPublisher,
    private readonly kind: MemberListKind<T['row'], T['dto']>,
  ) {
    this.words = MEMBER_WORDS[kind.noun];
  }

  private readonly words: (typeof MEMBER_WORDS)[keyof typeof MEMBER_WORDS];

  async list(viewer: Viewer, query: Omit<T['query'], keyof PageWindow>, page: PageRequest) {
    const { rows, total } = await this.rows(viewer, query, page);
    return { data: rows.map(this.kind.toDto), total };
  }

  /** A page of the lists the viewer may see, as rows (the Komga API shows them its own way). */
  rows(
    viewer: Viewer,
    query: Omit<T['query'], keyof PageWindow>,
    page: PageRequest,
  ): Promise<{ rows: T['row'][]; total: number }> {
    return this.lists.list(viewer, { ...query, limit: page.pageSize, offset: page.offset } as T['query']);
  }

  /** Every list holding a member, as rows (404 when the member is unknown or hidden). */
  async rowsOfMember(viewer: Viewer, memberId: string): Promise<{ rows: T['row'][]; total: number }> {
    await this.assertMemberVisible(viewer, memberId);
    return this.lists.ofMember(viewer, memberId, MEMBERS_LIMIT, 0);
  }

  /** The lists holding a member (404 when the member is unknown or hidden). */
  async ofMember(viewer: Viewer, memberId: string, page: PageRequest): Promise<ListResult<T['dto']>> {
    await this.assertMemberVisible(viewer, memberId);
    const { rows, total } = await this.lists.ofMember(viewer, memberId, page.pageSize, page.offset);
    return { data: rows.map(this.kind.toDto), total };
  }

  /** What the list's cover shows; null when the viewer sees no member. */
  abstract cover(viewer: Viewer, id: string): Promise<ListCover | null>;

  /** The shared list of that name whatever its case, if any (any viewer's: shared names are unique for everyone). */
  idOfName(name: string): Promise<string | undefined> {
    return this.lists.idByName(name);
  }

  async get(viewer: Viewer, id: string): Promise<T['dto']> {
    return this.kind.toDto(await this.row(viewer, id));
  }

  /** The list as the viewer sees it: 404 when unknown or made only of members hidden from the viewer. */
  async row(viewer: Viewer, id: string): Promise<T['row']> {
    const row = await this.lists.get(viewer, id);
    if (!row) throw notFound(this.kind.noun);
    return row;
  }

  /** The list's own row as the viewer sees it, without counting its members (404 as `row`). */
  async record(viewer: Viewer, id: string): Promise<RecordOf<T['row']>> {
    const row = await this.lists.find(viewer, id);
    if (!row) throw notFound(this.kind.noun);
    return row;
  }

  /** The members the viewer may see in each list, in its order (Komga's `seriesIds` and `bookIds`). */
  memberIdsOf(viewer: Viewer, lists: ReadonlyArray<RecordOf<T['row']>>): Promise<Map<string, string[]>> {
    return this.lists.visibleMemberIds(
      viewer,
      lists.map((list) => list.id),
    );
  }

  /** Creates a list from a create body: its name must be free and its members visible to the creator. */
  async create(viewer: Viewer, body: T['create']): Promise<T['dto']> {
    const { list, memberIds } = this.newList(body);
    await this.assertNameFree(list.name);
    await this.checkMembers(viewer, memberIds);
    return this.get(viewer, await this.insert(list, memberIds));
  }

  /** The list and members a create body asks for (checked as far as the body alone can tell). */
  protected abstract newList(body: T['create']): { list: NewList<T['row']>; memberIds: readonly string[] };

  /** Writes a new list with its members (checked by the caller) and announces it; its id. */
  async insert(list: NewList<T['row']>, memberIds: readonly string[]) {
    const id = newId();
    const now = nowIso();
    const { lists } = this;
    await lists
      .run([
        lists.create({ id, ...list, createdAt: now, updatedAt: now } as RecordOf<T['row']>),
        ...lists.members.replace(id, memberIds),
      ])
      .catch((error) => this.rethrowDuplicateName(error));
    this.publish('created', id, [...memberIds]);
    return id;
  }

  /** Writes an edit of the list's own fields (a taken name is a 409) and announces the list as it is. */
  async update(viewer: Viewer, id: string, body: T['edit']): Promise<T['dto']> {
    const current = await this.row(viewer, id);
    const changes: Partial<RecordOf<T['row']>> = this.touched();
    if (body.name !== undefined && body.name !== current.name) {
      await this.assertNameFree(body.name, id);
      changes.name = body.name;
    }
    if (body.summary !== undefined) changes.summary = body.summary;
    if (body.ordered !== undefined) changes.ordered = body.ordered;
    Object.assign(changes, this.changesOf(current, body));
    await this.lists.run([this.lists.update(id, changes)]).catch((error) => this.rethrowDuplicateName(error));
    this.publish('updated', id, await this.lists.members.all(id));
    return this.get(viewer, id);
  }

  async delete(viewer: Viewer, id: string): Promise<void> {
    await this.row(viewer, id);
    const members = await this.lists.members.all(id);
    await this.lists.run(this.lists.delete(id));
    this.publish('deleted', id, members);
  }

  /** Adds members after the last one; members already there keep their place. */
  async addMembers(viewer: Viewer, id: string, memberIds: readonly string[]): Promise<T['dto']> {
    await this.editable(viewer, id);
    const { field, noun } = this.words;
    if (memberIds.length === 0) {
      throw badRequest(`${field} must name at least one ${noun}`, [{ path: field, message: 'empty' }]);
    }
    await this.checkMembers(viewer, memberIds);
    const { lists } = this;
    await lists.run([...lists.members.append(id, memberIds), lists.update(id, this.touched())]);
    this.publish('updated', id, await lists.members.all(id));
    return this.get(viewer, id);
  }

  /**
   * The members the viewer sees become `memberIds`, in that order (Komga's PATCH, Komelia's reorder, Codex-rs's
   * PUT): members hidden from the viewer stay where they are (docs/DECISIONS.md §Organise and share).
   */
  async replaceMembers(viewer: Viewer, id: string, memberIds: readonly string[]): Promise<T['dto']> {
    await this.editable(viewer, id);
    await this.checkMembers(viewer, memberIds);
    await this.writeVisibleMembers(viewer, id, memberIds);
    return this.get(viewer, id);
  }

  /** Replaces the members the viewer sees (already checked) and announces the change. */
  async writeVisibleMembers(
    viewer: Viewer,
    id: string,
    memberIds: readonly string[],
    changes: Partial<RecordOf<T['row']>> = {},
  ): Promise<void> {
    const { lists } = this;
    const current = await lists.members.all(id);
    const visible = await this.kind.members.visibleIds(viewer, current);
    const members = replaceVisibleMembers(current, (member) => !visible.has(member), memberIds);
    await lists.run([...lists.members.replace(id, members), lists.update(id, { ...changes, ...this.touched() })]);
    this.publish('updated', id, members);
  }

  async removeMember(viewer: Viewer, id: string, memberId: string): Promise<void> {
    await this.editable(viewer, id);
    const { lists } = this;
    const visible = await this.kind.members.visibleIds(viewer, [memberId]);
    if (visible.size === 0 || !(await lists.members.all(id)).includes(memberId)) {
      throw notFound(`${this.words.notFound} in this ${this.kind.noun.toLowerCase()}`);
    }
    await lists.run([lists.members.remove(id, memberId), lists.update(id, this.touched())]);
    this.publish('updated', id, await lists.members.all(id));
  }

  /** Every id a member the viewer may see, each named once: else a 400 naming them. */
  async checkMembers(viewer: Viewer, memberIds: readonly string[]): Promise<void> {
    const { field, noun } = this.words;
    checkMemberIds(memberIds, await this.kind.members.visibleIds(viewer, memberIds), field, noun);
  }

  async assertNameFree(name: string, exceptId?: string): Promise<void> {
    const taken = await this.lists.idByName(name);
    if (taken && taken !== exceptId) {
      throw conflict(`A ${this.kind.noun.toLowerCase()} named "${name}" already exists`, [
        { path: 'name', message: 'already used' },
      ]);
    }
  }

  /** The changes of an edit beyond name, summary and order (a collection's rule): none by default. */
  protected changesOf(_current: T['row'], _body: T['edit']): Partial<RecordOf<T['row']>> {
    return {};
  }

  /** The list, when its members may be edited (a smart collection's may not): 404 as `record`. */
  protected editable(viewer: Viewer, id: string): Promise<unknown> {
    return this.record(viewer, id);
  }

  private publish(change: 'created' | 'updated' | 'deleted', id: string, memberIds: string[]): void {
    this.events.publish(listEvent(this.kind.noun, change, id, memberIds));
  }

  /** The change every edit makes: the list was updated now. */
  private touched(): Partial<RecordOf<T['row']>> {
    return { updatedAt: nowIso() } as Partial<RecordOf<T['row']>>;
  }

  private async assertMemberVisible(viewer: Viewer, memberId: string): Promise<void> {
    if ((await this.kind.members.visibleIds(viewer, [memberId])).size === 0) {
      throw notFound(this.words.notFound);
    }
  }

  /** Two writers can pass the name check at once; the unique index decides, as a 409. */
  private rethrowDuplicateName(error: unknown): never {
    if (isUniqueViolation(error)) {
      throw conflict(`A ${this.kind.noun.toLowerCase()} with this name already exists`);
    }
    throw error;
  }
}
