/**
 * Collections of series (docs/DECISIONS.md §Organise and share): the rows, their members, and what a viewer
 * sees of them. Every read is for a viewer: member counts and member ids count only the live series the viewer
 * may see (visibility.ts), and a collection whose members are all hidden from the viewer is not listed and not
 * found, like a missing one. An empty collection and a smart collection (members chosen by a rule, evaluated
 * per viewer by the series list itself) are always shown.
 */
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { collectionSeries, collections, series } from '../db/schema';
import type { Statement } from './catalog-writer.repository';
import { inIds } from './catalog-sql';
import { hasMember, ListMembers, type MemberJoin, memberCounts, withCounts } from './list-members';
import { type Viewer, visibleSeries } from './visibility';

export type { SmartRule } from '../db/tables/lists';
export type CollectionRecord = typeof collections.$inferSelect;
export type NewCollection = typeof collections.$inferInsert;
export type CollectionChanges = Partial<
  Pick<CollectionRecord, 'name' | 'summary' | 'ordered' | 'rule' | 'pinnedToHome' | 'updatedAt'>
>;

/** A collection as a viewer sees it: its row, its live members, and how many of them the viewer may see. */
export type CollectionRow = CollectionRecord & { memberCount: number; visibleCount: number };

const member = alias(series, 'member');
const MEMBER = sql.raw('member');
/**
 * The outer collection's id, qualified: drizzle writes a single-table select's columns bare, and a bare "id"
 * inside the member subqueries would be the member series' id.
 */
const COLLECTION_ID = sql.raw('"collections"."id"');

const MEMBERS: MemberJoin = {
  table: collectionSeries,
  listId: collectionSeries.collectionId,
  memberId: collectionSeries.seriesId,
  membersTable: series,
  member,
  outerListId: COLLECTION_ID,
  visible: (viewer) => visibleSeries(viewer, member),
};

/** What the viewer may see of a collection: it has a rule, a visible member, or no member at all. */
function shownTo(viewer: Viewer): SQL {
  return sql`(${collections.rule} IS NOT NULL OR ${hasMember(MEMBERS, viewer)} OR NOT ${hasMember(MEMBERS)})`;
}

const columns = (viewer: Viewer) => ({
  id: collections.id,
  name: collections.name,
  summary: collections.summary,
  ordered: collections.ordered,
  rule: collections.rule,
  pinnedToHome: collections.pinnedToHome,
  createdAt: collections.createdAt,
  updatedAt: collections.updatedAt,
  counts: memberCounts(MEMBERS, viewer),
});

export interface CollectionListQuery {
  /** Only collections holding a series of one of these libraries the viewer may see. */
  libraryIds?: readonly string[];
  /** Name contains (case-insensitive). */
  search?: string;
  /** Only collections pinned to home. */
  pinned?: boolean;
  limit: number;
  offset: number;
}

export class CollectionsRepository {
  readonly members: ListMembers;

  constructor(private readonly db: Database) {
    this.members = new ListMembers(db, {
      table: collectionSeries,
      listId: collectionSeries.collectionId,
      memberId: collectionSeries.seriesId,
      position: collectionSeries.position,
    });
  }

  /** A page of the collections the viewer may see, by name. */
  async list(viewer: Viewer, query: CollectionListQuery): Promise<{ rows: CollectionRow[]; total: number }> {
    const where = and(
      shownTo(viewer),
      query.search ? sql`instr(lower(${collections.name}), lower(${query.search})) > 0` : undefined,
      query.pinned ? eq(collections.pinnedToHome, true) : undefined,
      query.libraryIds?.length
        ? sql`EXISTS (SELECT 1 FROM ${collectionSeries} JOIN ${series} AS ${MEMBER} ON ${member.id} = ${collectionSeries.seriesId}
          WHERE ${collectionSeries.collectionId} = ${COLLECTION_ID} AND ${inIds(member.libraryId, query.libraryIds)}
          AND ${member.deletedAt} IS NULL AND ${visibleSeries(viewer, member)})`
        : undefined,
    );
    return this.page(viewer, where, query.limit, query.offset);
  }

  /** One collection, when the viewer may see it. */
  async get(viewer: Viewer, id: string): Promise<CollectionRow | undefined> {
    const row = await this.db
      .select(columns(viewer))
      .from(collections)
      .where(and(eq(collections.id, id), shownTo(viewer)))
      .get();
    return row && withCounts(row);
  }

  /** One collection's own row, when the viewer may see it (no member counts: what reading its members needs). */
  async find(viewer: Viewer, id: string): Promise<CollectionRecord | undefined> {
    return this.db
      .select()
      .from(collections)
      .where(and(eq(collections.id, id), shownTo(viewer)))
      .get();
  }

  /** The collections holding a series, that the viewer may see (the series must be visible too). */
  async ofSeries(viewer: Viewer, seriesId: string, limit: number, offset: number) {
    const where = and(
      shownTo(viewer),
      sql`${collections.id} IN (SELECT ${collectionSeries.collectionId} FROM ${collectionSeries} JOIN ${series} AS ${MEMBER}
        ON ${member.id} = ${collectionSeries.seriesId} WHERE ${collectionSeries.seriesId} = ${seriesId}
        AND ${member.deletedAt} IS NULL AND ${visibleSeries(viewer, member)})`,
    );
    return this.page(viewer, where, limit, offset);
  }

  /**
   * The live series the viewer may see in each of the collections, in each one's order (its positions when
   * ordered, else by name): Komga's `seriesIds`, and where a collection's cover comes from.
   */
  async visibleMemberIds(viewer: Viewer, collectionIds: readonly string[]): Promise<Map<string, string[]>> {
    const byCollection = new Map<string, string[]>(collectionIds.map((id) => [id, []]));
    if (collectionIds.length === 0) return byCollection;
    const rows = await this.db
      .select({ collectionId: collectionSeries.collectionId, seriesId: collectionSeries.seriesId })
      .from(collectionSeries)
      .innerJoin(collections, eq(collections.id, collectionSeries.collectionId))
      .innerJoin(series, eq(series.id, collectionSeries.seriesId))
      .where(
        and(
          inIds(collectionSeries.collectionId, collectionIds),
          sql`${series.deletedAt} IS NULL`,
          visibleSeries(viewer, series),
        ),
      )
      .orderBy(
        collectionSeries.collectionId,
        sql`CASE WHEN ${collections.ordered} THEN ${collectionSeries.position} END`,
        sql`${series.titleSort} COLLATE NOCASE`,
        series.id,
      );
    for (const row of rows) byCollection.get(row.collectionId)?.push(row.seriesId);
    return byCollection;
  }

  /** The collection named `name` whatever its case (names are unique that way), any viewer's. */
  async idByName(name: string): Promise<string | undefined> {
    const row = await this.db
      .select({ id: collections.id })
      .from(collections)
      .where(sql`lower(${collections.name}) = lower(${name})`)
      .get();
    return row?.id;
  }

  /** Whether the collection exists at all (a writer's edit of a collection it cannot see is a 404 still). */
  async record(id: string): Promise<CollectionRecord | undefined> {
    return this.db.select().from(collections).where(eq(collections.id, id)).get();
  }

  create(row: NewCollection & { id: string }): Statement {
    return this.db.insert(collections).values(row);
  }

  update(id: string, changes: CollectionChanges): Statement {
    return this.db.update(collections).set(changes).where(eq(collections.id, id));
  }

  delete(id: string): Statement[] {
    return [
      this.db.delete(collectionSeries).where(eq(collectionSeries.collectionId, id)),
      this.db.delete(collections).where(eq(collections.id, id)),
    ];
  }

  /** Runs a change as one D1 batch (one transaction). */
  async run(statements: Statement[]): Promise<void> {
    const [first, ...rest] = statements;
    if (first) await this.db.batch([first, ...rest]);
  }

  /** A page of the collections matching `where`, by name, with the viewer's member counts. */
  private async page(
    viewer: Viewer,
    where: SQL | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: CollectionRow[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.db
        .select(columns(viewer))
        .from(collections)
        .where(where)
        .orderBy(sql`${collections.name} COLLATE NOCASE`, asc(collections.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: sql<number>`count(*)` }).from(collections).where(where),
    ]);
    return { rows: rows.map(withCounts), total: count?.n ?? 0 };
  }
}
