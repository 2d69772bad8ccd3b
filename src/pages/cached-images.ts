/**
 * Everything Longbox keeps in the CACHE bucket for a book: its thumbnail and the page renditions of
 * every version of its file. Removed when the book itself leaves the catalog for good (purge_deleted),
 * so the bucket does not keep images nobody can ask for any more.
 */
import { bookThumbnailKey } from '../thumbnails/thumbnail-generator';
import { bookRenditionsPrefix } from './page-variant';

/** R2 deletes at most this many keys per call. */
const DELETE_BATCH = 1000;

/** Removes the cached images of these books (deleting a key that does not exist is not an error). */
export async function removeCachedImages(cache: R2Bucket, bookIds: readonly string[]): Promise<void> {
  const keys: string[] = [];
  for (const id of bookIds) {
    keys.push(bookThumbnailKey(id));
    let cursor: string | undefined;
    do {
      const listed = await cache.list({ prefix: bookRenditionsPrefix(id), cursor });
      keys.push(...listed.objects.map((object) => object.key));
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor);
  }
  for (let i = 0; i < keys.length; i += DELETE_BATCH) await cache.delete(keys.slice(i, i + DELETE_BATCH));
}
