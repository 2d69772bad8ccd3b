/**
 * Everything Longbox keeps in the CACHE bucket for a book: its thumbnail and the page renditions of
 * every version of its file. Renditions of a version are removed when a scan sees the file replaced,
 * and everything goes when the book leaves the catalog for good (purge_deleted), so the bucket does
 * not keep images nobody can ask for any more. What those miss (a deleted library takes thousands of
 * books at once; a worker can stop between a row's delete and its images') the hourly sweep finds:
 * every CACHE key names its book, and a key whose book has no row is removed.
 */
import {
  BOOK_THUMBNAILS_ROOT,
  bookRenditionsPrefix,
  bookThumbnailKey,
  RENDITIONS_ROOT,
  versionRenditionsPrefix,
} from './cache-keys';

/** R2 deletes at most this many keys per call. */
const DELETE_BATCH = 1000;

/** Removes the cached images of these books (deleting a key that does not exist is not an error). */
export async function removeCachedImages(cache: R2Bucket, bookIds: readonly string[]): Promise<void> {
  const keys: string[] = [];
  for (const id of bookIds) keys.push(bookThumbnailKey(id), ...(await keysUnder(cache, bookRenditionsPrefix(id))));
  await deleteKeys(cache, keys);
}

/** Removes the renditions made from one version (R2 etag) of a book's file, once the file was replaced. */
export async function removeRenditionsOfVersions(
  cache: R2Bucket,
  versions: ReadonlyArray<{ bookId: string; etag: string }>,
): Promise<void> {
  const keys: string[] = [];
  for (const { bookId, etag } of versions)
    keys.push(...(await keysUnder(cache, versionRenditionsPrefix(bookId, etag))));
  await deleteKeys(cache, keys);
}

/** CACHE key prefixes whose next path segment is the id of the book the image belongs to. */
const BOOK_KEYED_PREFIXES = [BOOK_THUMBNAILS_ROOT, RENDITIONS_ROOT];
/** Book ids are UUIDs: their first hex digit splits the bucket into this many slices. */
export const SWEEP_SLICES = 16;

export interface SweepResult {
  scanned: number;
  removed: number;
  /** False when the list budget ran out before the slice ended; the rest waits for the slice's next turn. */
  complete: boolean;
}

/**
 * Removes the cached images of books that no longer exist, in one slice of the bucket (the books whose
 * id starts with hex digit `slice`), so that a sweep is bounded and every slice comes round in turn.
 * `existing` answers which of the given ids still have a catalog row (trashed books keep theirs, and
 * so their images, until they are purged).
 */
export async function sweepOrphanedImages(
  cache: R2Bucket,
  existing: (bookIds: string[]) => Promise<Set<string>>,
  slice: number,
  maxListCalls = 50,
): Promise<SweepResult> {
  const result: SweepResult = { scanned: 0, removed: 0, complete: true };
  let calls = 0;
  for (const base of BOOK_KEYED_PREFIXES) {
    const prefix = `${base}${slice.toString(16)}`;
    let cursor: string | undefined;
    do {
      if (calls++ === maxListCalls) return { ...result, complete: false };
      const listed = await cache.list({ prefix, cursor });
      const owners = new Map(
        listed.objects.map((object) => [object.key, object.key.slice(base.length).split('/')[0] as string]),
      );
      const live = owners.size ? await existing([...new Set(owners.values())]) : new Set<string>();
      const orphans = [...owners].filter(([, id]) => !live.has(id)).map(([key]) => key);
      await deleteKeys(cache, orphans);
      result.scanned += owners.size;
      result.removed += orphans.length;
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor);
  }
  return result;
}

async function keysUnder(cache: R2Bucket, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const listed = await cache.list({ prefix, cursor });
    keys.push(...listed.objects.map((object) => object.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return keys;
}

async function deleteKeys(cache: R2Bucket, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_BATCH) await cache.delete(keys.slice(i, i + DELETE_BATCH));
}
