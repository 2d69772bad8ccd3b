/**
 * find_duplicates (POST /duplicates/scan): groups live books by fileHash. A group keeps its id and its
 * dismissal while its members are unchanged; a group whose membership changed is shown again.
 */
import { newId } from '../../lib/ids';
import { type DuplicateChanges, DuplicatesRepository } from '../../repositories/duplicates.repository';
import type { TaskHandler } from '../task-handler';

export const findDuplicates: TaskHandler = {
  priority: 1,
  async run(_task, { db }) {
    const repository = new DuplicatesRepository(db);
    const groups = await repository.liveHashGroups();
    const existing = new Map((await repository.all()).map((g) => [g.fileHash, g]));
    const now = new Date().toISOString();
    const changes: DuplicateChanges = { added: [], changed: [], removed: [] };
    const live = new Set<string>();
    for (const group of groups) {
      live.add(group.fileHash);
      const bookIds = [...group.bookIds].sort();
      const before = existing.get(group.fileHash);
      if (!before) {
        changes.added.push({
          id: newId(),
          fileHash: group.fileHash,
          bookIds,
          fileSize: group.fileSize,
          createdAt: now,
          updatedAt: now,
        });
      } else if (JSON.stringify([...before.bookIds].sort()) !== JSON.stringify(bookIds)) {
        changes.changed.push({ id: before.id, bookIds });
      }
    }
    for (const [hash, group] of existing) {
      if (!live.has(hash)) changes.removed.push(group.id);
    }
    await repository.apply(changes, now);
    return {
      done: true,
      progress: { current: groups.length, total: groups.length, message: `${groups.length} duplicate groups` },
      result: { groups: groups.length },
    };
  },
};
