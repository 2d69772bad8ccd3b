/**
 * What serving a book's pages needs from D1 (the book's storage columns and its page table), kept in
 * the isolate for a minute. A reader app asks for the pages of one book one after another; with this
 * the whole book costs one D1 round trip instead of one per page (docs/BENCHMARKS.md, Page serving).
 *
 * Staleness is bounded two ways: every page read is pinned to the cached R2 etag, so a file replaced
 * and rescanned is noticed at once (the caller drops the entry and reads D1 again); anything else a
 * rescan could change (a book removed, an analysis error) is picked up within TTL_MS. Until then a
 * 304 may still be answered for a page of a file replaced in place.
 *
 * Entries are kept per viewer scope (repositories/visibility.ts): a book is only ever served from the
 * cache to viewers who see exactly what the viewer that loaded it saw. A book's library never changes, so
 * a scope of libraries stays right for a minute; content restrictions test the series' rating and labels,
 * which an admin may change at any moment, so viewers with such restrictions read D1 on every page: a
 * series hidden a second ago is never served from here.
 */
import type { BookMediaRepository, MediaBook, MediaPage } from '../repositories/book-media.repository';
import { seesAllContent, type Viewer } from '../repositories/visibility';

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
  const key = `${viewer.scope}:${bookId}`;
  if (!seesAllContent(viewer)) return load(repo, viewer, bookId);
  const hit = options.fresh ? undefined : entries.get(key);
  if (hit && hit.expiresAt > now) return { book: hit.book, pages: hit.pages, cached: true };
  entries.delete(key);
  const table = await load(repo, viewer, bookId);
  if (!table) return null;
  // Map order is insertion order: the first key is the least recently loaded book.
  if (entries.size >= MAX_BOOKS) entries.delete(entries.keys().next().value as string);
  entries.set(key, { book: table.book, pages: table.pages, expiresAt: now + TTL_MS });
  return table;
}

async function load(repo: BookMediaRepository, viewer: Viewer, bookId: string) {
  const [book, rows] = await Promise.all([repo.book(viewer, bookId), repo.pages(viewer, bookId)]);
  if (!book) return null;
  return { book, pages: new Map(rows.map((page) => [page.number, page])), cached: false };
}
