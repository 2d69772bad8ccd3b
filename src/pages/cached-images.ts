/**
 * Everything Longbox keeps in the CACHE bucket for a book: its thumbnail and the page renditions of
 * every version of its file. Renditions of a version are removed when a scan sees the file replaced,
 * and everything goes when the book leaves the catalog for good (purge_deleted), so the bucket does
 * not keep images nobody can ask for any more.
 */
import { bookThumbnailKey } from '../thumbnails/thumbnail-generator';
import { bookRenditionsPrefix, versionRenditionsPrefix } from './page-variant';

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
