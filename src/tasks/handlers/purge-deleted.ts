/**
 * purge_deleted: removes the catalog rows of soft-deleted books and series (their files are already
 * gone from storage), and their thumbnails and page renditions from the CACHE bucket. Reading progress
 * of purged books goes with them, which is why soft deletion alone never does this; it runs when an
 * admin empties a library's trash (POST /libraries/{id}/empty-trash).
 */
import { CatalogWriter } from '../../repositories/catalog-writer.repository';
import { removeCachedImages } from '../../storage/cached-images';
import type { TaskHandler } from '../task-handler';

const PAGE = 90;

export const purgeDeleted: TaskHandler = {
  priority: 1,
  async run(task, { db, env, deadline }) {
    const writer = new CatalogWriter(db);
    let purged = Number(task.payload.purged ?? 0);
    // At least one round per slice, however small the budget.
    for (let first = true; first || Date.now() < deadline; first = false) {
      const ids = await writer.trashedBookIds(task.libraryId, PAGE);
      if (ids.length === 0) {
        await writer.purgeTrashedSeries(task.libraryId);
        return {
          done: true,
          progress: { current: purged, total: purged, message: `${purged} deleted books purged` },
          result: { purged },
        };
      }
      // Images first: a slice cut short in between finds the same rows again next time, so nothing is left behind.
      await removeCachedImages(env.CACHE, ids);
      await writer.purgeBooks(ids);
      purged += ids.length;
    }
    return {
      done: false,
      progress: { current: purged, total: purged, message: `${purged} deleted books purged` },
      payload: { purged },
    };
  },
};
