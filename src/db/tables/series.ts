import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { creditsTable, termsTable } from './term-rows';
import { cascadingReference, createdAt, id, listOrderIndexes, lock, lockable, timestamp, updatedAt } from './columns';
import { libraries } from './libraries';
import type { AlternateTitle, CreditedAuthor, WebLinkValue } from './metadata-values';

/** Named by catalog queries (INDEXED BY), see its definition below. */
export const SERIES_LIVE_CATALOG_INDEX = 'series_live_catalog_idx';

/**
 * A series groups the books of one folder (a book directly in the library root is its own series),
 * refined by metadata (ComicInfo Series, EPUB collection). Aggregates are recomputed after each scan
 * batch so lists never aggregate at read time.
 */
export const series = sqliteTable(
  'series',
  {
    id: id(),
    libraryId: cascadingReference('library_id', () => libraries.id),
    /** Folder prefix the series was grouped from (or the book key for a root-level book). */
    path: text('path'),
    /** Grouping key: folder path, or metadata series name when metadata regroups. Unique per library. */
    groupKey: text('group_key').notNull(),
    // Editable metadata, each with its lock. Unlocked, summary, publisher, imprint, year, language,
    // totalBookCount, authors and terms are derived from the live books (DECISIONS.md §Organise and share).
    ...lockable('title', text('title').notNull()),
    ...lockable('titleSort', text('title_sort').notNull()),
    ...lockable('summary', text('summary')),
    ...lockable('publisher', text('publisher')),
    ...lockable('imprint', text('imprint')),
    ...lockable('year', integer('year')),
    ...lockable('language', text('language')),
    ...lockable('status', text('status')),
    ...lockable('readingDirection', text('reading_direction', { enum: ['ltr', 'rtl', 'ttb', 'webtoon'] })),
    /** Books the series has in all, whether or not the library holds them (its books' ComicInfo Count). */
    ...lockable('totalBookCount', integer('total_book_count')),
    /** Ordered credits; `series_authors` indexes them for the author filters. */
    ...lockable('authors', text('authors', { mode: 'json' }).$type<CreditedAuthor[]>().notNull().default([])),
    ...lockable('links', text('links', { mode: 'json' }).$type<WebLinkValue[]>().notNull().default([])),
    ...lockable(
      'alternateTitles',
      text('alternate_titles', { mode: 'json' }).$type<AlternateTitle[]>().notNull().default([]),
    ),
    genresLock: lock('genres_lock'),
    tagsLock: lock('tags_lock'),
    /**
     * Minimum age (docs/DECISIONS.md §Organise and share): the highest of its live books' ratings, unless
     * `age_rating_lock` keeps the value an admin set. Age restrictions test it.
     */
    ...lockable('ageRating', integer('age_rating')),
    /** Set: the series' sharing labels are the ones an admin chose (Komga keeps the flag as sent). */
    sharingLabelsLock: lock('sharing_labels_lock'),
    bookCount: integer('book_count').notNull().default(0),
    pageCount: integer('page_count').notNull().default(0),
    fileSize: integer('file_size').notNull().default(0),
    localMaxChapter: real('local_max_chapter'),
    localMaxVolume: integer('local_max_volume'),
    volumesOwned: integer('volumes_owned'),
    hasCustomCover: integer('has_custom_cover', { mode: 'boolean' }).notNull().default(false),
    selectedCoverSource: text('selected_cover_source').notNull().default('first_book'),
    thumbnailKey: text('thumbnail_key'),
    thumbnailUpdatedAt: timestamp('thumbnail_updated_at'),
    deletedAt: timestamp('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('series_library_group_idx').on(t.libraryId, t.groupKey),
    ...listOrderIndexes('series', t),
    // Age restrictions are sets of series ids by rating (repositories/visibility.ts): a range read of this
    // covering index, never a walk of the table.
    index('series_age_rating_idx').on(t.ageRating, t.id),
    // Live series looked up by id by the thousand — a filtered list's candidates (series with a genre),
    // the series a restricted viewer's total subtracts (visibility.ts visibleCount) — with what the
    // visibility test and the default sort read, so a lookup never reaches the (wide) table row. Queries
    // name it with INDEXED BY (without statistics SQLite prefers the primary-key index plus a row read);
    // deleted_at is a column so the index counts as covering. Partial: a full index led by id makes SQLite
    // scan series instead of looking a page's ids up.
    index(SERIES_LIVE_CATALOG_INDEX)
      .on(t.id, t.libraryId, sql`${t.titleSort} COLLATE NOCASE`, t.deletedAt)
      .where(sql`deleted_at IS NULL`),
  ],
);

/**
 * Genres, tags, characters, teams and locations of a series (filter fields of API.md §4 Advanced filtering):
 * the union of its live books' terms, except a kind whose lock is set (genres and tags are editable).
 */
export const seriesTerms = termsTable('series_terms', {
  key: 'seriesId',
  column: 'series_id',
  references: () => series.id,
});

/** The credits of `series.authors`, one row each (an author filter is an index lookup). */
export const seriesAuthors = creditsTable('series_authors', {
  key: 'seriesId',
  column: 'series_id',
  references: () => series.id,
});
