/**
 * Original page bytes kept in the data center's cache (the Workers Cache API), so a page read again
 * near the same reader costs a local cache hit instead of a ranged read from R2, which may sit on
 * another continent. Every request still authenticates, checks permissions and looks up the page
 * before the cache is asked: the cache only replaces the storage read.
 *
 * Entries are keyed by book, page and the R2 etag the book was scanned at, so a file replaced and
 * rescanned never gets an old page back; until that rescan, a cached page is the scanned version the
 * catalog still describes. Pages are immutable under their key, hence the long TTL (it only bounds
 * how long unused entries take space). Where the Cache API does nothing (workers.dev, Node over
 * libSQL), reads simply miss.
 */

/**
 * Filling the cache tees the R2 stream, and the tee holds whatever the reader has not taken yet, up to a
 * whole page per request in flight. Typical comic pages are well under this; larger ones (huge PNG scans)
 * are streamed from R2 every time instead, so a burst of page requests stays far from the 128 MB isolate.
 */
export const MAX_EDGE_CACHED_PAGE_BYTES = 4 * 1024 * 1024;
const TTL_SECONDS = 30 * 24 * 3600;
/**
 * Keys live on the deployment's own origin (the cache is per zone), under a path no route serves: the
 * Worker always runs first, so the cache is only ever read from here.
 */
const KEY_PATH = '/__longbox/edge-cache/pages';
/** The cache may answer without the Content-Length it was given: the size travels in a header of our own. */
const SIZE_HEADER = 'X-Longbox-Page-Size';
/**
 * How long filling the cache may take. R2 hands over a 4 MiB page in well under a second; a fill still
 * running after this is a stalled read, given up so it stops holding the R2 stream (issue 21).
 */
export const EDGE_CACHE_FILL_MS = 10_000;

export interface EdgeCachedPage {
  body: ReadableStream<Uint8Array>;
  size: number;
  mediaType: string;
}

export interface EdgePageCache {
  match(key: string): Promise<EdgeCachedPage | null>;
  /** Keeps the page if its body delivers exactly `size` bytes in time; a broken or stalled read keeps nothing. */
  put(key: string, page: EdgeCachedPage): Promise<void>;
}

export function originalPageCacheKey(origin: string, bookId: string, etag: string, pageNumber: number): string {
  return `${origin}${KEY_PATH}/${bookId}/${encodeURIComponent(etag)}/${pageNumber}`;
}

/** The cache of this data center, or null where the runtime has no Cache API. */
export function edgePageCache(): EdgePageCache | null {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  if (!storage?.default) return null;
  const cache = storage.default;
  return {
    async match(key) {
      const hit = await cache.match(key);
      if (!hit?.body) return null;
      const size = Number(hit.headers.get(SIZE_HEADER) ?? Number.NaN);
      if (!Number.isSafeInteger(size) || size < 0) {
        await hit.body.cancel();
        return null;
      }
      return { body: hit.body, size, mediaType: hit.headers.get('Content-Type') ?? 'application/octet-stream' };
    },
    async put(key, page) {
      // Only a whole page is kept: the cache stores what it was given even when the stream broke part-way
      // (measured locally, issue 21), and a cut page would then be served for as long as it stays cached.
      const bytes = await wholeBody(page.body, page.size, EDGE_CACHE_FILL_MS);
      if (!bytes) return;
      const headers = {
        'Content-Type': page.mediaType,
        'Content-Length': String(page.size),
        [SIZE_HEADER]: String(page.size),
        'Cache-Control': `public, max-age=${TTL_SECONDS}, immutable`,
      };
      await cache.put(key, new Response(bytes, { headers }));
    },
  };
}

/** The body's `size` bytes, or null when it fails, ends early, runs long or takes longer than `deadlineMs`. */
async function wholeBody(
  body: ReadableStream<Uint8Array>,
  size: number,
  deadlineMs: number,
): Promise<Uint8Array | null> {
  const byob = byobReader(body);
  const reader = byob ?? body.getReader();
  // Cancelling ends the pending read (done), and with it the R2 stream once the reader's side let go too.
  const deadline = setTimeout(() => reader.cancel().catch(() => {}), deadlineMs);
  try {
    if (byob) {
      // A byte stream (R2's, and what the page paths make of it) fills the page in one native read; asking
      // for one byte more tells a body that runs long from one that ends where it should.
      const { value } = await byob.readAtLeast(size + 1, new Uint8Array(size + 1));
      if (value?.length === size) return value;
      await byob.cancel().catch(() => {});
      return null;
    }
    const bytes = new Uint8Array(size);
    let filled = 0;
    for (;;) {
      const { done, value } = await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
      if (done) break;
      if (filled + value.length > size) {
        await reader.cancel();
        return null;
      }
      bytes.set(value, filled);
      filled += value.length;
    }
    return filled === size ? bytes : null;
  } catch {
    return null; // the read failed part-way
  } finally {
    clearTimeout(deadline);
  }
}

function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return body.getReader({ mode: 'byob' });
  } catch {
    return null; // a stream of chunks made in JavaScript (a page cut from an archive by a container)
  }
}
