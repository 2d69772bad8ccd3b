/**
 * The deferred part of a book's analysis, completed after a scan so first scans stay fast: page
 * dimensions (from each page's first bytes), fileHash and readerHash. All three come from one
 * sequential read of the file (sequential-object-reader.ts), pages asked in file order. Reading and
 * recording are apart so a queue consumer can read many books and record them all in one D1 batch
 * (page sizes of many books in one statement). When it succeeds the book is `analyzed` (API.md §2:
 * analysis done and page dimensions available).
 */
import type { Database } from '../db/client';
import { containerFor } from '../media';
import type { BookContainer, PageLocator } from '../media/container';
import { isBookAnalysisError } from '../media/errors';
import { type RangeReader, r2RangeReader } from '../media/range-reader';
import { BookWorkRepository } from '../repositories/book-work.repository';
import { type BookDetailsRecord, type BookRow, CatalogWriter } from '../repositories/catalog-writer.repository';
import { type OnePassStats, openOnePassReader } from './sequential-object-reader';

export interface PageToMeasure {
  number: number;
  mediaType: string;
  locator: PageLocator;
}

/** A page's bytes as stored, in memory (a cover for the thumbnail, kept from the one read). */
export interface PageImage {
  bytes: ArrayBuffer;
  mediaType: string;
}

export type BookDetails =
  | {
      kind: 'measured';
      /** [page, width, height, the type the bytes are in] of every page whose header was recognised. */
      sizes: Array<[number, number, number, string | null]>;
      fileHash: string;
      readerHash: string;
      /** The page asked for as `keep`, when the read could serve it (see readBookDetails). */
      kept?: PageImage;
      /** Why the page asked for as `keep` cannot be read (a damaged entry): its thumbnail cannot be made either. */
      keptError?: string;
    }
  | { kind: 'unreadable'; message: string };

/**
 * A kept page is held in memory until its thumbnail is made; larger ones are read again by the thumbnail.
 * A consumer works on 10 books at once, each holding its pass's 2 MiB window and at most this much (one
 * copy when the page's size is known up front, as for ZIP and RAR entries): ~60 MiB at worst, within an
 * isolate's 128 MB. Nearly every comic page is smaller (a 1988×3056 scan at q85 is ~1 MiB).
 */
const MAX_KEPT_PAGE_BYTES = 4 * 1024 * 1024;

/** Whether two stored locators name the same page. */
export const sameLocator = (a: PageLocator, b: PageLocator): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Where a page's bytes start, for reading in file order (ZIP and RAR locators carry it; PDF needs none). */
const locatorOffset = (locator: PageLocator): number =>
  typeof locator.offset === 'number' ? locator.offset : Number.MAX_SAFE_INTEGER;

/**
 * The one read: every page's dimensions and both hashes, nothing written. A file that cannot be read
 * as a book is a result (`unreadable`); anything else (storage unreachable) is thrown. `keep` (one of
 * `pages`, the cover a thumbnail is made from) is also kept whole as it passes, so the thumbnail needs
 * no read of its own; a page that cannot be kept so (too large, a PDF page to render) is simply not
 * kept and the thumbnail reads it as before. A page that cannot be read at all is `keptError`.
 */
export async function readBookDetails(
  bucket: R2Bucket,
  book: BookRow,
  pages: PageToMeasure[],
  stats: OnePassStats = { requests: 0, fallbackReads: 0 },
  keep?: PageToMeasure,
  options: { stallMs?: number } = {},
): Promise<BookDetails> {
  let pass: Awaited<ReturnType<typeof openOnePassReader>> | undefined;
  try {
    pass = await openOnePassReader(
      bucket,
      book.path,
      book.etag,
      () => r2RangeReader(bucket, book.path, book.fileSize),
      options,
    );
    const container = containerFor(book.fileFormat);
    const ordered = [...pages].sort((a, b) => locatorOffset(a.locator) - locatorOffset(b.locator));
    const sizes: Array<[number, number, number, string | null]> = [];
    let kept: Awaited<ReturnType<typeof keepPage>>;
    for (const page of ordered) {
      const size = await container.readPageHeader(pass.reader, page.locator, book.containerIndex as never);
      if (size) sizes.push([page.number, size.width, size.height, size.mediaType ?? null]);
      if (page === keep) kept = await keepPage(container, pass.reader, page, book.containerIndex);
    }
    const { fileHash, readerHash } = await pass.finish();
    Object.assign(stats, pass.stats);
    return {
      kind: 'measured',
      sizes,
      fileHash,
      readerHash,
      ...(kept && 'error' in kept ? { keptError: kept.error } : kept ? { kept } : {}),
    };
  } catch (error) {
    pass?.abort();
    if (pass) Object.assign(stats, pass.stats);
    if (!isBookAnalysisError(error)) throw error;
    return { kind: 'unreadable', message: error.message };
  }
}

/** The page's bytes as stored, cut from the pass; undefined when it cannot be kept (see readBookDetails). */
async function keepPage(
  container: BookContainer,
  pass: RangeReader,
  page: PageToMeasure,
  containerIndex: unknown,
): Promise<PageImage | { error: string } | undefined> {
  try {
    const content = await container.openPage(pass, page.locator, containerIndex as never);
    if (content.size !== null && content.size > MAX_KEPT_PAGE_BYTES) {
      await content.stream.cancel();
      return undefined;
    }
    const bytes = await collect(content.stream, MAX_KEPT_PAGE_BYTES, content.size);
    return bytes ? { bytes, mediaType: content.mediaType } : undefined;
  } catch (error) {
    // A PDF page to render: the thumbnail renders it. Anything else that fails here fails the thumbnail's
    // own read too, but not always as clearly: a deflated page that does not inflate, streamed to the
    // renderer, surfaces as a lost RPC connection, which the consumer retried until the dead-letter queue
    // gave up on the book. Its error is the thumbnail's, at once, with no second read.
    if (isBookAnalysisError(error)) return error.code === 'render_required' ? undefined : { error: error.message };
    throw error;
  }
}

/** The stream's bytes in one buffer, or undefined (stream cancelled) once they pass `limit`. */
async function collect(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  size: number | null,
): Promise<ArrayBuffer | undefined> {
  const reader = stream.getReader();
  // Known size: straight into the one buffer. Unknown: parts, joined at the end (two copies a moment).
  let out = size === null ? null : new Uint8Array(size);
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.length > limit || (out && total + value.length > out.length)) {
      await reader.cancel();
      return undefined;
    }
    if (out) out.set(value, total);
    else parts.push(value);
    total += value.length;
  }
  if (out) return total === out.length ? out.buffer : out.slice(0, total).buffer;
  out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out.buffer;
}

/** The book row as it is once `details` are recorded (for what comes next in the same pass). */
export function withDetails(book: BookRow, details: BookDetails, now: string): BookRow {
  return details.kind === 'measured'
    ? {
        ...book,
        fileHash: details.fileHash,
        readerHash: details.readerHash,
        analyzed: book.analysisError === null,
        updatedAt: now,
      }
    : { ...book, analysisError: details.message, analyzed: false, updatedAt: now };
}

/** The details as CatalogWriter records them (its detailsStatements write many books' at once). */
export function detailsRecord(book: BookRow, details: BookDetails, now: string): BookDetailsRecord {
  if (details.kind === 'unreadable') {
    return {
      bookId: book.id,
      changes: { analysisError: details.message, analyzed: false, updatedAt: now },
      pageSizes: [],
    };
  }
  const row = withDetails(book, details, now);
  return {
    bookId: book.id,
    changes: { fileHash: row.fileHash, readerHash: row.readerHash, analyzed: row.analyzed, updatedAt: now },
    pageSizes: details.sizes,
  };
}

/** One book, read and recorded (re-analysis, tests); queue consumers batch the same steps. */
export async function completeBookDetails(db: Database, bucket: R2Bucket, book: BookRow): Promise<OnePassStats> {
  const stats: OnePassStats = { requests: 0, fallbackReads: 0 };
  const pages = ((await new BookWorkRepository(db).pagesOf([book.id])).get(book.id) ?? []) as PageToMeasure[];
  const details = await readBookDetails(bucket, book, pages, stats);
  const writer = new CatalogWriter(db);
  await writer.runAtomically(writer.detailsStatements([detailsRecord(book, details, new Date().toISOString())]));
  return stats;
}
