/**
 * A book's or series' cover version (issue 31 point 6): a short token that changes whenever the image its
 * thumbnail route serves changes, carried by the Book and Series responses as `coverVersion`. The web app
 * asks for `…/thumbnail?v=<coverVersion>`, which the server answers as immutable: a new cover is a new
 * address, so every screen shows it at once and an unchanged one is never asked for again.
 *
 * What the version names follows where the thumbnail service reads the image: an uploaded cover's key
 * (its bytes never change), or a generated thumbnail's key with the time it was last written (scans write
 * it again under the same key); `none` while there is no image (the placeholder, or a thumbnail not made
 * yet, whose making then writes a time). The same notion keys the data-center cover cache (branch
 * farpaths' `versionOf`), so both agree on when a cover is new.
 */
import { sql } from 'drizzle-orm';
import { books, covers, series } from '../db/schema';
import { BOOK_THUMBNAILS_ROOT } from '../storage/cache-keys';

/** What a book's cover is now, as SQL over the books row of the query (see the module comment). */
export const bookCoverSource = sql<string>`coalesce(
  (SELECT 'custom:' || c.id FROM ${covers} AS c WHERE c.book_id = ${books.id} AND c.selected = 1 LIMIT 1),
  ${books.thumbnailKey} || '@' || ${books.thumbnailUpdatedAt},
  'none')`;

/**
 * What a series' cover is now: its stored key (an uploaded cover's, or its first book's thumbnail) with when
 * the image under it was written — the book row's time for a book's thumbnail, rewritten in place, the
 * series row's otherwise. The book is found by primary key from the key's tail.
 */
export const seriesCoverSource = sql<string>`coalesce(
  ${series.thumbnailKey} || '@' || coalesce(
    (SELECT b.thumbnail_updated_at FROM ${books} AS b
      WHERE b.id = substr(${series.thumbnailKey}, ${BOOK_THUMBNAILS_ROOT.length + 1})
        AND ${series.thumbnailKey} = ${BOOK_THUMBNAILS_ROOT} || b.id),
    ${series.thumbnailUpdatedAt}, ''),
  'none')`;

/** The token sent for a cover source: two 32-bit FNV-1a digests in base 36 (an address part, not a secret). */
export function coverVersion(source: string): string {
  let a = 0x811c9dc5;
  let b = 0x2f5a3c1d;
  for (let index = 0; index < source.length; index++) {
    const code = source.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  return (a >>> 0).toString(36) + (b >>> 0).toString(36);
}
