import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { creditsTable, termsTable } from './term-rows';
import { cascadingReference, createdAt, id, listOrderIndexes, lock, lockable, timestamp, updatedAt } from './columns';
import type { CreditedAuthor, TermKind, WebLinkValue } from './metadata-values';
import { libraries } from './libraries';
import { series } from './series';

/**
 * What the book's file states for each editable field, as the last analysis read it (the values a scan
 * writes into unlocked columns). Kept so that unlocking a field puts the file's value back at once,
 * without reading the file again (DECISIONS.md §Organise and share).
 */
export interface BookFileMetadata {
  title: string;
  titleSort: string;
  summary: string | null;
  number: number | null;
  numberSort: number | null;
  volume: number | null;
  chapter: number | null;
  year: number | null;
  month: number | null;
  day: number | null;
  publisher: string | null;
  imprint: string | null;
  language: string | null;
  authors: CreditedAuthor[];
  isbn: string | null;
  format: string | null;
  count: number | null;
  links: WebLinkValue[];
  terms: Record<TermKind, string[]>;
}

/** Named by catalog queries (INDEXED BY), see its definition below. */
export const BOOKS_LIVE_CATALOG_INDEX = 'books_live_catalog_idx';
export const BOOKS_INCOMPLETE_INDEX = 'books_incomplete_idx';
export const BOOKS_READING_STATS_INDEX = 'books_reading_stats_idx';

/** One book file (an R2 object) and what analysis learned from it (API.md §2 Book). */
export const books = sqliteTable(
  'books',
  {
    id: id(),
    libraryId: cascadingReference('library_id', () => libraries.id),
    seriesId: cascadingReference('series_id', () => series.id),
    /** Full object key in the LIBRARY bucket. */
    path: text('path').notNull(),
    fileName: text('file_name').notNull(),
    fileFormat: text('file_format', { enum: ['cbz', 'cbr', 'epub', 'pdf'] }).notNull(),
    fileSize: integer('file_size').notNull(),
    /** R2 etag and upload time: a normal scan re-analyses only when one changed. */
    etag: text('etag').notNull(),
    fileModifiedAt: text('file_modified_at').notNull(),
    /** SHA-256 of the whole file (computed by a background task; '' until then). */
    fileHash: text('file_hash').notNull().default(''),
    readerHash: text('reader_hash'),
    ...lockable('title', text('title').notNull()),
    ...lockable('titleSort', text('title_sort').notNull()),
    ...lockable('summary', text('summary')),
    ...lockable('number', integer('number')),
    /** The exact, possibly fractional, number (2.5 stays 2.5); `number` is its integer part (API.md §2). */
    ...lockable('numberSort', real('number_sort')),
    /** Natural-order sort key of the file name within its series. */
    sortKey: text('sort_key').notNull(),
    ...lockable('volume', integer('volume')),
    ...lockable('chapter', real('chapter')),
    ...lockable('publisher', text('publisher')),
    ...lockable('imprint', text('imprint')),
    ...lockable('year', integer('year')),
    ...lockable('month', integer('month')),
    ...lockable('day', integer('day')),
    /** Minimum age from ComicInfo AgeRating (docs/DECISIONS.md §Organise and share); null: no rating. */
    ageRating: integer('age_rating'),
    /** Ordered credits; `book_authors` indexes them for the author filters. */
    ...lockable('authors', text('authors', { mode: 'json' }).$type<CreditedAuthor[]>().notNull().default([])),
    ...lockable('language', text('language')),
    ...lockable('isbn', text('isbn')),
    ...lockable('format', text('format')),
    /** Books the series has in all, as this book's metadata states it (ComicInfo Count). */
    ...lockable('count', integer('count')),
    ...lockable('links', text('links', { mode: 'json' }).$type<WebLinkValue[]>().notNull().default([])),
    /** Locks of the multi-valued fields, whose values are rows of `book_terms`. */
    genresLock: lock('genres_lock'),
    tagsLock: lock('tags_lock'),
    charactersLock: lock('characters_lock'),
    teamsLock: lock('teams_lock'),
    locationsLock: lock('locations_lock'),
    /** What the file itself states (see BookFileMetadata); null for books analysed before it was kept. */
    fileMetadata: text('file_metadata', { mode: 'json' }).$type<BookFileMetadata>(),
    /** Direction from the book's own metadata (ComicInfo Manga); the series value wins when set. */
    readingDirection: text('reading_direction', { enum: ['ltr', 'rtl', 'ttb', 'webtoon'] }),
    pageCount: integer('page_count').notNull().default(0),
    /** EPUB: fixed-layout/image-only books have image pages; reflowable ones count Readium positions. */
    epubLayout: text('epub_layout', { enum: ['image', 'reflowable'] }),
    analyzed: integer('analyzed', { mode: 'boolean' }).notNull().default(false),
    analysisError: text('analysis_error'),
    /** Format-specific index that lets pages be served without re-reading the archive directory. */
    containerIndex: text('container_index', { mode: 'json' }),
    /** EPUB: resources, spine and TOC as the Readium endpoints serve them (src/media/epub/readium-index.ts). */
    readiumIndex: text('readium_index', { mode: 'json' }),
    /** Where the cover image is, when it is not page 1 (EPUB cover-image, reflowable EPUBs). */
    coverLocator: text('cover_locator', { mode: 'json' }),
    thumbnailKey: text('thumbnail_key'),
    thumbnailUpdatedAt: timestamp('thumbnail_updated_at'),
    /** Why no thumbnail could be made (no image, the renderer gave up): the book is complete without one. */
    thumbnailError: text('thumbnail_error'),
    /** When the book's last queue message was sent (issue 11); the cron re-queues books whose work got lost. */
    workQueuedAt: timestamp('work_queued_at'),
    deletedAt: timestamp('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('books_library_path_unique').on(t.libraryId, t.path),
    index('books_series_sort_idx').on(t.seriesId, t.sortKey),
    ...listOrderIndexes('books', t),
    index('books_file_hash_idx').on(t.fileHash),
    // KOReader sync finds a book by its document hash (DECISIONS.md §Reader apps).
    index('books_reader_hash_idx').on(t.readerHash),
    // A migration from another server matches a book by its file's size and name when neither its path nor
    // its KOReader hash found it (docs/DECISIONS.md §Coming from Komga or Kavita).
    index('books_file_size_name_idx').on(t.fileSize, t.fileName),
    // Filtered lists, full-text results and on-deck look live books up by id by the thousand: every column
    // their conditions and the default sort read is here, so a lookup never reaches the (wide) table row.
    // Queries name it with INDEXED BY: without statistics SQLite prefers the primary-key index plus a row
    // read. deleted_at is a column too (always NULL here) so the partial index counts as covering.
    index(BOOKS_LIVE_CATALOG_INDEX)
      .on(t.id, t.libraryId, t.seriesId, t.title, sql`${t.titleSort} COLLATE NOCASE`, t.deletedAt)
      .where(sql`deleted_at IS NULL`),
    // A series' live books in reading order (number, books without one last, then file name): on-deck
    // stops at the first unread one instead of sorting the series. deleted_at (always NULL here) makes it
    // covering for counts of the books of some series (a restricted viewer's total, visibility.ts).
    index('books_live_reading_order_idx')
      .on(t.seriesId, sql`${t.numberSort} IS NULL`, t.numberSort, t.sortKey, t.id, t.deletedAt)
      .where(sql`deleted_at IS NULL`),
    // The reading statistics look up each book a reader read in a window (a heavy reader's year: tens of
    // thousands), in id order, for what they test and group by: visibility (library, series), series, format and
    // credits. Covering, so no lookup reads the wide table row; named with INDEXED BY for the reason above.
    index(BOOKS_READING_STATS_INDEX).on(t.id, t.seriesId, t.libraryId, t.fileFormat, t.authors),
    // Books whose queued work (details, thumbnail) is not done: progress counts and the cron re-queue.
    index(BOOKS_INCOMPLETE_INDEX)
      .on(t.libraryId, t.workQueuedAt)
      .where(
        sql`deleted_at IS NULL AND analysis_error IS NULL AND (file_hash = '' OR analyzed = 0 OR (thumbnail_key IS NULL AND thumbnail_error IS NULL))`,
      ),
  ],
);

/** Pages of a book in reading order (1-indexed), with what serving one needs. */
export const bookPages = sqliteTable(
  'book_pages',
  {
    bookId: cascadingReference('book_id', () => books.id),
    number: integer('number').notNull(),
    fileName: text('file_name').notNull(),
    mediaType: text('media_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    size: integer('size').notNull(),
    /** Where the bytes are: zip/rar entry offsets, PDF image object, EPUB item (format-specific JSON). */
    locator: text('locator', { mode: 'json' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bookId, t.number] })],
);

/** Genres, tags, characters, teams and locations of a book (ComicInfo, EPUB subjects). */
export const bookTerms = termsTable('book_terms', { key: 'bookId', column: 'book_id', references: () => books.id });

/**
 * The credits of `books.authors`, one row each, so that an author filter is an index lookup (rebuilt from
 * the JSON column in the batch that writes it).
 */
export const bookAuthors = creditsTable('book_authors', {
  key: 'bookId',
  column: 'book_id',
  references: () => books.id,
});
