/**
 * What serving a book's bytes needs from D1 (the book's storage columns and its page table), kept near the
 * reader so that reading a book page by page, or an EPUB range by range, costs no D1 round trip per request
 * (docs/BENCHMARKS.md, Page serving; issue 30): for `TTL_MS` in the isolate, and in the data center's Cache API
 * (when the deployment has one), so another isolate of the same data center does not read D1 again either.
 * A miss reads the book and its pages in one batch (one round trip).
 *
 * Staleness is bounded two ways: every read of the file is pinned to the cached R2 etag, so a file replaced and
 * rescanned is noticed at once (the caller reads D1 again, `fresh`, and keeps what it read); anything else a
 * rescan could change (a book removed, an analysis error) is picked up within TTL_MS of when D1 was read,
 * wherever the table was kept since. Until then a 304 may still be answered for a page of a file replaced in
 * place. A book whose analysis has not finished is never kept: its page sizes are still to come (the reader's
 * layout waits for them, right after a scan).
 *
 * A table is the same for every viewer; who may be served from it is decided per request
 * (repositories/visibility.ts). A book's library never changes, so a viewer without content restrictions is
 * checked against the kept book's library, in memory. Content restrictions test the series' rating and labels,
 * which an admin may change at any moment, so for a viewer with such restrictions the book's visibility is read
 * from D1 on every request — at the same time as the bytes (`visible`), which are handed out only once it says
 * yes: a series hidden a second ago is never served, and the check costs no round trip of its own.
 */
import type { Defer } from '../lib/deferred-work';
import type { BookMediaRepository, MediaBook, MediaPage } from '../repositories/book-media.repository';
import { seesAllContent, seesLibrary, type Viewer } from '../repositories/visibility';

/** How long a table is kept, wherever: how long a book removed or a file replaced and rescanned may go unseen. */
export const PAGE_TABLE_TTL_MS = 60_000;
const TTL_MS = PAGE_TABLE_TTL_MS;
/** A few hundred bytes per page: 64 books of 300 pages stay well under 10 MB. */
const MAX_BOOKS = 64;

export interface PageTable {
  book: MediaBook;
  pages: ReadonlyMap<number, MediaPage>;
  /** True when the table was kept (isolate or data center) rather than read from D1 just now. */
  cached: boolean;
  /**
   * Whether the viewer may see the book: settled at once for a table read for them just now or a viewer who
   * sees all of the book's library, read from D1 (beside whatever the caller reads) for one with content
   * restrictions. Nothing of the book may be answered before it settles true.
   */
  visible: Promise<boolean>;
}

interface Entry {
  book: MediaBook;
  pages: Map<number, MediaPage>;
  expiresAt: number;
}

/** The table as the data center's cache keeps it: plain JSON, with when it was read from D1. */
interface KeptTable {
  book: MediaBook;
  pages: MediaPage[];
  readAt: number;
}

const entries = new Map<string, Entry>();

/** Where in the data center's cache tables are kept (the deployment's own origin; no route serves the path). */
export interface PageTableStore {
  origin: string;
  cache: Cache;
}

/** The data center's cache, or null where the runtime has none. */
export function pageTableStore(origin: string): PageTableStore | null {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  return storage?.default ? { origin, cache: storage.default } : null;
}

const keyOf = (store: PageTableStore, bookId: string) => `${store.origin}/__longbox/edge-cache/page-tables/${bookId}`;

export interface PageTableOptions {
  /** Read D1 whatever is kept (the kept book is older than its file). */
  fresh?: boolean;
  /** The data center's cache; null: the isolate's only. */
  store?: PageTableStore | null;
  /** Runs work after the response (keeping a table read from D1 in the data center's cache). */
  defer?: Defer;
}

export async function pageTable(
  repo: BookMediaRepository,
  viewer: Viewer,
  bookId: string,
  options: PageTableOptions = {},
): Promise<PageTable | null> {
  const now = Date.now();
  const kept = options.fresh ? undefined : await keptEntry(bookId, now, options.store ?? null);
  if (kept) {
    const visible = seesAllContent(viewer)
      ? Promise.resolve(seesLibrary(viewer, kept.book.libraryId))
      : repo.isVisible(viewer, bookId);
    return { book: kept.book, pages: kept.pages, cached: true, visible };
  }
  entries.delete(bookId);
  const loaded = await repo.pageTable(viewer, bookId);
  if (!loaded) return null;
  const pages = new Map(loaded.pages.map((page) => [page.number, page]));
  const table = { book: loaded.book, pages, cached: false, visible: Promise.resolve(true) };
  if (!loaded.book.analyzed) return table;
  remember(bookId, { book: loaded.book, pages, expiresAt: now + TTL_MS });
  const { store, defer } = options;
  if (store && defer)
    defer(() => keepInDataCenter(store, bookId, { book: loaded.book, pages: loaded.pages, readAt: now }));
  return table;
}

/** The isolate's entry, else the data center's (then kept in the isolate for the rest of its time). */
async function keptEntry(bookId: string, now: number, store: PageTableStore | null): Promise<Entry | undefined> {
  const hit = entries.get(bookId);
  if (hit && hit.expiresAt > now) return hit;
  if (!store) return undefined;
  const response = await store.cache.match(keyOf(store, bookId));
  if (!response) return undefined;
  const table = (await response.json()) as KeptTable;
  const expiresAt = table.readAt + TTL_MS;
  if (expiresAt <= now) return undefined;
  const entry = { book: table.book, pages: new Map(table.pages.map((page) => [page.number, page])), expiresAt };
  remember(bookId, entry);
  return entry;
}

function remember(bookId: string, entry: Entry): void {
  entries.delete(bookId);
  // Map order is insertion order: the first key is the least recently loaded book.
  if (entries.size >= MAX_BOOKS) entries.delete(entries.keys().next().value as string);
  entries.set(bookId, entry);
}

async function keepInDataCenter(store: PageTableStore, bookId: string, table: KeptTable): Promise<void> {
  const maxAge = Math.max(1, Math.floor((table.readAt + TTL_MS - Date.now()) / 1000));
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': `public, max-age=${maxAge}` };
  await store.cache.put(keyOf(store, bookId), new Response(JSON.stringify(table), { headers }));
}
