/**
 * What a queue consumer does for a batch of books (issue 11): look at D1 first — a book that is gone,
 * was replaced since the message was sent, or is already complete costs nothing more and is acked —
 * then complete what is missing: the deferred details (one read, book-details.ts) and the thumbnail.
 * D1 is read and written once per batch, not per book: one query for the books, one for their pages,
 * one batch of writes for everything the books got, so a batch's fixed D1 cost is shared by its books.
 * Failures that retrying cannot fix are recorded on the book (analysisError, thumbnailError) so the
 * book counts as done; anything else is returned as `retry` for the consumer.
 */
import { eq, inArray } from 'drizzle-orm';
import { readConfig } from '../config/config';
import type { Database } from '../db/client';
import { books } from '../db/schema';
import type { DomainEvent, EventPublisher } from '../events/events';
import { ImageRenderError, type RendererClient } from '../media/image-renderer';
import { mapLimited } from '../lib/concurrency';
import { isBookAnalysisError } from '../media/errors';
import { FileChangedSinceScan } from '../pages/page-source';
import type { BookRow } from '../repositories/catalog-writer.repository';
import {
  type BookDetails,
  detailsStatements,
  loadPagesOf,
  type PageImage,
  type PageToMeasure,
  readBookDetails,
  sameLocator,
  withDetails,
} from '../scanning/book-details';
import type { OnePassStats } from '../scanning/sequential-object-reader';
import { coverLocatorOf, renderBookThumbnail, thumbnailRecorded } from '../thumbnails/thumbnail-generator';
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
/** Book ids per SELECT … IN: D1 binds at most 100 parameters per statement. */
const IDS_PER_SELECT = 90;

export const detailsPending = (book: BookRow) => !book.analysisError && (book.fileHash === '' || !book.analyzed);

export const thumbnailPending = (book: BookRow, since: string | null) =>
  !book.analysisError &&
  !book.thumbnailError &&
  (book.thumbnailKey === null || (since !== null && (book.thumbnailUpdatedAt ?? '') < since));

const loadBook = (db: Database, id: string) => db.select().from(books).where(eq(books.id, id)).get();

async function loadBooks(db: Database, ids: string[]): Promise<Map<string, BookRow>> {
  const byId = new Map<string, BookRow>();
  for (let i = 0; i < ids.length; i += IDS_PER_SELECT) {
    const rows = await db
      .select()
      .from(books)
      .where(inArray(books.id, ids.slice(i, i + IDS_PER_SELECT)));
    for (const row of rows) byId.set(row.id, row);
  }
  return byId;
}

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

/** Completes the books of a batch of messages; one outcome per message, in order. */
export async function completeBookWorkBatch(
  deps: BookWorkDeps,
  messages: BookWorkMessage[],
): Promise<BookWorkOutcome[]> {
  const { db, env } = deps;
  const stallMs = readConfig(env).LONGBOX_INGEST__READ_STALL_SECONDS * 1000;
  const found = await loadBooks(db, [...new Set(messages.map((m) => m.bookId))]);
  const byBook = new Map<string, BookJob>();
  /** A message for a book another message of the batch already covers: its fate follows that job's. */
  type Twin = { twinOf: BookJob };
  const outcomes: Array<BookWorkOutcome | BookJob | Twin> = messages.map((message) => {
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
  const jobs = outcomes.filter((o): o is BookJob => 'book' in o);
  const needPages = jobs.filter(
    (job) => detailsPending(job.book) || thumbnailPending(job.book, job.message.thumbnailsSince),
  );
  const pages =
    needPages.length > 0
      ? await loadPagesOf(
          db,
          needPages.map((job) => job.book.id),
        )
      : new Map();
  const now = new Date().toISOString();

  await mapLimited(
    jobs,
    BOOKS_AT_ONCE,
    async (job) => {
      const bookPages: PageToMeasure[] = pages.get(job.book.id) ?? [];
      const first = bookPages.reduce<PageToMeasure | undefined>(
        (a, b) => (a && a.number <= b.number ? a : b),
        undefined,
      );
      const started = Date.now();
      try {
        if (detailsPending(job.book)) {
          // The thumbnail's cover is kept from the same read when it is one of the pages.
          const coverLocator = thumbnailPending(job.book, job.message.thumbnailsSince)
            ? coverLocatorOf(job.book, first)
            : undefined;
          const cover = coverLocator && bookPages.find((page) => sameLocator(page.locator, coverLocator));
          job.details = await readBookDetails(env.LIBRARY, job.book, bookPages, job.stats, cover, { stallMs });
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
      } catch (error) {
        job.error = error;
      }
    },
    // A timer turn between books: queue sends and requests get in while a batch runs (src/lib/event-loop.ts).
    { yieldBetween: true },
  );

  // Everything the batch's books got, in one D1 batch (one transaction).
  const measured = jobs.flatMap((job) => (job.details ? [{ book: job.book, details: job.details }] : []));
  const statements: unknown[] = measured.length > 0 ? detailsStatements(db, measured, now) : [];
  for (const job of jobs) {
    if (!job.thumbnail) continue;
    statements.push(
      'key' in job.thumbnail
        ? thumbnailRecorded(db, job.book.id, job.thumbnail.key, job.thumbnail.madeAt)
        : db.update(books).set({ thumbnailError: job.thumbnail.failed }).where(eq(books.id, job.book.id)),
    );
  }
  if (statements.length > 0) {
    try {
      await db.batch(statements as unknown as Parameters<Database['batch']>[0]);
    } catch (error) {
      // Nothing was recorded: every book of the batch is tried again.
      return outcomes.map((o) => ('kind' in o ? o : { kind: 'retry', error }));
    }
  }

  // The batch's new covers in one publish: one call to the event hub (which runs beside the API) per batch.
  const covers: DomainEvent[] = [];
  const results = outcomes.map((o): BookWorkOutcome => {
    if ('twinOf' in o)
      return o.twinOf.error === undefined ? { kind: 'duplicate' } : { kind: 'retry', error: o.twinOf.error };
    if (!('book' in o)) return o;
    if (o.error !== undefined) return { kind: 'retry', error: o.error };
    const made = o.thumbnail !== undefined && 'key' in o.thumbnail;
    if (made)
      covers.push({ type: 'cover_updated', entity_type: 'book', entity_id: o.book.id, library_id: o.book.libraryId });
    return {
      kind: 'done',
      libraryId: o.book.libraryId,
      seriesId: o.book.seriesId,
      r2Requests: o.stats.requests,
      details: o.details !== undefined,
      thumbnail: made,
      detailsMs: o.detailsMs,
      thumbnailMs: o.thumbnailMs,
    };
  });
  deps.events.publish(...covers);
  return results;
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
