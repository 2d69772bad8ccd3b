import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { books } from './books';
import { cascadingReference, id } from './columns';
import { users } from './users';

/** Named by the server's statistics (INDEXED BY: reading-stats.repository.ts `forServer`). */
export const READING_SESSIONS_USER_STARTED_INDEX = 'reading_sessions_user_started_idx';

/**
 * A sitting: one person reading one book on one device (docs/DECISIONS.md §Reading statistics). Progress
 * writes of a device fold into its open sitting (`reading-sessions.repository.ts` `foldStatement`): writes
 * within the merge window extend it, and the time between them is *inferred*; clients that time themselves
 * (the web readers, POST /reading-sessions, KOReader's statistics database) bring *measured* time, which takes
 * the place of what was inferred for the same sitting. Both are kept apart, so the statistics can say how much
 * of a total is an estimate.
 */
export const readingSessions = sqliteTable(
  'reading_sessions',
  {
    id: id(),
    userId: cascadingReference('user_id', () => users.id),
    bookId: cascadingReference('book_id', () => books.id),
    /** `api-key:<id>`, `ua:<hash>`, `koreader:<device id>` or `client:<id>` (src/reading/devices.ts). */
    deviceId: text('device_id').notNull(),
    /** The device's name when it last wrote (a rename lives in reading_device_names). */
    deviceName: text('device_name').notNull(),
    startedAt: text('started_at').notNull(),
    endedAt: text('ended_at').notNull(),
    /** Time a client measured; null when none did. */
    measuredMs: integer('measured_ms'),
    /** Time inferred from the gaps between progress writes; null when nothing was inferred. */
    inferredMs: integer('inferred_ms'),
    /** Pages turned: counted by the client, or forward moves of the progress; null when unknown. */
    pagesRead: integer('pages_read'),
    /** The page of the last progress write folded in (where the next write's forward move starts). */
    lastPage: integer('last_page'),
    /** The book was completed during the sitting. */
    finished: integer('finished', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    // A reader's sittings in a window (GET /reading-stats, export; the server's, user by user). Every column the
    // statistics read is here, so a year of a heavy reader is read from the index alone, never from the table rows.
    index(READING_SESSIONS_USER_STARTED_INDEX).on(
      t.userId,
      t.startedAt,
      t.bookId,
      t.deviceId,
      t.deviceName,
      t.endedAt,
      t.measuredMs,
      t.inferredMs,
      t.pagesRead,
      t.finished,
    ),
    // The sitting a write extends, or a measured session takes the place of: a user's sittings of a book by end.
    // With the start, it also tells whether a book was read before a window (the statistics' books started)
    // without a row read.
    index('reading_sessions_user_book_ended_idx').on(t.userId, t.bookId, t.endedAt, t.startedAt),
    // The hourly retention prune (oldest first).
    index('reading_sessions_started_idx').on(t.startedAt),
  ],
);

/**
 * The client ids of measured sessions a user sent (POST /reading-sessions, KOReader statistics uploads), and
 * the sitting each went into: sending a batch again changes nothing (DECISIONS.md §Reading statistics). The
 * `batch_id` marks the receipts of the batch being written, so the batch's statements find what is new in SQL.
 */
export const readingSessionReceipts = sqliteTable(
  'reading_session_receipts',
  {
    userId: cascadingReference('user_id', () => users.id),
    clientId: text('client_id').notNull(),
    sessionId: text('session_id').notNull(),
    batchId: text('batch_id').notNull(),
    receivedAt: text('received_at').notNull(),
    /** The batch that last wrote this receipt brought the session again to replace it (KOReader re-uploads). */
    replaced: integer('replaced', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.clientId] }),
    index('reading_session_receipts_batch_idx').on(t.batchId),
    index('reading_session_receipts_received_idx').on(t.receivedAt),
  ],
);

/** The names a user gave their reading devices (the statistics' device list); a device without one keeps its own. */
export const readingDeviceNames = sqliteTable(
  'reading_device_names',
  {
    userId: cascadingReference('user_id', () => users.id),
    deviceId: text('device_id').notNull(),
    name: text('name').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] })],
);
