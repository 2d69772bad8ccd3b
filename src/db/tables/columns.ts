/** Column helpers shared by every table: UUID text ids and ISO-8601 text timestamps (sortable as text). */
import { text } from 'drizzle-orm/sqlite-core';

export const id = () => text('id').primaryKey();
export const timestamp = (name: string) => text(name);
export const createdAt = () => text('created_at').notNull();
export const updatedAt = () => text('updated_at').notNull();
