/**
 * The rules collections and read lists share (docs/DECISIONS.md §Organise and share, §Collections and read
 * lists): a list is shared by everyone and written by maintainers; a viewer sees it through the members it may
 * see (404 when all are hidden); names are unique ignoring case (409); a body's member ids are checked before
 * anything is written (an unknown, hidden or repeated id is a 400 naming them); and an edit keeps the members
 * hidden from the writer where they are. collections.service.ts and read-lists.service.ts configure this with
 * their member kind and add what is theirs alone (smart rules; reading order and next/previous).
 */
import type { DomainEvent, EventPublisher } from '../events/events';
import { badRequest, conflict, notFound } from '../lib/errors';
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

/** One kind of list: its words, its members, its response and its events. */
export interface MemberListKind<Row extends ListRecord & MemberCounts, Dto> {
  /** What a 404 names ('Collection'), and what a 409 calls it ('collection'). */
  noun: string;
  /** The body field of member ids ('seriesIds') and what one member is called in messages ('series'). */
  memberField: string;
  memberNoun: string;
  /** What a 404 for an unknown or hidden member names ('Series'). */
  memberNotFound: string;
  /** Which of the ids are live members the viewer may see. */
  visibleMembers: (viewer: Viewer, ids: readonly string[]) => Promise<Set<string>>;
  toDto: (row: Row) => Dto;
  /** The event announcing the list's life, its members as they are now. */
  event: (change: 'created' | 'updated' | 'deleted', id: string, memberIds: string[]) => DomainEvent;
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

export abstract class MemberListService<
  Row extends ListRecord & MemberCounts,
  Dto,
  Edit extends ListEdit,
  Query extends PageWindow,
> {
  constructor(
    protected readonly lists: ListStore<Row, Query>,
    protected readonly events: EventPublisher,
    private readonly kind: MemberListKind<Row, Dto>,
  ) {}

  async list(viewer: Viewer, query: Omit<Query, keyof PageWindow>, page: PageRequest) {
    const { rows, total } = await this.rows(viewer, query, page);
    return { data: rows.map(this.kind.toDto), total };
  }

  /** A page of the lists the viewer may see, as rows (the Komga API shows them its own way). */
  rows(
    viewer: Viewer,
    query: Omit<Query, keyof PageWindow>,
    page: PageRequest,
  ): Promise<{ rows: Row[]; total: number }> {
    return this.lists.list(viewer, { ...query, limit: page.pageSize, offset: page.offset } as Query);
  }

  /** Every list holding a member, as rows (404 when the member is unknown or hidden). */
  async rowsOfMember(viewer: Viewer, memberId: string): Promise<{ rows: Row[]; total: number }> {
    await this.assertMemberVisible(viewer, memberId);
    return this.lists.ofMember(viewer, memberId, MEMBERS_LIMIT, 0);
  }

  /** The lists holding a member (404 when the member is unknown or hidden). */
  async ofMember(viewer: Viewer, memberId: string, page: PageRequest): Promise<ListResult<Dto>> {
    await this.assertMemberVisible(viewer, memberId);
    const { rows, total } = await this.lists.ofMember(viewer, memberId, page.pageSize, page.offset);
    return { data: rows.map(this.kind.toDto), total };
  }

  /** What the list's cover shows; null when the viewer sees no member. */
  abstract cover(viewer: Viewer, id: string): Promise<ListCover | null>;

  /** The list of that name whatever its case, if any (any viewer's: names are unique for everyone). */
  idOfName(name: string): Promise<string | undefined> {
    return this.lists.idByName(name);
  }

  async get(viewer: Viewer, id: string): Promise<Dto> {
    return this.kind.toDto(await this.row(viewer, id));
  }

  /** The list as the viewer sees it: 404 when unknown or made only of members hidden from the viewer. */
  async row(viewer: Viewer, id: string): Promise<Row> {
    const row = await this.lists.get(viewer, id);
    if (!row) throw notFound(this.kind.noun);
    return row;
  }

  /** The list's own row as the viewer sees it, without counting its members (404 as `row`). */
  async record(viewer: Viewer, id: string): Promise<RecordOf<Row>> {
    const row = await this.lists.find(viewer, id);
    if (!row) throw notFound(this.kind.noun);
    return row;
  }

  /** The members the viewer may see in each list, in its order (Komga's `seriesIds` and `bookIds`). */
  memberIdsOf(viewer: Viewer, lists: ReadonlyArray<RecordOf<Row>>): Promise<Map<string, string[]>> {
    return this.lists.visibleMemberIds(
      viewer,
      lists.map((list) => list.id),
    );
  }

  /** Writes a new list with its members (checked by the caller) and announces it; its id. */
  async insert(list: Omit<Row, 'id' | keyof MemberCounts | 'createdAt' | 'updatedAt'>, memberIds: readonly string[]) {
    const id = newId();
    const now = nowIso();
    const { lists } = this;
    await lists
      .run([
        lists.create({ id, ...list, createdAt: now, updatedAt: now } as RecordOf<Row>),
        ...lists.members.replace(id, memberIds),
      ])
      .catch((error) => this.rethrowDuplicateName(error));
    this.publish('created', id, [...memberIds]);
    return id;
  }

  /** Writes an edit of the list's own fields (a taken name is a 409) and announces the list as it is. */
  async update(viewer: Viewer, id: string, body: Edit): Promise<Dto> {
    const current = await this.row(viewer, id);
    const changes: Partial<RecordOf<Row>> = this.touched();
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
  async addMembers(viewer: Viewer, id: string, memberIds: readonly string[]): Promise<Dto> {
    await this.editable(viewer, id);
    const { memberField, memberNoun } = this.kind;
    if (memberIds.length === 0)
      throw badRequest(`${memberField} must name at least one ${memberNoun}`, [
        { path: memberField, message: 'empty' },
      ]);
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
  async replaceMembers(viewer: Viewer, id: string, memberIds: readonly string[]): Promise<Dto> {
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
    changes: Partial<RecordOf<Row>> = {},
  ): Promise<void> {
    const { lists } = this;
    const current = await lists.members.all(id);
    const visible = await this.kind.visibleMembers(viewer, current);
    const members = replaceVisibleMembers(current, (member) => !visible.has(member), memberIds);
    await lists.run([...lists.members.replace(id, members), lists.update(id, { ...changes, ...this.touched() })]);
    this.publish('updated', id, members);
  }

  async removeMember(viewer: Viewer, id: string, memberId: string): Promise<void> {
    await this.editable(viewer, id);
    const { lists } = this;
    const visible = await this.kind.visibleMembers(viewer, [memberId]);
    if (visible.size === 0 || !(await lists.members.all(id)).includes(memberId)) {
      throw notFound(`${this.kind.memberNotFound} in this ${this.kind.noun.toLowerCase()}`);
    }
    await lists.run([lists.members.remove(id, memberId), lists.update(id, this.touched())]);
    this.publish('updated', id, await lists.members.all(id));
  }

  /** Every id a member the viewer may see, each named once: else a 400 naming them. */
  async checkMembers(viewer: Viewer, memberIds: readonly string[]): Promise<void> {
    const { memberField, memberNoun } = this.kind;
    checkMemberIds(memberIds, await this.kind.visibleMembers(viewer, memberIds), memberField, memberNoun);
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
  protected changesOf(_current: Row, _body: Edit): Partial<RecordOf<Row>> {
    return {};
  }

  /** The list, when its members may be edited (a smart collection's may not): 404 as `record`. */
  protected editable(viewer: Viewer, id: string): Promise<unknown> {
    return this.record(viewer, id);
  }

  protected publish(change: 'created' | 'updated' | 'deleted', id: string, memberIds: string[]): void {
    this.events.publish(this.kind.event(change, id, memberIds));
  }

  /** The change every edit makes: the list was updated now. */
  private touched(): Partial<RecordOf<Row>> {
    return { updatedAt: nowIso() } as Partial<RecordOf<Row>>;
  }

  private async assertMemberVisible(viewer: Viewer, memberId: string): Promise<void> {
    if ((await this.kind.visibleMembers(viewer, [memberId])).size === 0) throw notFound(this.kind.memberNotFound);
  }

  /** Two writers can pass the name check at once; the unique index decides, as a 409. */
  private rethrowDuplicateName(error: unknown): never {
    const messages = `${error} ${(error as { cause?: unknown } | null)?.cause ?? ''}`;
    if (/UNIQUE constraint failed/i.test(messages)) {
      throw conflict(`A ${this.kind.noun.toLowerCase()} with this name already exists`);
    }
    throw error;
  }
}
