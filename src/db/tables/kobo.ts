/**
 * What each Kobo e-reader was sent (DECISIONS.md §Kobo e-readers). A device is an API key: its rows go with
 * the key, so revoking a key forgets the device. A row records the state of one book or shelf as of the sync
 * page that sent it; the device's sync token names the last page it received (`generation`), so a page the
 * device never got is sent again and nothing it has is sent twice. The migration declares both tables
 * WITHOUT ROWID: a device's rows are one range of the primary key.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { apiKeys } from './api-keys';
import { books } from './books';
import { cascadingReference } from './columns';
import { users } from './users';

/**
 * A book as the device was last told of it. No reference to `books`: when a book is purged, its row stays
 * until the device has been told it is gone.
 */
export const koboDeviceBooks = sqliteTable(
  'kobo_device_books',
  {
    apiKeyId: cascadingReference('api_key_id', () => apiKeys.id),
    bookId: text('book_id').notNull(),
    /**
     * `sent`: the device has (or is being sent) the book; `removed`: it was told the book is gone; `withheld`:
     * the book is in the device's scope but cannot go to a Kobo (a comic with pages no EPUB reader shows), kept
     * so it is not looked at again until it changes.
     */
    state: text('state', { enum: ['sent', 'removed', 'withheld'] }).notNull(),
    /** What was sent: the book's version (src/repositories/kobo-sync.repository.ts bookFingerprint). */
    fingerprint: text('fingerprint').notNull(),
    /** The sync page that wrote the row (milliseconds, increasing per device). */
    generation: integer('generation').notNull(),
    /** `read_progress.updated_at` of the reading state last sent; null: none sent (or the book is unread). */
    progressAt: text('progress_at'),
  },
  (t) => [
    primaryKey({ columns: [t.apiKeyId, t.bookId] }),
    check('kobo_device_books_state', sql`state IN ('sent', 'removed', 'withheld')`),
  ],
);

/** A collection or read list as the device was last told of it: a Kobo shelf (a "tag" in Kobo's protocol). */
export const koboDeviceShelves = sqliteTable(
  'kobo_device_shelves',
  {
    apiKeyId: cascadingReference('api_key_id', () => apiKeys.id),
    /** The collection's or read list's id (the tag's id on the device); no reference, as for books. */
    listId: text('list_id').notNull(),
    state: text('state', { enum: ['sent', 'removed'] }).notNull(),
    /** Name and books as sent (a hash). */
    fingerprint: text('fingerprint').notNull(),
    generation: integer('generation').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.apiKeyId, t.listId] }),
    check('kobo_device_shelves_state', sql`state IN ('sent', 'removed')`),
  ],
);

/**
 * Time spent reading a book, as a device reports it (Kobo's `Statistics.SpentReadingMinutes`, a running total
 * per book on that device), kept for reading statistics. One row per user, book and device; the device is
 * named as progress names it (API.md §2 Device attribution: `api-key:<id>` and the key's name), so the rows
 * outlive a revoked key.
 */
export const readingStatistics = sqliteTable(
  'reading_statistics',
  {
    userId: cascadingReference('user_id', () => users.id),
    bookId: cascadingReference('book_id', () => books.id),
    deviceId: text('device_id').notNull(),
    deviceName: text('device_name').notNull(),
    /** Minutes spent in the book on this device, all sessions together. */
    spentReadingMinutes: integer('spent_reading_minutes').notNull(),
    /** The device's estimate of the time left; null when it sent none. */
    remainingTimeMinutes: integer('remaining_time_minutes'),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.bookId, t.deviceId] }), index('reading_statistics_book_idx').on(t.bookId)],
);
