/**
 * Collections of series (docs/DECISIONS.md §Organise and share): a list of series (lists.repository.ts) whose
 * members, when it is not ordered, read by name. A smart collection (members chosen by a rule, evaluated per
 * viewer by the series list itself) is always shown, like an empty one.
 */
import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { collectionSeries, collections, series } from '../db/schema';
import type { MemberCounts } from './list-members';
import { type ListKind, type ListPageQuery, ListsRepository } from './lists.repository';
import { type Viewer, visibleSeries } from './visibility';

export type { SmartRule } from '../db/tables/lists';
export type CollectionRecord = typeof collections.$inferSelect;
export type CollectionChanges = Partial<
  Pick<CollectionRecord, 'name' | 'summary' | 'ordered' | 'rule' | 'pinnedToHome' | 'updatedAt'>
>;

/** A collection as a viewer sees it: its row, its live members, and how many of them the viewer may see. */
export type CollectionRow = CollectionRecord & MemberCounts;

const member = alias(series, 'member');

export interface CollectionListQuery extends Omit<ListPageQuery<'name'>, 'sort'> {
  /** Only collections pinned to home. */
  pinned?: boolean;
}

/** What makes a collection a list of series (built once per isolate: drizzle fragments are not free to make). */
const COLLECTION_KIND: ListKind<typeof collections> = {
  table: collections,
  members: {
    table: collectionSeries,
    listId: collectionSeries.collectionId,
    memberId: collectionSeries.seriesId,
    position: collectionSeries.position,
    membersTable: series,
    member,
    // drizzle writes a single-table select's columns bare: a bare "id" in the member subqueries is the member's.
    outerListId: sql.raw('"collections"."id"'),
    visible: (viewer) => visibleSeries(viewer, member),
  },
  alwaysShown: sql`${collections.rule} IS NOT NULL`,
  unorderedOrder: [sql`${member.titleSort} COLLATE NOCASE`],
  sorts: { name: sql`${collections.name} COLLATE NOCASE` },
};

export class CollectionsRepository extends ListsRepository<typeof collections> {
  constructor(db: Database) {
    super(db, COLLECTION_KIND);
  }

  /** A page of the collections the viewer may see, by name. */
  override list(viewer: Viewer, query: CollectionListQuery) {
    return super.list(viewer, query, query.pinned ? eq(collections.pinnedToHome, true) : undefined);
  }
}
