/**
 * Immutable bytes kept in the data center's cache (the Workers Cache API), so an image read again near the
 * same reader costs a local cache hit instead of a read from R2, which may sit on another continent (issue
 * 30, "every immutable byte at the edge"): original pages, renditions (`?width=`…), thumbnails and byte
 * ranges of a book's file (the web EPUB reader's Range requests). Every request still authenticates and
 * checks that its caller may see the book: the cache holds bytes, never decides who may see them, and only
 * replaces the storage read.
 *
 * Every entry is one immutable version: original pages and renditions are keyed by book, page (and
 * parameters) and the R2 etag the book was scanned at, ranges of a file by book, that etag and the span, so a
 * file replaced and rescanned never gets old bytes back (until that rescan, a cached page or range is the
 * scanned version the catalog still describes); a cover's entry records the version of the cover it holds
 * (the catalog's, thumbnail.service.ts), and counts only while the catalog still names that version. Hence
 * the long TTL (it only bounds how long unused entries take space). Where the Cache API does nothing
 * (workers.dev, Node over libSQL), reads simply miss.
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
const COVERS_PATH = '/__longbox/edge-cache/covers';
const FILE_RANGES_PATH = '/__longbox/edge-cache/file-ranges';
/** The cache may answer without the Content-Length it was given: the size travels in a header of our own. */
const SIZE_HEADER = 'X-Longbox-Page-Size';
/** The entity tag the bytes were served with from R2 (thumbnails keep theirs for If-None-Match). */
const ETAG_HEADER = 'X-Longbox-Etag';
/** Which version of what the key names the bytes are, where the key does not say (covers). */
const VERSION_HEADER = 'X-Longbox-Version';
/**
 * How long filling the cache may take. R2 hands over a 4 MiB page in well under a second; a fill still
 * running after this is a stalled read, given up so it stops holding the R2 stream (issue 21).
 */
export const EDGE_CACHE_FILL_MS = 10_000;

export interface EdgeCachedPage {
  body: ReadableStream<Uint8Array>;
  size: number;
  mediaType: string;
  /** The HTTP entity tag the bytes have, when it is not derived from the key (thumbnails). */
  etag?: string;
  /** The version of what the key names these bytes are, when the key does not say (covers). */
  version?: string;
}

/** What is put: a stream (filled as the reader reads its twin), or bytes already in memory (a rendition). */
export type EdgeCacheFill = Omit<EdgeCachedPage, 'body'> & { body: ReadableStream<Uint8Array> | Uint8Array };

export interface EdgePageCache {
  match(key: string): Promise<EdgeCachedPage | null>;
  /** Keeps the bytes if the body delivers exactly `size` of them in time; a broken or stalled read keeps nothing. */
  put(key: string, page: EdgeCacheFill): Promise<void>;
}

export function originalPageCacheKey(origin: string, bookId: string, etag: string, pageNumber: number): string {
  return `${origin}${KEY_PATH}/${bookId}/${encodeURIComponent(etag)}/${pageNumber}`;
}

/** A rendition: the original's key and the rendition's name (page-variant.ts variantName and version). */
export function renditionEdgeCacheKey(
  origin: string,
  bookId: string,
  etag: string,
  pageNumber: number,
  rendition: string,
): string {
  return `${originalPageCacheKey(origin, bookId, etag, pageNumber)}/${encodeURIComponent(rendition)}`;
}

/**
 * `length` bytes of a book's file from `offset`, as the scan recorded the file (its R2 etag): one immutable entry
 * per range asked for, whatever the Range header's spelling (a suffix range is keyed by where it falls).
 */
export function fileRangeCacheKey(
  origin: string,
  bookId: string,
  etag: string,
  offset: number,
  length: number,
): string {
  return `${origin}${FILE_RANGES_PATH}/${bookId}/${encodeURIComponent(etag)}/${offset}-${length}`;
}

/**
 * A book's or series' cover: one entry per cover, which records the version of the cover its bytes are (the
 * catalog's, thumbnail.service.ts); a hit counts only while the catalog still names that version, and a new
 * version replaces the entry.
 */
export function coverEdgeCacheKey(origin: string, kind: 'books' | 'series', id: string): string {
  return `${origin}${COVERS_PATH}/${kind}/${id}`;
}

/**
 * A book's cover drawn within a box (a Kobo's sizes): one entry per size, which records the version of the cover it
 * was drawn from, counted as a cover's entry is.
 */
export function sizedCoverEdgeCacheKey(origin: string, bookId: string, width: number, height: number): string {
  return `${coverEdgeCacheKey(origin, 'books', bookId)}/${width}x${height}`;
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
      const etag = hit.headers.get(ETAG_HEADER);
      const version = hit.headers.get(VERSION_HEADER);
      return {
        body: hit.body,
        size,
        mediaType: hit.headers.get('Content-Type') ?? 'application/octet-stream',
        ...(etag ? { etag } : {}),
        ...(version ? { version } : {}),
      };
    },
    async put(key, page) {
      // Only a whole page is kept: the cache stores what it was given even when the stream broke part-way
      // (measured locally, issue 21), and a cut page would then be served for as long as it stays cached.
      const bytes =
        page.body instanceof Uint8Array
          ? page.body.byteLength === page.size
            ? page.body
            : null
          : await wholeBody(page.body, page.size, EDGE_CACHE_FILL_MS);
      if (!bytes) return;
      const headers: Record<string, string> = {
        'Content-Type': page.mediaType,
        'Content-Length': String(page.size),
        [SIZE_HEADER]: String(page.size),
        'Cache-Control': `public, max-age=${TTL_SECONDS}, immutable`,
      };
      if (page.etag) headers[ETAG_HEADER] = page.etag;
      if (page.version) headers[VERSION_HEADER] = page.version;
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
