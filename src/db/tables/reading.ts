import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { books } from './books';
import { cascadingReference, id } from './columns';
import { series } from './series';
import { users } from './users';

/** A user's progress in a book (API.md §2 ReadProgress), with the device that last moved it. */
export const readProgress = sqliteTable(
  'read_progress',
  {
    id: id(),
    userId: cascadingReference('user_id', () => users.id),
    bookId: cascadingReference('book_id', () => books.id),
    currentPage: integer('current_page').notNull(),
    completed: integer('completed', { mode: 'boolean' }).notNull().default(false),
    completedAt: text('completed_at'),
    /** EPUB: the reflowable position as sent by the reader; other formats derive it from pages. */
    progressPercentage: real('progress_percentage'),
    /** Where in the book, for ebooks: an EPUB CFI or a KOReader xpointer, stored as sent (DECISIONS.md §Reader apps). */
    locator: text('locator'),
    /** API key name, else a hash of the user agent (API.md §2 Device attribution). */
    deviceId: text('device_id'),
    deviceName: text('device_name'),
    /**
     * The device as the reader app that wrote the progress named itself (KOReader's `device_id`/`device`, a
     * Readium progression's `device`), returned to it unchanged: KOReader recognises its own progress by
     * them (DECISIONS.md §Reader apps). NULL when the last write came from elsewhere (the API, the web app).
     */
    readerDeviceId: text('reader_device_id'),
    readerDeviceName: text('reader_device_name'),
    startedAt: text('started_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('read_progress_user_book_unique').on(t.userId, t.bookId),
    // A user's progress newest first (GET /progress, in progress, recently read), and, being covering, the
    // per-user book lists of readStatus filters and on-deck without reading the rows.
    index('read_progress_user_updated_idx').on(t.userId, t.updatedAt, t.completed, t.bookId),
    index('read_progress_book_idx').on(t.bookId),
  ],
);

/**
 * A user's progress in a series, counted over its live books (Komga's READ_PROGRESS_SERIES): how many they
 * completed and how many they started. The read-state filters test these instead of grouping the user's
 * progress rows by series on every request (docs/ARCHITECTURE.md §Series read state); a series is read when
 * `readCount` equals its `book_count`. A row exists only while the user has progress on a live book of the
 * series. Written in the same batch as every change it depends on (series-read-progress.ts); the migration
 * declares it WITHOUT ROWID, so the primary key is the table and the counts are read with it.
 */
export const seriesReadProgress = sqliteTable(
  'series_read_progress',
  {
    userId: cascadingReference('user_id', () => users.id),
    seriesId: cascadingReference('series_id', () => series.id),
    readCount: integer('read_count').notNull(),
    inProgressCount: integer('in_progress_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.seriesId] }), index('series_read_progress_series_idx').on(t.seriesId)],
);

/**
 * What a user queued to read (docs/DECISIONS.md §Organise and share): a series or a book, never both, in the
 * user's own order (`position`, then when it was added). A series is queued as itself: its books are not.
 */
export const wantToRead = sqliteTable(
  'want_to_read',
  {
    userId: cascadingReference('user_id', () => users.id),
    bookId: text('book_id').references(() => books.id, { onDelete: 'cascade' }),
    seriesId: text('series_id').references(() => series.id, { onDelete: 'cascade' }),
    /** The column kept its first name: rows queued before series could be are kept as they were. */
    addedAt: text('created_at').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    uniqueIndex('want_to_read_user_book_unique').on(t.userId, t.bookId).where(sql`book_id IS NOT NULL`),
    uniqueIndex('want_to_read_user_series_unique').on(t.userId, t.seriesId).where(sql`series_id IS NOT NULL`),
    // The user's queue in order: the want-to-read list's page walks it.
    index('want_to_read_user_order_idx').on(t.userId, t.position, t.addedAt),
    check('want_to_read_series_xor_book', sql`(book_id IS NULL) <> (series_id IS NULL)`),
  ],
);
