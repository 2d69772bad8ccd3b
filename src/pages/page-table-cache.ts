/**
 * What serving a book's pages needs from D1 (the book's storage columns and its page table), kept in
 * the isolate for a minute. A reader app asks for the pages of one book one after another; with this
 * the whole book costs one D1 round trip instead of one per page (docs/BENCHMARKS.md, Page serving).
 * A miss reads the book and its pages in one batch (one round trip).
 *
 * Staleness is bounded two ways: every page read is pinned to the cached R2 etag, so a file replaced
 * and rescanned is noticed at once (the caller drops the entry and reads D1 again); anything else a
 * rescan could change (a book removed, an analysis error) is picked up within TTL_MS. Until then a
 * 304 may still be answered for a page of a file replaced in place. A book whose analysis has not finished
 * is never kept: its page sizes are still to come (the reader's layout waits for them, right after a scan).
 *
 * A table is the same for every viewer; who may be served from it is decided per request
 * (repositories/visibility.ts). A book's library never changes, so a viewer without content restrictions
 * is checked against the cached book's library, in memory. Content restrictions test the series' rating and
 * labels, which an admin may change at any moment, so a viewer with such restrictions has the book's
 * visibility checked in D1 on every page (one small statement; the table itself still comes from here):
 * a series hidden a second ago is never served.
 */
import type { BookMediaRepository, MediaBook, MediaPage } from '../repositories/book-media.repository';
import { seesAllContent, seesLibrary, type Viewer } from '../repositories/visibility';

const TTL_MS = 60_000;
/** A few hundred bytes per page: 64 books of 300 pages stay well under 10 MB. */
const MAX_BOOKS = 64;

export interface PageTable {
  book: MediaBook;
  pages: ReadonlyMap<number, MediaPage>;
  /** True when the table came from the isolate cache rather than D1 just now. */
  cached: boolean;
}

interface Entry {
  book: MediaBook;
  pages: Map<number, MediaPage>;
  expiresAt: number;
}

const entries = new Map<string, Entry>();

export async function pageTable(
  repo: BookMediaRepository,
  viewer: Viewer,
  bookId: string,
  options: { fresh?: boolean } = {},
): Promise<PageTable | null> {
  const now = Date.now();
  const hit = options.fresh ? undefined : entries.get(bookId);
  if (hit && hit.expiresAt > now) {
    const visible = seesAllContent(viewer)
      ? seesLibrary(viewer, hit.book.libraryId)
      : await repo.isVisible(viewer, bookId);
    return visible ? { book: hit.book, pages: hit.pages, cached: true } : null;
  }
  entries.delete(bookId);
  const loaded = await repo.pageTable(viewer, bookId);
  if (!loaded) return null;
  const pages = new Map(loaded.pages.map((page) => [page.number, page]));
  if (!loaded.book.analyzed) return { book: loaded.book, pages, cached: false };
  // Map order is insertion order: the first key is the least recently loaded book.
  if (entries.size >= MAX_BOOKS) entries.delete(entries.keys().next().value as string);
  entries.set(bookId, { book: loaded.book, pages, expiresAt: now + TTL_MS });
  return { book: loaded.book, pages, cached: false };
}
