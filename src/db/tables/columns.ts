/** Column helpers shared by every table: UUID text ids and ISO-8601 text timestamps (sortable as text). */
import { type AnySQLiteColumn, text } from 'drizzle-orm/sqlite-core';

export const id = () => text('id').primaryKey();
export const timestamp = (name: string) => text(name);
export const createdAt = () => text('created_at').notNull();
export const updatedAt = () => text('updated_at').notNull();

/** A required reference whose rows go with the row they point at (a user's sessions, a series' books…). */
export const cascadingReference = (name: string, target: () => AnySQLiteColumn) =>
  text(name).notNull().references(target, { onDelete: 'cascade' });
