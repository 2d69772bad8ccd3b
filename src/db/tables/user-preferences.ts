import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { cascadingReference } from './columns';
import { users } from './users';

export const userPreferences = sqliteTable(
  'user_preferences',
  {
    userId: cascadingReference('user_id', () => users.id),
    key: text('key').notNull(),
    value: text('value', { mode: 'json' }).notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
