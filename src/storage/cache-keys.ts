/**
 * Where Longbox keeps what it makes in the CACHE bucket. Every key names the book it belongs to right after
 * its root, which is how a book's images are removed with it and how the hourly sweep finds orphans
 * (cached-images.ts).
 */

/** Book thumbnails: the rest of the key is the book's id. */
export const BOOK_THUMBNAILS_ROOT = 'thumbnails/books/';
export const bookThumbnailKey = (bookId: string) => `${BOOK_THUMBNAILS_ROOT}${bookId}`;

/** Page renditions; the next path segment is the book's id. */
export const RENDITIONS_ROOT = 'pages/';
/** Every rendition of every version of a book's file lives under this prefix. */
export const bookRenditionsPrefix = (bookId: string) => `${RENDITIONS_ROOT}${bookId}/`;
/** The renditions made from one version (R2 etag) of the book's file. */
export const versionRenditionsPrefix = (bookId: string, bookEtag: string) =>
  `${bookRenditionsPrefix(bookId)}${bookEtag}/`;
