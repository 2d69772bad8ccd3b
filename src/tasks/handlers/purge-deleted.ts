/**
 * purge_deleted: removes the catalog rows of soft-deleted books and series (their files are already
 * gone from storage), and their thumbnails and page renditions from the CACHE bucket. Reading progress
 * of purged books goes with them, which is why soft deletion alone never does this; it runs when an
 * admin empties a library's trash (POST /libraries/{id}/empty-trash).
 */
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { bookPages, books, bookTerms, readProgress, series, wantToRead } from '../../db/schema';
import { removeCachedImages } from '../../storage/cached-images';
import { deleteSearchRow } from '../../repositories/search-index';
import type { TaskHandler } from '../task-handler';

const PAGE = 90;

export const purgeDeleted: TaskHandler = {
  priority: 1,
  async run(task, { db, env, deadline }) {
    const libraryFilter = task.libraryId ? eq(books.libraryId, task.libraryId) : undefined;
    let purged = Number(task.payload.purged ?? 0);
    // At least one round per slice, however small the budget.
    for (let first = true; first || Date.now() < deadline; first = false) {
      const doomed = await db
        .select({ id: books.id })
        .from(books)
        .where(and(isNotNull(books.deletedAt), libraryFilter))
        .limit(PAGE);
      if (doomed.length === 0) {
        await db
          .delete(series)
          .where(and(isNotNull(series.deletedAt), task.libraryId ? eq(series.libraryId, task.libraryId) : undefined));
        return {
          done: true,
          progress: { current: purged, total: purged, message: `${purged} deleted books purged` },
          result: { purged },
        };
      }
      const ids = doomed.map((d) => d.id);
      // Images first: a slice cut short in between finds the same rows again next time, so nothing is left behind.
      await removeCachedImages(env.CACHE, ids);
      await db.batch([
        ...ids.map((id) => deleteSearchRow(db, 'book', id)),
        db.delete(bookPages).where(inArray(bookPages.bookId, ids)),
        db.delete(bookTerms).where(inArray(bookTerms.bookId, ids)),
        db.delete(readProgress).where(inArray(readProgress.bookId, ids)),
        db.delete(wantToRead).where(inArray(wantToRead.bookId, ids)),
        db.delete(books).where(inArray(books.id, ids)),
      ] as unknown as Parameters<typeof db.batch>[0]);
      purged += ids.length;
    }
    return {
      done: false,
      progress: { current: purged, total: purged, message: `${purged} deleted books purged` },
      payload: { purged },
    };
  },
};
