/** Column helpers shared by every table: UUID text ids and ISO-8601 text timestamps (sortable as text). */
import { sql } from 'drizzle-orm';
import { type AnySQLiteColumn, index, integer, text } from 'drizzle-orm/sqlite-core';

export const id = () => text('id').primaryKey();
export const timestamp = (name: string) => text(name);
export const createdAt = () => text('created_at').notNull();
export const updatedAt = () => text('updated_at').notNull();

/** A required reference whose rows go with the row they point at (a user's sessions, a series' books…). */
export const cascadingReference = (name: string, target: () => AnySQLiteColumn) =>
  text(name).notNull().references(target, { onDelete: 'cascade' });

/**
 * The lock beside an editable metadata column (DECISIONS.md §Organise and share): true once a user (or a
 * Komga client) fixed the value, after which no scan or re-analysis writes that column.
 */
export const lock = (name: string) => integer(name, { mode: 'boolean' }).notNull().default(false);

/**
 * An editable metadata column with its lock beside it: `...lockable('titleSort', text('title_sort'))` is
 * `titleSort` and `titleSortLock` (column `title_sort_lock`).
 */
export function lockable<const K extends string, C>(field: K, column: C) {
  const lockName = `${field.replace(/[A-Z]/g, (upper) => `_${upper.toLowerCase()}`)}_lock`;
  return { [field]: column, [`${field}Lock`]: lock(lockName) } as { [F in K]: C } & {
    [F in `${K}Lock`]: ReturnType<typeof lock>;
  };
}

/**
 * The indexes the catalog lists of series or of books sort by: title, created and updated; and live rows
 * by title case-insensitively (overall and within one library), which serve ORDER BY + LIMIT directly.
 */
export function listOrderIndexes(
  table: 'series' | 'books',
  t: Record<'id' | 'libraryId' | 'titleSort' | 'createdAt' | 'updatedAt', AnySQLiteColumn>,
) {
  const liveByTitle = sql`${t.titleSort} COLLATE NOCASE`;
  return [
    index(`${table}_title_sort_idx`).on(t.titleSort),
    index(`${table}_created_idx`).on(t.createdAt),
    index(`${table}_updated_idx`).on(t.updatedAt),
    index(`${table}_live_title_idx`).on(liveByTitle, t.id).where(sql`deleted_at IS NULL`),
    index(`${table}_live_library_title_idx`).on(t.libraryId, liveByTitle, t.id).where(sql`deleted_at IS NULL`),
  ];
}
