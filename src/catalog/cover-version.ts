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
 * farpaths' `versionOf`), so both agree on when a cover is new. The SQL that reads a cover's source is
 * repositories/cover-source.ts.
 */
/**
 * Book thumbnails' keys in the CACHE bucket: this root, then the book's id. Defined here, on the floor of the
 * repositories, because a series' cover source recognises a book's thumbnail by it in SQL; storage/cache-keys
 * builds every key from it.
 */
export const BOOK_THUMBNAILS_ROOT = 'thumbnails/books/';

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
