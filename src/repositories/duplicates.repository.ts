/**
 * Groups of books with the same file hash (API.md §4 Duplicates): found by the find_duplicates task, listed and
 * dismissed through the API. A group's membership is counted, when it is listed, against the live books the
 * viewer may see, so a copy soft-deleted since the last duplicate scan drops out at once.
 */
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import { books, duplicateGroups } from '../db/schema';
import { inIds } from './catalog-sql';
import { type Viewer, visibleBooks } from './visibility';

export type DuplicateGroupRecord = typeof duplicateGroups.$inferSelect;
export type NewDuplicateGroup = typeof duplicateGroups.$inferInsert;
export type DuplicateBook = Pick<typeof books.$inferSelect, 'id' | 'title' | 'path' | 'libraryId' | 'seriesId'>;

/** What a duplicate scan changes: groups found for the first time, groups whose members changed, groups gone. */
export interface DuplicateChanges {
  added: NewDuplicateGroup[];
  changed: Array<{ id: string; bookIds: string[] }>;
  removed: string[];
}

/** A member copy that counts: live, and visible to the viewer. */
const shownCopy = (viewer: Viewer) => and(isNull(books.deletedAt), visibleBooks(viewer, books));

export class DuplicatesRepository {
  constructor(private readonly db: Database) {}

  /** Every file hash two or more live books share, with those books and the largest file size. */
  async liveHashGroups(): Promise<Array<{ fileHash: string; bookIds: string[]; fileSize: number }>> {
    const rows = await this.db.all<{ file_hash: string; ids: string; file_size: number }>(sql`
      select file_hash, json_group_array(id) as ids, max(file_size) as file_size from books
      where deleted_at is null and file_hash != '' group by file_hash having count(*) > 1`);
    return rows.map((row) => ({
      fileHash: row.file_hash,
      bookIds: JSON.parse(row.ids) as string[],
      fileSize: row.file_size,
    }));
  }

  async all(): Promise<DuplicateGroupRecord[]> {
    return this.db.select().from(duplicateGroups);
  }

  /** Records a scan's changes in one batch; a group whose members changed is shown again (not dismissed). */
  async apply(changes: DuplicateChanges, now: string): Promise<void> {
    const statements: BatchItem<'sqlite'>[] = [
      ...changes.added.map((group) => this.db.insert(duplicateGroups).values(group)),
      ...changes.changed.map(({ id, bookIds }) =>
        this.db
          .update(duplicateGroups)
          .set({ bookIds, dismissedAt: null, updatedAt: now })
          .where(eq(duplicateGroups.id, id)),
      ),
      ...changes.removed.map((id) => this.db.delete(duplicateGroups).where(eq(duplicateGroups.id, id))),
    ];
    const [first, ...rest] = statements;
    if (first) await this.db.batch([first, ...rest]);
  }

  /** Undismissed groups with two or more live copies the viewer may see, a page at a time, oldest first. */
  async listShown(
    viewer: Viewer,
    offset: number,
    limit: number,
  ): Promise<{ groups: DuplicateGroupRecord[]; total: number }> {
    const where = this.shownGroup(viewer);
    const [groups, totalRow] = await Promise.all([
      this.db
        .select()
        .from(duplicateGroups)
        .where(where)
        .orderBy(duplicateGroups.createdAt, duplicateGroups.id)
        .limit(limit)
        .offset(offset),
      this.db.select({ n: count() }).from(duplicateGroups).where(where).get(),
    ]);
    return { groups, total: totalRow?.n ?? 0 };
  }

  /** The live ones among these books that the viewer may see. */
  async liveBooks(viewer: Viewer, ids: string[]): Promise<DuplicateBook[]> {
    if (ids.length === 0) return [];
    return this.db
      .select({
        id: books.id,
        title: books.title,
        path: books.path,
        libraryId: books.libraryId,
        seriesId: books.seriesId,
      })
      .from(books)
      .where(and(inIds(books.id, ids), shownCopy(viewer)));
  }

  /** Hides an undismissed group the viewer is shown (listShown); false when there is none with this id. */
  async dismiss(viewer: Viewer, id: string, at: string): Promise<boolean> {
    const rows = await this.db
      .update(duplicateGroups)
      .set({ dismissedAt: at })
      .where(and(eq(duplicateGroups.id, id), this.shownGroup(viewer)))
      .returning({ id: duplicateGroups.id });
    return rows.length > 0;
  }

  /** An undismissed group with two or more live copies the viewer may see. */
  private shownGroup(viewer: Viewer) {
    const liveCopies = sql`(select count(*) from json_each(${duplicateGroups.bookIds}) as member
      join ${books} on ${books.id} = member.value where ${shownCopy(viewer)})`;
    return and(isNull(duplicateGroups.dismissedAt), sql`${liveCopies} > 1`);
  }
}
