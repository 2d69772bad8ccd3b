/**
 * hash_files: completes the deferred analysis (page dimensions, fileHash, readerHash) of a library's
 * books that lack it, oldest first, resuming from the last book id in the payload.
 */
import { and, asc, count, eq, gt, isNull, or } from 'drizzle-orm';
import { books } from '../../db/schema';
import { completeBookDetails } from '../../scanning/book-details';
import type { TaskHandler } from '../task-handler';

const PAGE = 20;

export const hashFiles: TaskHandler = {
  priority: 5,
  async run(task, { db, env, deadline }) {
    const libraryId = task.libraryId;
    const pendingWhere = (after: string) =>
      and(
        libraryId ? eq(books.libraryId, libraryId) : undefined,
        isNull(books.deletedAt),
        or(eq(books.fileHash, ''), eq(books.analyzed, false)),
        isNull(books.analysisError),
        gt(books.id, after),
      );
    let after = String(task.payload.after ?? '');
    let processed = Number(task.payload.processed ?? 0);
    const remaining = await db.select({ n: count() }).from(books).where(pendingWhere(after)).get();
    const total = processed + (remaining?.n ?? 0);
    // At least one round per slice, however small the budget.
    for (let first = true; first || Date.now() < deadline; first = false) {
      const batch = await db.select().from(books).where(pendingWhere(after)).orderBy(asc(books.id)).limit(PAGE);
      if (batch.length === 0) {
        return {
          done: true,
          progress: { current: processed, total: processed, message: `${processed} books analysed` },
          result: { processed },
        };
      }
      for (const book of batch) {
        await completeBookDetails(db, env.LIBRARY, book);
        after = book.id;
        processed += 1;
        if (Date.now() >= deadline) break;
      }
    }
    return {
      done: false,
      progress: { current: processed, total, message: `${processed} of ${total} books analysed` },
      payload: { ...task.payload, after, processed },
    };
  },
};
