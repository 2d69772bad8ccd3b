/**
 * The cron's safety net for queued work (issue 11): D1 is the source of truth and a queue message only
 * a hint. Local queues forget their messages when `wrangler dev` restarts, and production gives up on a
 * message after its retries; books still incomplete whose last message is older than `staleAfterMs`
 * are queued again, a bounded number per tick.
 */
import type { Database } from '../db/client';
import { BookWorkRepository } from '../repositories/book-work.repository';
import { TasksRepository } from '../repositories/tasks.repository';
import { type BookWorkMessage, type BookWorkQueue, queueBookWork } from './book-work';

/** Books re-queued per tick at most: a tick stays short, a big backlog drains over a few minutes. */
const REQUEUE_PER_TICK = 1000;

export async function requeueLostBookWork(
  db: Database,
  queue: BookWorkQueue,
  now: Date,
  staleAfterMs: number,
): Promise<number> {
  const cutoff = new Date(now.getTime() - staleAfterMs).toISOString();
  const work = new BookWorkRepository(db);
  const lost = await work.lostWork(cutoff, REQUEUE_PER_TICK);
  const messages: BookWorkMessage[] = lost.map((b) => ({ bookId: b.id, etag: b.etag, thumbnailsSince: null }));
  // Deep scans redo existing thumbnails: those books are complete by the index's measure, not the round's.
  const deepRounds = await new TasksRepository(db).running(['generate_thumbnails']);
  const queued = new Set(messages.map((m) => m.bookId));
  for (const round of deepRounds) {
    const since = (round.payload as { thumbnailsSince?: string | null }).thumbnailsSince ?? null;
    if (!since || !round.libraryId || messages.length >= REQUEUE_PER_TICK) continue;
    const redo = await work.lostWorkOf('thumbnail', round.libraryId, since, cutoff, REQUEUE_PER_TICK - messages.length);
    for (const b of redo) {
      if (!queued.has(b.id)) messages.push({ bookId: b.id, etag: b.etag, thumbnailsSince: since });
    }
  }
  await queueBookWork(db, queue, messages);
  return messages.length;
}
