/**
 * The cron's safety net for queued work (issue 11): D1 is the source of truth and a queue message only
 * a hint. Local queues forget their messages when `wrangler dev` restarts, and production gives up on a
 * message after its retries; books still incomplete whose last message is older than `staleAfterMs`
 * are queued again, a bounded number per tick.
 */
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books, tasks } from '../db/schema';
import { BOOKS_INCOMPLETE_INDEX } from '../db/tables/books';
import { type BookWorkMessage, type BookWorkQueue, queueBookWork } from './book-work';
import { incompleteBooks } from './ingest-tasks';

/** Books re-queued per tick at most: a tick stays short, a big backlog drains over a few minutes. */
const REQUEUE_PER_TICK = 1000;

export async function requeueLostBookWork(
  db: Database,
  queue: BookWorkQueue,
  now: Date,
  staleAfterMs: number,
): Promise<number> {
  const cutoff = new Date(now.getTime() - staleAfterMs).toISOString();
  const stale = or(isNull(books.workQueuedAt), lt(books.workQueuedAt, cutoff));
  // Rows of the same shape as the partial index's condition, so SQLite walks only incomplete books.
  const lost = await db.all<{ id: string; etag: string }>(sql`
    select id, etag from ${books} indexed by ${sql.identifier(BOOKS_INCOMPLETE_INDEX)}
    where deleted_at is null and analysis_error is null
      and (file_hash = '' or analyzed = 0 or (thumbnail_key is null and thumbnail_error is null))
      and (work_queued_at is null or work_queued_at < ${cutoff})
    limit ${REQUEUE_PER_TICK}`);
  const messages: BookWorkMessage[] = lost.map((b) => ({ bookId: b.id, etag: b.etag, thumbnailsSince: null }));
  // Deep scans redo existing thumbnails: those books are complete by the index's measure, not the round's.
  const deepRounds = await db
    .select({ libraryId: tasks.libraryId, payload: tasks.payload })
    .from(tasks)
    .where(and(eq(tasks.status, 'running'), inArray(tasks.type, ['generate_thumbnails'])));
  const queued = new Set(messages.map((m) => m.bookId));
  for (const round of deepRounds) {
    const since = (round.payload as { thumbnailsSince?: string | null }).thumbnailsSince ?? null;
    if (!since || !round.libraryId || messages.length >= REQUEUE_PER_TICK) continue;
    const redo = await db
      .select({ id: books.id, etag: books.etag })
      .from(books)
      .where(and(incompleteBooks('generate_thumbnails', round.libraryId, since), stale))
      .limit(REQUEUE_PER_TICK - messages.length);
    for (const b of redo) {
      if (!queued.has(b.id)) messages.push({ bookId: b.id, etag: b.etag, thumbnailsSince: since });
    }
  }
  await queueBookWork(db, queue, messages);
  return messages.length;
}
