import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { cascadingReference, createdAt, id, timestamp, updatedAt } from './columns';
import { libraries } from './libraries';

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
    title: text('title').notNull(),
    titleSort: text('title_sort').notNull(),
    summary: text('summary'),
    publisher: text('publisher'),
    year: integer('year'),
    language: text('language'),
    status: text('status'),
    readingDirection: text('reading_direction', { enum: ['ltr', 'rtl', 'ttb', 'webtoon'] }),
    /**
     * Minimum age (docs/DECISIONS.md §Organise and share): the highest of its live books' ratings, unless
     * `age_rating_lock` keeps the value an admin set. Age restrictions test it.
     */
    ageRating: integer('age_rating'),
    ageRatingLock: integer('age_rating_lock', { mode: 'boolean' }).notNull().default(false),
    /** Set: the series' sharing labels are the ones an admin chose (Komga keeps the flag as sent). */
    sharingLabelsLock: integer('sharing_labels_lock', { mode: 'boolean' }).notNull().default(false),
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
    index('series_title_sort_idx').on(t.titleSort),
    index('series_created_idx').on(t.createdAt),
    index('series_updated_idx').on(t.updatedAt),
    // Lists sort by name case-insensitively and only show live rows: these serve ORDER BY + LIMIT directly.
    index('series_live_title_idx').on(sql`${t.titleSort} COLLATE NOCASE`, t.id).where(sql`deleted_at IS NULL`),
    index('series_live_library_title_idx')
      .on(t.libraryId, sql`${t.titleSort} COLLATE NOCASE`, t.id)
      .where(sql`deleted_at IS NULL`),
    // Age restrictions are sets of series ids by rating (repositories/visibility.ts): a range read of this
    // covering index, never a walk of the table.
    index('series_age_rating_idx').on(t.ageRating, t.id),
  ],
);

/** Genres and tags of a series (filter fields of API.md §4 Advanced filtering). */
export const seriesTerms = sqliteTable(
  'series_terms',
  {
    seriesId: cascadingReference('series_id', () => series.id),
    kind: text('kind', { enum: ['genre', 'tag'] }).notNull(),
    value: text('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.seriesId, t.kind, t.value] }),
    // Filters compare terms with `= ? COLLATE NOCASE`, which only a NOCASE index can serve; series_id
    // makes the list of matching series an index-only read.
    index('series_terms_value_nocase_idx').on(t.kind, sql`${t.value} COLLATE NOCASE`, t.seriesId),
  ],
);

/** Release tracking (API.md §2 Series tracked/upstream*Gap); absent row = untracked. */
export const seriesTracking = sqliteTable('series_tracking', {
  seriesId: text('series_id')
    .primaryKey()
    .references(() => series.id, { onDelete: 'cascade' }),
  chapterTracking: integer('chapter_tracking', { mode: 'boolean' }).notNull().default(true),
  volumeTracking: integer('volume_tracking', { mode: 'boolean' }).notNull().default(true),
  providerName: text('provider_name'),
  providerChapterCount: real('provider_chapter_count'),
  providerVolumeCount: integer('provider_volume_count'),
  updatedAt: updatedAt(),
});
