/**
 * The members of a collection (series) or a read list (books): one row per member with its position. The two
 * lists store and edit their members the same way, so the statements are written once over the member table.
 * Members are written as the service decided them (docs/DECISIONS.md §Organise and share: members a writer
 * cannot see are kept in place), always in one D1 batch with the list's own row.
 */
import { and, asc, eq, max, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import type { Statement } from './catalog-writer.repository';
import type { Viewer } from './visibility';

/** A list's live members, and how many of them a viewer may see. */
export interface MemberCounts {
  memberCount: number;
  visibleCount: number;
}

/** The `json_array(all, visible)` a member-count subquery answers. */
export function toMemberCounts(value: unknown): MemberCounts {
  const [all = 0, visible = 0] = typeof value === 'string' ? (JSON.parse(value) as number[]) : [];
  return { memberCount: Number(all), visibleCount: Number(visible) };
}

/** A list row with its `counts` column spread into memberCount and visibleCount. */
export const withCounts = <T extends { counts: MemberCounts }>({ counts, ...row }: T) => ({ ...row, ...counts });

/**
 * How a query over the lists reaches the live members of its outer list: the member table joined to the
 * members' own table under the alias `member`. `outerListId` is the outer list's id, qualified (drizzle writes
 * a single-table select's columns bare, and a bare "id" inside these subqueries would be the member's).
 */
export interface MemberJoin {
  table: SQLiteTable;
  listId: SQLiteColumn;
  memberId: SQLiteColumn;
  /** The members' own table (series or books), and the same table aliased `member`. */
  membersTable: SQLiteTable;
  member: SQLiteTable & { id: SQLiteColumn; deletedAt: SQLiteColumn; libraryId: SQLiteColumn };
  outerListId: SQL;
  /** A viewer may see the aliased member. */
  visible: (viewer: Viewer) => SQL;
}

const MEMBER = sql.raw('member');

/** The live members of the outer list, and how many of them the viewer may see: one walk of its members. */
export function memberCounts(join: MemberJoin, viewer: Viewer): SQL<MemberCounts> {
  const { table, listId, memberId, membersTable, member, outerListId } = join;
  return sql`(SELECT json_array(count(*), coalesce(sum(CASE WHEN ${join.visible(viewer)} THEN 1 ELSE 0 END), 0))
    FROM ${table} JOIN ${membersTable} AS ${MEMBER} ON ${member.id} = ${memberId}
    WHERE ${listId} = ${outerListId} AND ${member.deletedAt} IS NULL)`.mapWith(toMemberCounts);
}

/**
 * The outer list has a live member (one the viewer may see, when given; one meeting `also`, when given): stops
 * at the first.
 */
export function hasMember(join: MemberJoin, visibleTo?: Viewer, also?: SQL): SQL {
  const { table, listId, memberId, membersTable, member, outerListId } = join;
  return sql`EXISTS (SELECT 1 FROM ${table} JOIN ${membersTable} AS ${MEMBER} ON ${member.id} = ${memberId}
    WHERE ${listId} = ${outerListId} AND ${member.deletedAt} IS NULL
    ${visibleTo ? sql`AND ${join.visible(visibleTo)}` : sql``} ${also ? sql`AND ${also}` : sql``})`;
}

/** Where a list's members are: the table and its list, member and position columns. */
export interface MemberTable {
  table: SQLiteTable;
  listId: SQLiteColumn;
  memberId: SQLiteColumn;
  position: SQLiteColumn;
}

export class ListMembers {
  constructor(
    private readonly db: Database,
    private readonly members: MemberTable,
  ) {}

  /** Every member id of a list (hidden and deleted ones too), by position. */
  async all(listId: string): Promise<string[]> {
    const { table, listId: list, memberId, position } = this.members;
    const rows = await this.db
      .select({ id: sql<string>`${memberId}` })
      .from(table)
      .where(eq(list, listId))
      .orderBy(asc(position), asc(memberId));
    return rows.map((row) => row.id);
  }

  /** Positions by member id (the story-arc placement needs the numbers themselves). */
  async positions(listId: string): Promise<Map<string, number>> {
    const { table, listId: list, memberId, position } = this.members;
    const rows = await this.db
      .select({ id: sql<string>`${memberId}`, position: sql<number>`${position}` })
      .from(table)
      .where(eq(list, listId));
    return new Map(rows.map((row) => [row.id, row.position]));
  }

  /** The list's members become `ids`, at positions 0, 1, 2… */
  replace(listId: string, ids: readonly string[]): Statement[] {
    return [this.db.delete(this.members.table).where(eq(this.members.listId, listId)), ...this.insert(listId, ids, 0)];
  }

  /** `ids` after the list's last member, in order; ids already members keep their place. */
  append(listId: string, ids: readonly string[]): Statement[] {
    const { table, listId: list, position } = this.members;
    const next = sql`(SELECT coalesce(${max(position)}, -1) + 1 FROM ${table} WHERE ${list} = ${listId})`;
    return this.insert(listId, ids, next);
  }

  /** Members placed at given positions (story arcs); a member already in the list keeps its place. */
  place(listId: string, placements: ReadonlyArray<{ id: string; position: number }>): Statement[] {
    if (placements.length === 0) return [];
    const rows = JSON.stringify(placements.map((p) => [p.id, p.position]));
    return [
      this.db
        .insert(this.members.table)
        .select(sql`SELECT ${listId}, p.value ->> 0, p.value ->> 1 FROM json_each(${rows}) p WHERE true`)
        .onConflictDoNothing() as unknown as Statement,
    ];
  }

  remove(listId: string, memberId: string): Statement {
    return this.db
      .delete(this.members.table)
      .where(and(eq(this.members.listId, listId), eq(this.members.memberId, memberId)));
  }

  /**
   * One INSERT … SELECT over json_each: (list, member, start + index), skipping members already there. (`WHERE
   * true` keeps SQLite from reading the upsert's ON as a join constraint: its documented parsing ambiguity.)
   */
  private insert(listId: string, ids: readonly string[], start: number | ReturnType<typeof sql>): Statement[] {
    if (ids.length === 0) return [];
    return [
      this.db
        .insert(this.members.table)
        .select(sql`SELECT ${listId}, m.value, ${start} + m.key FROM json_each(${JSON.stringify(ids)}) m WHERE true`)
        .onConflictDoNothing() as unknown as Statement,
    ];
  }
}
