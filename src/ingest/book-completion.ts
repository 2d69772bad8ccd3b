/**
 * What a queue consumer does for one book (issue 11): look at D1 first — a book that is gone, was
 * replaced since the message was sent, or is already complete costs one lookup and is acked — then
 * complete what is missing: the deferred details (one read, book-details.ts) and the thumbnail.
 * Failures that retrying cannot fix are recorded on the book (analysisError, thumbnailError) so the
 * book counts as done; anything else is thrown for the consumer to retry.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books } from '../db/schema';
import type { EventPublisher } from '../events/events';
import { ImageRenderError, type RendererClient } from '../media/image-renderer';
import { isBookAnalysisError } from '../media/errors';
import { FileChangedSinceScan } from '../pages/page-source';
import type { BookRow } from '../repositories/catalog-writer.repository';
import { completeBookDetails } from '../scanning/book-details';
import { generateBookThumbnail } from '../thumbnails/thumbnail-generator';
import type { BookWorkMessage } from './book-work';

export interface BookWorkDeps {
  db: Database;
  env: Env;
  events: EventPublisher;
  /** Null when no renderer is bound: thumbnails are then recorded as impossible, not retried. */
  renderer: RendererClient | null;
  thumbnailMaxSide: number;
}

export type BookWorkOutcome =
  | { kind: 'gone' | 'stale' }
  | {
      kind: 'done';
      libraryId: string;
      seriesId: string;
      r2Requests: number;
      /** What this delivery did: false, false for a book that was already complete. */
      details: boolean;
      thumbnail: boolean;
      /** Wall time of each part, for the consumers' batch log line. */
      detailsMs: number;
      thumbnailMs: number;
    };

export const detailsPending = (book: BookRow) => !book.analysisError && (book.fileHash === '' || !book.analyzed);

export const thumbnailPending = (book: BookRow, since: string | null) =>
  !book.analysisError &&
  !book.thumbnailError &&
  (book.thumbnailKey === null || (since !== null && (book.thumbnailUpdatedAt ?? '') < since));

const loadBook = (db: Database, id: string) => db.select().from(books).where(eq(books.id, id)).get();

export async function completeBookWork(deps: BookWorkDeps, message: BookWorkMessage): Promise<BookWorkOutcome> {
  const { db, env } = deps;
  let book = await loadBook(db, message.bookId);
  if (!book || book.deletedAt) return { kind: 'gone' };
  if (book.etag !== message.etag) return { kind: 'stale' };
  let r2Requests = 0;
  const details = detailsPending(book);
  const started = Date.now();
  if (details) {
    r2Requests += (await completeBookDetails(db, env.LIBRARY, book)).requests;
    book = await loadBook(db, book.id);
    if (!book) return { kind: 'gone' };
  }
  const detailsMs = Date.now() - started;
  let thumbnail = false;
  if (thumbnailPending(book, message.thumbnailsSince)) thumbnail = await makeThumbnail(deps, book);
  const thumbnailMs = Date.now() - started - detailsMs;
  return {
    kind: 'done',
    libraryId: book.libraryId,
    seriesId: book.seriesId,
    r2Requests,
    details,
    thumbnail,
    detailsMs,
    thumbnailMs,
  };
}

async function makeThumbnail(deps: BookWorkDeps, book: BookRow): Promise<boolean> {
  const recordFailure = (reason: string) =>
    deps.db.update(books).set({ thumbnailError: reason }).where(eq(books.id, book.id));
  if (!deps.renderer) {
    await recordFailure('No image renderer is configured');
    return false;
  }
  try {
    if (await generateBookThumbnail(deps.db, deps.env, deps.renderer, book, deps.thumbnailMaxSide)) {
      deps.events.publish({
        type: 'cover_updated',
        entity_type: 'book',
        entity_id: book.id,
        library_id: book.libraryId,
      });
      return true;
    }
    await recordFailure('The book has no image to show');
  } catch (error) {
    // Replaced since the scan: the rescan that notices queues the new version; nothing to record.
    if (error instanceof FileChangedSinceScan) return false;
    // The page or its image cannot be read: retrying reads the same bytes again.
    if (!isBookAnalysisError(error) && !(error instanceof ImageRenderError)) throw error;
    await recordFailure(error.message);
  }
  return false;
}

/**
 * The last word on a message the queue gave up on (dead-letter queue): whatever is still missing is
 * recorded as failed, so the book is complete — with an error — instead of retried forever.
 */
export async function recordAbandonedBookWork(db: Database, message: BookWorkMessage) {
  const book = await loadBook(db, message.bookId);
  if (!book || book.deletedAt || book.etag !== message.etag) return null;
  const reason = 'Longbox gave up on this book after repeated failures (see the server log); a deep scan tries again';
  if (detailsPending(book)) {
    await db.update(books).set({ analysisError: reason, analyzed: false }).where(eq(books.id, book.id));
  } else if (thumbnailPending(book, message.thumbnailsSince)) {
    await db.update(books).set({ thumbnailError: reason }).where(eq(books.id, book.id));
  }
  return { libraryId: book.libraryId };
}
