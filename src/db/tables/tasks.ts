import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, id, timestamp } from './columns';

export const TASK_TYPES = [
  'scan_library',
  'analyze_book',
  'analyze_series',
  'generate_thumbnails',
  'find_duplicates',
  'purge_deleted',
  'hash_files',
] as const;
export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;

/** Background work (DECISIONS.md §Tasks): one row per task, deduplicated by `uniqueKey` while pending. */
export const tasks = sqliteTable(
  'tasks',
  {
    id: id(),
    type: text('type', { enum: TASK_TYPES }).notNull(),
    status: text('status', { enum: TASK_STATUSES }).notNull(),
    /** Stable dedupe key, e.g. `scan_library:<libraryId>`: one pending task per key (src/tasks/task-queue.ts). */
    uniqueKey: text('unique_key').notNull(),
    libraryId: text('library_id'),
    targetId: text('target_id'),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default({}),
    priority: integer('priority').notNull().default(0),
    progressCurrent: integer('progress_current').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    progressMessage: text('progress_message').notNull().default(''),
    result: text('result', { mode: 'json' }).$type<Record<string, unknown>>(),
    error: text('error'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at'),
    completedAt: timestamp('completed_at'),
  },
  (t) => [
    index('tasks_status_created_idx').on(t.status, t.createdAt),
    index('tasks_unique_key_idx').on(t.uniqueKey, t.status),
    index('tasks_created_idx').on(t.createdAt),
  ],
);

/** Groups of books with the same fileHash (API.md §4 Duplicates). Dismissed groups stay dismissed. */
export const duplicateGroups = sqliteTable('duplicate_groups', {
  id: id(),
  fileHash: text('file_hash').notNull().unique(),
  bookIds: text('book_ids', { mode: 'json' }).$type<string[]>().notNull(),
  fileSize: integer('file_size').notNull(),
  dismissedAt: timestamp('dismissed_at'),
  createdAt: createdAt(),
  updatedAt: text('updated_at').notNull(),
});
