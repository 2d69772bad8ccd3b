/**
 * find_duplicates (POST /duplicates/scan): groups live books by fileHash. A group keeps its id and its
 * dismissal while its members are unchanged; a group whose membership changed is shown again.
 */
import { sql } from 'drizzle-orm';
import { duplicateGroups } from '../../db/schema';
import { newId } from '../../lib/ids';
import type { TaskHandler } from '../task-handler';

export const findDuplicates: TaskHandler = {
  priority: 1,
  async run(_task, { db }) {
    const groups = await db.all<{ file_hash: string; ids: string; file_size: number }>(sql`
      select file_hash, json_group_array(id) as ids, max(file_size) as file_size from books
      where deleted_at is null and file_hash != '' group by file_hash having count(*) > 1`);
    const existing = new Map((await db.select().from(duplicateGroups)).map((g) => [g.fileHash, g]));
    const now = new Date().toISOString();
    const statements = [];
    const live = new Set<string>();
    for (const group of groups) {
      live.add(group.file_hash);
      const bookIds = (JSON.parse(group.ids) as string[]).sort();
      const before = existing.get(group.file_hash);
      if (!before) {
        statements.push(
          db.insert(duplicateGroups).values({
            id: newId(),
            fileHash: group.file_hash,
            bookIds,
            fileSize: group.file_size,
            createdAt: now,
            updatedAt: now,
          }),
        );
      } else if (JSON.stringify([...before.bookIds].sort()) !== JSON.stringify(bookIds)) {
        statements.push(
          db
            .update(duplicateGroups)
            .set({ bookIds, dismissedAt: null, updatedAt: now })
            .where(sql`${duplicateGroups.id} = ${before.id}`),
        );
      }
    }
    for (const [hash, group] of existing) {
      if (!live.has(hash)) statements.push(db.delete(duplicateGroups).where(sql`${duplicateGroups.id} = ${group.id}`));
    }
    if (statements.length > 0) await db.batch(statements as never);
    return {
      done: true,
      progress: { current: groups.length, total: groups.length, message: `${groups.length} duplicate groups` },
      result: { groups: groups.length },
    };
  },
};
