import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { books } from './books';
import { cascadingReference, id } from './columns';
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

/** Books a user queued to read (API.md §2 Book.wantToRead). */
export const wantToRead = sqliteTable(
  'want_to_read',
  {
    userId: cascadingReference('user_id', () => users.id),
    bookId: cascadingReference('book_id', () => books.id),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.bookId] })],
);
