/**
 * Per-book work on Cloudflare Queues (issue 11): after a scan writes a book, one message asks a
 * consumer to complete it — page dimensions and hashes in one read, then its thumbnail. A message is
 * only a hint: D1 says what is still to do, so a duplicate, late or stale message costs one lookup.
 */
import { z } from 'zod';
import type { Database } from '../db/client';
import { CatalogWriter } from '../repositories/catalog-writer.repository';

export const BOOK_WORK_QUEUE = 'longbox-book-work';
export const BOOK_WORK_DEAD_LETTER_QUEUE = 'longbox-book-work-dlq';

export const BookWorkMessageSchema = z.object({
  bookId: z.string().min(1),
  /** The file version the scan saw: a message for an older version is dropped (the newer one has its own). */
  etag: z.string(),
  /** Deep scans redo thumbnails made before this instant; otherwise only missing ones are made. */
  thumbnailsSince: z.string().nullable().default(null),
});
export type BookWorkMessage = z.infer<typeof BookWorkMessageSchema>;
export type BookWorkQueue = Queue<BookWorkMessage>;

/** Queues' sendBatch limit (100 messages, 256 KB); a message here is ~150 bytes. */
const SEND_BATCH_LIMIT = 100;

/** Sends one message per book and stamps the books, so the cron can tell lost work from queued work. */
export async function queueBookWork(db: Database, queue: BookWorkQueue, messages: BookWorkMessage[]): Promise<void> {
  if (messages.length === 0) return;
  for (let i = 0; i < messages.length; i += SEND_BATCH_LIMIT) {
    await queue.sendBatch(messages.slice(i, i + SEND_BATCH_LIMIT).map((body) => ({ body })));
  }
  await new CatalogWriter(db).markWorkQueued(
    messages.map((m) => m.bookId),
    new Date().toISOString(),
  );
}
