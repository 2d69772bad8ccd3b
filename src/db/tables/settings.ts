import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id } from './columns';

/** Admin settings that differ from their defaults; a missing row means "default". */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).notNull(),
  updatedAt: text('updated_at').notNull(),
  updatedBy: text('updated_by'),
});

export const settingHistory = sqliteTable(
  'setting_history',
  {
    id: id(),
    key: text('key').notNull(),
    oldValue: text('old_value', { mode: 'json' }),
    newValue: text('new_value', { mode: 'json' }),
    changedBy: text('changed_by'),
    changeReason: text('change_reason'),
    changedAt: text('changed_at').notNull(),
  },
  (t) => [index('setting_history_key_idx').on(t.key, t.changedAt)],
);

/** Server-generated secrets (used when LONGBOX_AUTH__SECRET is not configured). */
export const serverSecrets = sqliteTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: text('created_at').notNull(),
});
