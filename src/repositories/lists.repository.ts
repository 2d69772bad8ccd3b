/**
 * Collections and read lists are one concept (docs/DECISIONS.md §Organise and share): a named list of members
 * (series or books) at positions, read in that order when `ordered`, shared by everyone, and seen by each
 * viewer through the members it may see. The queries are written once here over a small descriptor (the
 * lists' table, their member table, how an unordered list reads); collections.repository.ts and
 * read-lists.repository.ts only describe their list and add what is theirs alone.
 *
 * What a viewer sees of a list: its live members it may see, counted; a list whose members are all hidden from
 * the viewer is not listed and not found, like a missing one. An empty list is always shown (and a smart
 * collection, through `alwaysShown`). A list with an owner (one a migration from Kavita brought) is its owner's
 * alone: to anyone else it is missing, on reads and writes alike.
 */
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { getTableColumns } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { Statement } from './catalog-writer.repository';
import { inIds } from './catalog-sql';
import {
  hasMember,
  ListMembers,
  type MemberCounts,
  type MemberJoin,
  memberCounts,
  type MemberTable,
  withCounts,
} from './list-members';
import type { Viewer } from './visibility';

/** The columns every list table has. */
type ListTable = SQLiteTable & {
  id: SQLiteColumn;
  name: SQLiteColumn;
  ownerUserId: SQLiteColumn;
  ordered: SQLiteColumn;
  createdAt: SQLiteColumn;
  updatedAt: SQLiteColumn;
};

/** How one kind of list is stored and read. */
export interface ListKind<T extends ListTable> {
  table: T;
  /** Its member table, and how a query over the lists reaches the live members (list-members.ts). */
  members: MemberJoin & MemberTable;
  /** Lists shown to every viewer whatever their members (smart collections); none when undefined. */
  alwaysShown?: SQL;
  /**
   * How the members of an unordered list follow each other (an ordered one reads its positions first), over
   * the member table aliased `member`, and the table `orderJoin` adds when the order needs one.
   */
  unorderedOrder: SQL[];
  orderJoin?: { table: SQLiteTable; on: SQL };
  /** Sort orders of a page of lists; `name` is the default. */
  sorts: { name: SQL } & Record<string, SQL>;
}

export interface ListPageQuery<Sort extends string> {
  /** Only lists holding a member of one of these libraries that the viewer may see. */
  libraryIds?: readonly string[];
  /** Name contains (case-insensitive). */
  search?: string;
  sort?: { field: Sort; direction: 'asc' | 'desc' };
  limit: number;
  offset: number;
}

export class ListsRepository<T extends ListTable, Sort extends string = 'name'> {
  readonly members: ListMembers;

  constructor(
    protected readonly db: Database,
    private readonly kind: ListKind<T>,
  ) {
    this.members = new ListMembers(db, kind.members);
  }

  /** A page of the lists the viewer may see, by name unless sorted otherwise; `where` narrows it further. */
  async list(
    viewer: Viewer,
    query: ListPageQuery<Sort>,
    where?: SQL,
  ): Promise<{ rows: Array<T['$inferSelect'] & MemberCounts>; total: number }> {
    const { table, members } = this.kind;
    const condition = and(
      where,
      query.search ? sql`instr(lower(${table.name}), lower(${query.search})) > 0` : undefined,
      query.libraryIds?.length
        ? hasMember(members, viewer, inIds(members.member.libraryId, query.libraryIds))
        : undefined,
    );
    const sort = query.sort ?? { field: 'name', direction: 'asc' };
    const order = this.kind.sorts[sort.field] ?? this.kind.sorts.name;
    return this.page(viewer, condition, sort.direction === 'asc' ? asc(order) : sql`${order} DESC`, query);
  }

  /** One list with its member counts, when the viewer may see it. */
  async get(viewer: Viewer, id: string): Promise<(T['$inferSelect'] & MemberCounts) | undefined> {
    const row = await this.db
      .select(this.columns(viewer))
      .from(this.kind.table as SQLiteTable)
      .where(and(eq(this.kind.table.id, id), this.shownTo(viewer)))
      .get();
    return row && (withCounts(row as { counts: MemberCounts }) as T['$inferSelect'] & MemberCounts);
  }

  /** One list's own row, when the viewer may see it (no member counts: what reading its members needs). */
  async find(viewer: Viewer, id: string): Promise<T['$inferSelect'] | undefined> {
    return this.db
      .select()
      .from(this.kind.table as SQLiteTable)
      .where(and(eq(this.kind.table.id, id), this.shownTo(viewer)))
      .get() as Promise<T['$inferSelect'] | undefined>;
  }

  /** The lists holding a member, that the viewer may see (the member must be visible too), by name. */
  async ofMember(viewer: Viewer, memberId: string, limit: number, offset: number) {
    const { table, members } = this.kind;
    const { member } = members;
    const holding = sql`${table.id} IN (SELECT ${members.listId} FROM ${members.table}
      JOIN ${members.membersTable} AS ${sql.raw('member')} ON ${member.id} = ${members.memberId}
      WHERE ${members.memberId} = ${memberId} AND ${member.deletedAt} IS NULL AND ${members.visible(viewer)})`;
    return this.page(viewer, holding, asc(this.kind.sorts.name), { limit, offset });
  }

  /**
   * The live members the viewer may see in each of the lists, in each one's order (its positions when ordered,
   * else `unorderedOrder`): Komga's `seriesIds`/`bookIds`, next/previous, the tracker, and the cover.
   */
  async visibleMemberIds(viewer: Viewer, listIds: readonly string[]): Promise<Map<string, string[]>> {
    const byList = new Map<string, string[]>(listIds.map((id) => [id, []]));
    if (listIds.length === 0) return byList;
    const { table, members, orderJoin } = this.kind;
    const { member } = members;
    let query = this.db
      .select({ listId: sql<string>`${members.listId}`, memberId: sql<string>`${members.memberId}` })
      .from(members.table)
      .innerJoin(table as SQLiteTable, eq(table.id, members.listId))
      .innerJoin(member, eq(member.id, members.memberId))
      .$dynamic();
    if (orderJoin) query = query.innerJoin(orderJoin.table, orderJoin.on);
    const rows = await query
      .where(and(inIds(members.listId, listIds), sql`${member.deletedAt} IS NULL`, members.visible(viewer)))
      .orderBy(
        members.listId,
        sql`CASE WHEN ${table.ordered} THEN ${members.position} END`,
        ...this.kind.unorderedOrder,
        member.id,
      );
    for (const row of rows) byList.get(row.listId)?.push(row.memberId);
    return byList;
  }

  /** The shared list named `name` whatever its case (names are unique that way), any viewer's. */
  async idByName(name: string): Promise<string | undefined> {
    const { table } = this.kind;
    const row = await this.db
      .select({ id: sql<string>`${table.id}` })
      .from(table as SQLiteTable)
      .where(sql`lower(${table.name}) = lower(${name}) AND ${table.ownerUserId} IS NULL`)
      .get();
    return row?.id;
  }

  /**
   * The names among these that a list of the same owner (or, for null, a shared list) already has, as
   * `<owner or ''>/<lower-case name>` (how the unique index tells them apart).
   */
  async namesTaken(names: readonly string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const { table } = this.kind;
    const lower = JSON.stringify(names.map((name) => name.toLowerCase()));
    const rows = await this.db
      .select({ key: sql<string>`coalesce(${table.ownerUserId}, '') || '/' || lower(${table.name})` })
      .from(table as SQLiteTable)
      .where(sql`lower(${table.name}) IN (SELECT value FROM json_each(${lower}))`);
    return new Set(rows.map((row) => row.key));
  }

  /** Whether the list exists at all (a writer's edit of a list it cannot see is a 404 still). */
  async record(id: string): Promise<T['$inferSelect'] | undefined> {
    const { table } = this.kind;
    return this.db
      .select()
      .from(table as SQLiteTable)
      .where(eq(table.id, id))
      .get() as Promise<T['$inferSelect'] | undefined>;
  }

  create(row: T['$inferInsert'] & { id: string }): Statement {
    return this.db.insert(this.kind.table).values(row as never);
  }

  update(id: string, changes: Partial<T['$inferSelect']>): Statement {
    return this.db
      .update(this.kind.table)
      .set(changes as never)
      .where(eq(this.kind.table.id, id));
  }

  delete(id: string): Statement[] {
    const { table, members } = this.kind;
    return [this.db.delete(members.table).where(eq(members.listId, id)), this.db.delete(table).where(eq(table.id, id))];
  }

  /** Runs a change as one D1 batch (one transaction). */
  async run(statements: Statement[]): Promise<void> {
    const [first, ...rest] = statements;
    if (first) await this.db.batch([first, ...rest]);
  }

  /**
   * What the viewer may see of a list: a shared one or their own, with a visible member, no member at all, or
   * always shown.
   */
  private shownTo(viewer: Viewer): SQL {
    const { alwaysShown, members, table } = this.kind;
    const whose = sql`(${table.ownerUserId} IS NULL OR ${table.ownerUserId} = ${viewer.userId})`;
    const visibleOrEmpty = sql`${hasMember(members, viewer)} OR NOT ${hasMember(members)}`;
    return alwaysShown
      ? sql`${whose} AND (${alwaysShown} OR ${visibleOrEmpty})`
      : sql`${whose} AND (${visibleOrEmpty})`;
  }

  private columns(viewer: Viewer) {
    return { ...getTableColumns(this.kind.table as SQLiteTable), counts: memberCounts(this.kind.members, viewer) };
  }

  /** A page of the lists matching `where` (ties broken by id), with the viewer's member counts. */
  private async page(
    viewer: Viewer,
    where: SQL | undefined,
    order: SQL,
    { limit, offset }: { limit: number; offset: number },
  ): Promise<{ rows: Array<T['$inferSelect'] & MemberCounts>; total: number }> {
    const table = this.kind.table as SQLiteTable;
    const [rows, [count]] = await Promise.all([
      this.db
        .select(this.columns(viewer))
        .from(table)
        .where(and(this.shownTo(viewer), where))
        .orderBy(order, asc(this.kind.table.id))
        .limit(limit)
        .offset(offset),
      this.db
        .select({ n: sql<number>`count(*)` })
        .from(table)
        .where(and(this.shownTo(viewer), where)),
    ]);
    return {
      rows: rows.map((row) => withCounts(row as { counts: MemberCounts }) as T['$inferSelect'] & MemberCounts),
      total: count?.n ?? 0,
    };
  }
}
