/**
 * Read lists: ordered lists of books across series (docs/DECISIONS.md §Organise and share). The rows, their
 * members, what a viewer sees of them (live books the viewer may see; a list made only of hidden books is not
 * listed and not found), the books a ComicRack reading list may mean, and the story arcs a scan read.
 */
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { books, bookStoryArcs, readListBooks, readLists, series } from '../db/schema';
import type { Statement } from './catalog-writer.repository';
import { inIds } from './catalog-sql';
import { hasMember, ListMembers, type MemberJoin, memberCounts, withCounts } from './list-members';
import { type Viewer, visibleBooks, visibleSeries } from './visibility';

export type ReadListRecord = typeof readLists.$inferSelect;
export type NewReadList = typeof readLists.$inferInsert;
export type ReadListChanges = Partial<Pick<ReadListRecord, 'name' | 'summary' | 'ordered' | 'updatedAt'>>;

/** A read list as a viewer sees it: its row, its live books, and how many of them the viewer may see. */
export type ReadListRow = ReadListRecord & { memberCount: number; visibleCount: number };

const member = alias(books, 'member');
const MEMBER = sql.raw('member');
/** The outer read list's id, qualified (a bare "id" inside the member subqueries would be the member book's). */
const READ_LIST_ID = sql.raw('"read_lists"."id"');

const MEMBERS: MemberJoin = {
  table: readListBooks,
  listId: readListBooks.readListId,
  memberId: readListBooks.bookId,
  membersTable: books,
  member,
  outerListId: READ_LIST_ID,
  visible: (viewer) => visibleBooks(viewer, member),
};

/** A list the viewer may see: it has a visible book, or no book at all. */
function shownTo(viewer: Viewer): SQL {
  return sql`(${hasMember(MEMBERS, viewer)} OR NOT ${hasMember(MEMBERS)})`;
}

const columns = (viewer: Viewer) => ({
  id: readLists.id,
  name: readLists.name,
  summary: readLists.summary,
  ordered: readLists.ordered,
  createdAt: readLists.createdAt,
  updatedAt: readLists.updatedAt,
  counts: memberCounts(MEMBERS, viewer),
});

/** Sort orders of read-list lists. */
export const READ_LIST_SORTS = {
  name: sql`${readLists.name} COLLATE NOCASE`,
  createdAt: sql`${readLists.createdAt}`,
  updatedAt: sql`${readLists.updatedAt}`,
} as const;

export interface ReadListListQuery {
  /** Only lists holding a book of one of these libraries the viewer may see. */
  libraryIds?: readonly string[];
  search?: string;
  sort?: { field: keyof typeof READ_LIST_SORTS; direction: 'asc' | 'desc' };
  limit: number;
  offset: number;
}

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

export class ReadListsRepository {
  readonly members: ListMembers;

  constructor(private readonly db: Database) {
    this.members = new ListMembers(db, {
      table: readListBooks,
      listId: readListBooks.readListId,
      memberId: readListBooks.bookId,
      position: readListBooks.position,
    });
  }

  async list(viewer: Viewer, query: ReadListListQuery): Promise<{ rows: ReadListRow[]; total: number }> {
    const where = and(
      shownTo(viewer),
      query.search ? sql`instr(lower(${readLists.name}), lower(${query.search})) > 0` : undefined,
      query.libraryIds?.length
        ? sql`EXISTS (SELECT 1 FROM ${readListBooks} JOIN ${books} AS ${MEMBER} ON ${member.id} = ${readListBooks.bookId}
          WHERE ${readListBooks.readListId} = ${READ_LIST_ID} AND ${inIds(member.libraryId, query.libraryIds)}
          AND ${member.deletedAt} IS NULL AND ${visibleBooks(viewer, member)})`
        : undefined,
    );
    const sort = query.sort ?? { field: 'name', direction: 'asc' };
    const order = READ_LIST_SORTS[sort.field];
    return this.page(
      viewer,
      where,
      sort.direction === 'asc' ? asc(order) : sql`${order} DESC`,
      query.limit,
      query.offset,
    );
  }

  async get(viewer: Viewer, id: string): Promise<ReadListRow | undefined> {
    const row = await this.db
      .select(columns(viewer))
      .from(readLists)
      .where(and(eq(readLists.id, id), shownTo(viewer)))
      .get();
    return row && withCounts(row);
  }

  /** One read list's own row, when the viewer may see it (no counts: what reading its books needs). */
  async find(viewer: Viewer, id: string): Promise<ReadListRecord | undefined> {
    return this.db
      .select()
      .from(readLists)
      .where(and(eq(readLists.id, id), shownTo(viewer)))
      .get();
  }

  /** The read lists holding a book, that the viewer may see (the book must be visible too). */
  async ofBook(viewer: Viewer, bookId: string, limit: number, offset: number) {
    const where = and(
      shownTo(viewer),
      sql`${readLists.id} IN (SELECT ${readListBooks.readListId} FROM ${readListBooks} JOIN ${books} AS ${MEMBER}
        ON ${member.id} = ${readListBooks.bookId} WHERE ${readListBooks.bookId} = ${bookId}
        AND ${member.deletedAt} IS NULL AND ${visibleBooks(viewer, member)})`,
    );
    return this.page(viewer, where, asc(READ_LIST_SORTS.name), limit, offset);
  }

  /**
   * The live books the viewer may see in each read list, in each one's order (its positions when ordered, else
   * by release as RELEASE_ORDER): Komga's `bookIds`, next/previous, the tracker, and the cover.
   */
  async visibleMemberIds(viewer: Viewer, readListIds: readonly string[]): Promise<Map<string, string[]>> {
    const byList = new Map<string, string[]>(readListIds.map((id) => [id, []]));
    if (readListIds.length === 0) return byList;
    const rows = await this.db
      .select({ readListId: readListBooks.readListId, bookId: readListBooks.bookId })
      .from(readListBooks)
      .innerJoin(readLists, eq(readLists.id, readListBooks.readListId))
      .innerJoin(books, eq(books.id, readListBooks.bookId))
      .innerJoin(series, eq(series.id, books.seriesId))
      .where(and(inIds(readListBooks.readListId, readListIds), isNull(books.deletedAt), visibleBooks(viewer, books)))
      .orderBy(
        readListBooks.readListId,
        sql`CASE WHEN ${readLists.ordered} THEN ${readListBooks.position} END`,
        sql`${books.year} IS NULL`,
        books.year,
        sql`${series.titleSort} COLLATE NOCASE`,
        books.id,
      );
    for (const row of rows) byList.get(row.readListId)?.push(row.bookId);
    return byList;
  }

  async idByName(name: string): Promise<string | undefined> {
    const row = await this.db
      .select({ id: readLists.id })
      .from(readLists)
      .where(sql`lower(${readLists.name}) = lower(${name})`)
      .get();
    return row?.id;
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

  async record(id: string): Promise<ReadListRecord | undefined> {
    return this.db.select().from(readLists).where(eq(readLists.id, id)).get();
  }

  create(row: NewReadList & { id: string }): Statement {
    return this.db.insert(readLists).values(row);
  }

  update(id: string, changes: ReadListChanges): Statement {
    return this.db.update(readLists).set(changes).where(eq(readLists.id, id));
  }

  delete(id: string): Statement[] {
    return [
      this.db.delete(readListBooks).where(eq(readListBooks.readListId, id)),
      this.db.delete(readLists).where(eq(readLists.id, id)),
    ];
  }

  async run(statements: Statement[]): Promise<void> {
    const [first, ...rest] = statements;
    if (first) await this.db.batch([first, ...rest]);
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
          isNull(series.deletedAt),
          isNull(books.deletedAt),
          visibleSeries(viewer, series),
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

  /** A page of the read lists matching `where` (ties broken by id), with the viewer's member counts. */
  private async page(
    viewer: Viewer,
    where: SQL | undefined,
    order: SQL,
    limit: number,
    offset: number,
  ): Promise<{ rows: ReadListRow[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.db
        .select(columns(viewer))
        .from(readLists)
        .where(where)
        .orderBy(order, asc(readLists.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: sql<number>`count(*)` }).from(readLists).where(where),
    ]);
    return { rows: rows.map(withCounts), total: count?.n ?? 0 };
  }
}
