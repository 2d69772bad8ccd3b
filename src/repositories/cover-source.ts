/**
 * What a book's or series' cover is now, as SQL over the row of the query: the source whose digest is the
 * `coverVersion` of Book and Series responses (catalog/cover-version.ts, issue 31 point 6).
 */
import { sql } from 'drizzle-orm';
import { books, covers, series } from '../db/schema';
import { BOOK_THUMBNAILS_ROOT } from '../catalog/cover-version';

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
