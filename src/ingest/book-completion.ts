/**
 * What a queue consumer does for a batch of books (issue 11): look at D1 first — a book that is gone,
 * was replaced since the message was sent, or is already complete costs nothing more and is acked —
 * then complete what is missing: the deferred details (one read, book-details.ts) and the thumbnail.
 * D1 is read and written once per batch, not per book: one query for the books, one for their pages,
 * one batch of writes for everything the books got, so a batch's fixed D1 cost is shared by its books.
 * Failures that retrying cannot fix are recorded on the book (analysisError, thumbnailError) so the
 * book counts as done; anything else is returned as `retry` for the consumer.
 *
 * A batch goes through three steps: load (the books and pages, settling messages with nothing to do), work
 * (each book's read and thumbnail, ten at once), record (one D1 batch, then the outcomes and new covers).
 */
import { readConfig } from '../config/config';
import type { Database } from '../db/client';
import type { DomainEvent, EventPublisher } from '../events/events';
import { mapLimited } from '../lib/concurrency';
import { isBookAnalysisError } from '../media/errors';
import { ImageRenderError, type RendererClient } from '../media/image-renderer';
import { BookWorkRepository } from '../repositories/book-work.repository';
import { type BookRow, CatalogWriter, type Statement } from '../repositories/catalog-writer.repository';
import {
  type BookDetails,
  detailsRecord,
  type PageImage,
  type PageToMeasure,
  readBookDetails,
  sameLocator,
  withDetails,
} from '../scanning/book-details';
import type { OnePassStats } from '../scanning/sequential-object-reader';
import { FileChangedSinceScan } from '../storage/page-source';
import { coverLocatorOf, renderBookThumbnail } from '../thumbnails/thumbnail-generator';
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
  | { kind: 'gone' | 'stale' | 'duplicate' }
  /** Something that may pass (storage or renderer unreachable): the message is retried. */
  | { kind: 'retry'; error: unknown }
  | {
      kind: 'done';
      libraryId: string;
      seriesId: string;
      r2Requests: number;
      /** What this delivery did: false, false for a book that was already complete. */
      details: boolean;
      thumbnail: boolean;
      /** Wall time of each part, for the consumer's batch log line. */
      detailsMs: number;
      thumbnailMs: number;
    };

/**
 * Books of one batch worked on at once. Reads overlap their waits on R2 and the renderer; the cap keeps
 * the memory of a batch bounded (each pass holds a window of up to 2 MiB of its file) whatever its size.
 */
const BOOKS_AT_ONCE = 10;

export const detailsPending = (book: BookRow) => !book.analysisError && (book.fileHash === '' || !book.analyzed);

export const thumbnailPending = (book: BookRow, since: string | null) =>
  !book.analysisError &&
  !book.thumbnailError &&
  (book.thumbnailKey === null || (since !== null && (book.thumbnailUpdatedAt ?? '') < since));

/** One book's work in the batch, filled in as it goes. */
interface BookJob {
  message: BookWorkMessage;
  book: BookRow;
  stats: OnePassStats;
  details?: BookDetails;
  /**
   * The thumbnail's key once stored, or why it cannot be made. `madeAt`: when it was stored — a deep scan
   * that started later finds it current and leaves it be.
   */
  thumbnail?: { key: string; madeAt: string } | { failed: string };
  detailsMs: number;
  thumbnailMs: number;
  error?: unknown;
}

/** A message's place in the batch: settled at load (gone, stale), a job, or a twin of another message's job. */
type Slot = BookWorkOutcome | BookJob | { twinOf: BookJob };

interface LoadedBatch {
  /** One per message, in order. */
  slots: Slot[];
  jobs: BookJob[];
  /** The pages of the jobs' books that have work left. */
  pages: Map<string, PageToMeasure[]>;
}

/** Completes the books of a batch of messages; one outcome per message, in order. */
export async function completeBookWorkBatch(
  deps: BookWorkDeps,
  messages: BookWorkMessage[],
): Promise<BookWorkOutcome[]> {
  const batch = await loadBatch(new BookWorkRepository(deps.db), messages);
  const now = new Date().toISOString();
  await workOnBatch(deps, batch, now);
  return recordBatch(deps, batch, now);
}

/** Load: the books in one query, the pages of those with work left in another; gone and stale messages are settled. */
async function loadBatch(work: BookWorkRepository, messages: BookWorkMessage[]): Promise<LoadedBatch> {
  const found = await work.books([...new Set(messages.map((m) => m.bookId))]);
  const byBook = new Map<string, BookJob>();
  const slots = messages.map((message): Slot => {
    const book = found.get(message.bookId);
    if (!book || book.deletedAt) return { kind: 'gone' };
    if (book.etag !== message.etag) return { kind: 'stale' };
    // The same book twice (at-least-once delivery, a cron re-queue, a deep scan's message): one job
    // does it, redoing thumbnails made before the latest `thumbnailsSince` either message asks for.
    const twin = byBook.get(book.id);
    if (twin) {
      const since = [twin.message.thumbnailsSince, message.thumbnailsSince]
        .filter((s): s is string => s !== null)
        .sort();
      twin.message = { ...twin.message, thumbnailsSince: since.at(-1) ?? null };
      return { twinOf: twin };
    }
    const job: BookJob = { message, book, stats: { requests: 0, fallbackReads: 0 }, detailsMs: 0, thumbnailMs: 0 };
    byBook.set(book.id, job);
    return job;
  });
  const jobs = slots.filter((slot): slot is BookJob => 'book' in slot);
  const needPages = jobs.filter(
    (job) => detailsPending(job.book) || thumbnailPending(job.book, job.message.thumbnailsSince),
  );
  const pages = needPages.length > 0 ? await work.pagesOf(needPages.map((job) => job.book.id)) : new Map();
  return { slots, jobs, pages: pages as Map<string, PageToMeasure[]> };
}

/** Work: each job's one read and thumbnail, ten books at once; what fails is kept on its job. */
async function workOnBatch(deps: BookWorkDeps, batch: LoadedBatch, now: string): Promise<void> {
  await mapLimited(
    batch.jobs,
    BOOKS_AT_ONCE,
    async (job) => {
      try {
        await workOnBook(deps, job, batch.pages.get(job.book.id) ?? [], now);
      } catch (error) {
        job.error = error;
      }
    },
    // A timer turn between books: queue sends and requests get in while a batch runs (src/lib/event-loop.ts).
    { yieldBetween: true },
  );
}

async function workOnBook(deps: BookWorkDeps, job: BookJob, pages: PageToMeasure[], now: string): Promise<void> {
  const first = pages.reduce<PageToMeasure | undefined>((a, b) => (a && a.number <= b.number ? a : b), undefined);
  const started = Date.now();
  if (detailsPending(job.book)) {
    // The thumbnail's cover is kept from the same read when it is one of the pages.
    const coverLocator = thumbnailPending(job.book, job.message.thumbnailsSince)
      ? coverLocatorOf(job.book, first)
      : undefined;
    const cover = coverLocator && pages.find((page) => sameLocator(page.locator, coverLocator));
    // A read that stalls is given up after the configured time and retried, rather than holding the batch.
    const stallMs = readConfig(deps.env).LONGBOX_INGEST__READ_STALL_SECONDS * 1000;
    job.details = await readBookDetails(deps.env.LIBRARY, job.book, pages, job.stats, cover, { stallMs });
    job.detailsMs = Date.now() - started;
    job.book = withDetails(job.book, job.details, now);
  }
  if (thumbnailPending(job.book, job.message.thumbnailsSince)) {
    const measured = job.details?.kind === 'measured' ? job.details : undefined;
    job.thumbnail = measured?.keptError
      ? { failed: measured.keptError }
      : await makeThumbnail(deps, job.book, first, measured?.kept);
    job.thumbnailMs = Date.now() - started - job.detailsMs;
  }
}

/**
 * Record: everything the batch's books got in one D1 batch (one transaction) — if it fails, nothing was
 * recorded and every book is tried again — then each message's outcome, and the new covers in one publish
 * (one call to the event hub, which runs beside the API, per batch).
 */
async function recordBatch(deps: BookWorkDeps, batch: LoadedBatch, now: string): Promise<BookWorkOutcome[]> {
  const writer = new CatalogWriter(deps.db);
  const statements: Statement[] = writer.detailsStatements(
    batch.jobs.flatMap((job) => (job.details ? [detailsRecord(job.book, job.details, now)] : [])),
  );
  for (const job of batch.jobs) {
    if (!job.thumbnail) continue;
    statements.push(
      'key' in job.thumbnail
        ? writer.thumbnailRecorded(job.book.id, job.thumbnail.key, job.thumbnail.madeAt)
        : writer.thumbnailFailed(job.book.id, job.thumbnail.failed),
    );
  }
  try {
    await writer.runAtomically(statements);
  } catch (error) {
    return batch.slots.map((slot) => ('kind' in slot ? slot : { kind: 'retry', error }));
  }
  const covers: DomainEvent[] = [];
  const outcomes = batch.slots.map((slot): BookWorkOutcome => {
    if ('twinOf' in slot)
      return slot.twinOf.error === undefined ? { kind: 'duplicate' } : { kind: 'retry', error: slot.twinOf.error };
    if (!('book' in slot)) return slot;
    if (slot.error !== undefined) return { kind: 'retry', error: slot.error };
    const made = slot.thumbnail !== undefined && 'key' in slot.thumbnail;
    if (made)
      covers.push({
        type: 'cover_updated',
        entity_type: 'book',
        entity_id: slot.book.id,
        library_id: slot.book.libraryId,
      });
    return {
      kind: 'done',
      libraryId: slot.book.libraryId,
      seriesId: slot.book.seriesId,
      r2Requests: slot.stats.requests,
      details: slot.details !== undefined,
      thumbnail: made,
      detailsMs: slot.detailsMs,
      thumbnailMs: slot.thumbnailMs,
    };
  });
  deps.events.publish(...covers);
  return outcomes;
}

/** The thumbnail's key, or why it cannot be made; undefined when the file changed (its rescan queues it). */
async function makeThumbnail(
  deps: BookWorkDeps,
  book: BookRow,
  firstPage: PageToMeasure | undefined,
  cover: PageImage | undefined,
): Promise<BookJob['thumbnail']> {
  if (!deps.renderer) return { failed: 'No image renderer is configured' };
  try {
    const key = await renderBookThumbnail(deps.env, deps.renderer, book, firstPage, deps.thumbnailMaxSide, cover);
    return key ? { key, madeAt: new Date().toISOString() } : { failed: 'The book has no image to show' };
  } catch (error) {
    // Replaced since the scan: the rescan that notices queues the new version; nothing to record.
    if (error instanceof FileChangedSinceScan) return undefined;
    // The page or its image cannot be read: retrying reads the same bytes again.
    if (!isBookAnalysisError(error) && !(error instanceof ImageRenderError)) throw error;
    return { failed: error.message };
  }
}

/**
 * The last word on a message the queue gave up on (dead-letter queue): whatever is still missing is
 * recorded as failed, so the book is complete — with an error — instead of retried forever.
 */
export async function recordAbandonedBookWork(db: Database, message: BookWorkMessage) {
  const book = await new BookWorkRepository(db).book(message.bookId);
  if (!book || book.deletedAt || book.etag !== message.etag) return null;
  const reason = 'Longbox gave up on this book after repeated failures (see the server log); a deep scan tries again';
  const writer = new CatalogWriter(db);
  if (detailsPending(book)) await writer.analysisFailed(book.id, reason);
  else if (thumbnailPending(book, message.thumbnailsSince)) await writer.thumbnailFailed(book.id, reason);
  return { libraryId: book.libraryId };
}
