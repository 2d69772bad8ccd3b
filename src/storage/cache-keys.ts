/**
 * Where Longbox keeps what it makes in the CACHE bucket. Every key names the book it belongs to right after
 * its root, which is how a book's images are removed with it and how the hourly sweep finds orphans
 * (cached-images.ts).
 */

/** Book thumbnails: the rest of the key is the book's id (the root is the cover versions', which read it in SQL). */
import { BOOK_THUMBNAILS_ROOT } from '../catalog/cover-version';

export { BOOK_THUMBNAILS_ROOT };
export const bookThumbnailKey = (bookId: string) => `${BOOK_THUMBNAILS_ROOT}${bookId}`;

/** Page renditions; the next path segment is the book's id. */
export const RENDITIONS_ROOT = 'pages/';
/** Every rendition of every version of a book's file lives under this prefix. */
export const bookRenditionsPrefix = (bookId: string) => `${RENDITIONS_ROOT}${bookId}/`;
/** The renditions made from one version (R2 etag) of the book's file. */
export const versionRenditionsPrefix = (bookId: string, bookEtag: string) =>
  `${bookRenditionsPrefix(bookId)}${bookEtag}/`;
/**
 * A book's cover drawn within a box (a Kobo's library grid and full-screen sizes), made from the cover version
 * named by its ETag; under the book's renditions, so it goes with the book.
 */
export const sizedCoverKey = (bookId: string, coverEtag: string, width: number, height: number) =>
  `${bookRenditionsPrefix(bookId)}covers/${coverEtag.replace(/[^A-Za-z0-9-]/g, '')}/${width}x${height}`;

/**
 * Uploaded covers (issue 18): the image as uploaded and the thumbnail made from it, under the cover's id.
 * Not a book-keyed prefix, so the orphan sweep of book images leaves them alone; a cover's images go
 * with its row (CoversService#remove).
 */
export const COVERS_ROOT = 'covers/';
export const coverOriginalKey = (coverId: string) => `${COVERS_ROOT}${coverId}/original`;
export const coverThumbnailKey = (coverId: string) => `${COVERS_ROOT}${coverId}/thumbnail`;
