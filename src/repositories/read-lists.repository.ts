/**
 * Read lists: ordered lists of books across series (docs/DECISIONS.md §Organise and share), a list of books
 * (lists.repository.ts) read by release when not ordered; and what is theirs alone: the books a ComicRack
 * reading list may mean, and the story arcs a scan read.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { books, bookStoryArcs, readListBooks, readLists, series } from '../db/schema';
import { inIds } from './catalog-sql';
import type { MemberCounts } from './list-members';
import { type ListKind, type ListPageQuery, ListsRepository } from './lists.repository';
import { type Viewer, visibleBooks } from './visibility';
import { liveVisibleSeries } from './live-visible';

export type ReadListRecord = typeof readLists.$inferSelect;

/** A read list as a viewer sees it: its row, its live books, and how many of them the viewer may see. */
export type ReadListRow = ReadListRecord & MemberCounts;

const member = alias(books, 'member');

/** Sort orders of read-list lists. */
export const READ_LIST_SORTS = {
  name: sql`${readLists.name} COLLATE NOCASE`,
  createdAt: sql`${readLists.createdAt}`,
  updatedAt: sql`${readLists.updatedAt}`,
} as const;

export type ReadListListQuery = ListPageQuery<keyof typeof READ_LIST_SORTS>;

/** A book a ComicRack entry might mean (cbl-matching.ts CblCandidate, before its number is written out). */
export interface CblCandidateRow {
  bookId: string;
  seriesId: string;
  seriesTitle: string;
  seriesYear: number | null;
  number: number | null;
  year: number | null;
  title: string;
}

/** What makes a read list a list of books (built once per isolate: drizzle fragments are not free to make). */
const READ_LIST_KIND: ListKind<typeof readLists> = {
  table: readLists,
  members: {
    table: readListBooks,
    listId: readListBooks.readListId,
    memberId: readListBooks.bookId,
    position: readListBooks.position,
    membersTable: books,
    member,
    // The outer read list's id, qualified (a bare "id" inside the member subqueries would be the member book's).
    outerListId: sql.raw('"read_lists"."id"'),
    visible: (viewer) => visibleBooks(viewer, member),
  },
  // An unordered list reads by release (as RELEASE_ORDER), then by series.
  unorderedOrder: [sql`${member.year} IS NULL`, sql`${member.year}`, sql`${series.titleSort} COLLATE NOCASE`],
  orderJoin: { table: series, on: eq(series.id, member.seriesId) },
  sorts: READ_LIST_SORTS,
};

export class ReadListsRepository extends ListsRepository<typeof readLists, keyof typeof READ_LIST_SORTS> {
  constructor(db: Database) {
    super(db, READ_LIST_KIND);
  }

  /** Read lists by name, case-insensitively (story arcs find their lists this way). */
  async idsByNames(names: readonly string[]): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    const rows = await this.db
      .select({ id: readLists.id, name: readLists.name })
      .from(readLists)
      .where(
        inIds(
          sql`lower(${readLists.name})`,
          names.map((name) => name.toLowerCase()),
        ),
      );
    return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
  }

  /**
   * The live books the viewer may see in series whose titles are among `titles` (compared ignoring case):
   * what a ComicRack list's entries may mean. One statement, the titles as one JSON parameter.
   */
  async cblCandidates(viewer: Viewer, titles: readonly string[]): Promise<CblCandidateRow[]> {
    if (titles.length === 0) return [];
    return this.db
      .select({
        bookId: books.id,
        seriesId: series.id,
        seriesTitle: series.title,
        seriesYear: series.year,
        number: sql<number | null>`coalesce(${books.chapter}, ${books.number})`,
        year: books.year,
        title: books.title,
      })
      .from(series)
      .innerJoin(books, eq(books.seriesId, series.id))
      .where(
        and(
          inIds(sql`lower(${series.title})`, [...new Set(titles.map((title) => title.toLowerCase()))]),
          liveVisibleSeries(viewer),
          isNull(books.deletedAt),
        ),
      )
      .orderBy(
        asc(series.titleSort),
        sql`${books.number} IS NULL`,
        asc(books.number),
        asc(books.sortKey),
        asc(books.id),
      );
  }

  /**
   * The story arcs of a library's live books (what its last scans read), each arc's books in reading order
   * (series title, then number): the input of the story-arc import.
   */
  async storyArcsOfLibrary(libraryId: string) {
    return this.db
      .select({ name: bookStoryArcs.name, bookId: bookStoryArcs.bookId, number: bookStoryArcs.number })
      .from(bookStoryArcs)
      .innerJoin(books, eq(books.id, bookStoryArcs.bookId))
      .innerJoin(series, eq(series.id, books.seriesId))
      .where(and(eq(books.libraryId, libraryId), isNull(books.deletedAt)))
      .orderBy(
        asc(bookStoryArcs.name),
        sql`${series.titleSort} COLLATE NOCASE`,
        sql`${books.number} IS NULL`,
        asc(books.number),
        asc(books.sortKey),
      );
  }
}
