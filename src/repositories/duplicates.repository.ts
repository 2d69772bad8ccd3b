/**
 * Duplicate groups as a reader sees them (API.md §4 Duplicates): undismissed groups with two or more
 * live copies the viewer may see, a page at a time, with those copies. Membership is counted against
 * live books at read time, so a copy soft-deleted since the last duplicate scan drops out at once.
 */
import { and, count, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books, duplicateGroups } from '../db/schema';
import { inIds } from './catalog-sql';
import { type Viewer, visibleBooks } from './visibility';

export class DuplicatesRepository {
  constructor(private readonly db: Database) {}

  async list(viewer: Viewer, offset: number, limit: number) {
    const copies = and(isNull(books.deletedAt), visibleBooks(viewer, books));
    const liveCopies = sql`(select count(*) from json_each(${duplicateGroups.bookIds}) as member
      join ${books} on ${books.id} = member.value where ${copies})`;
    const where = and(isNull(duplicateGroups.dismissedAt), sql`${liveCopies} > 1`);
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
    const ids = [...new Set(groups.flatMap((g) => g.bookIds))];
    const members = ids.length
      ? await this.db
          .select({
            id: books.id,
            title: books.title,
            path: books.path,
            libraryId: books.libraryId,
            seriesId: books.seriesId,
          })
          .from(books)
          .where(and(inIds(books.id, ids), copies))
      : [];
    return { groups, members, total: totalRow?.n ?? 0 };
  }
}
