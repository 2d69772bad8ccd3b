import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { cascadingReference, createdAt, id, timestamp } from './columns';
import { users } from './users';

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: id(),
    userId: cascadingReference('user_id', () => users.id),
    name: text('name').notNull(),
    /** The 8-character lookup part of `lbx_<prefix>_<secret>`, stored plain. */
    prefix: text('prefix').notNull(),
    /** HMAC-SHA-256 of the secret under the server secret, hex. */
    secretHash: text('secret_hash').notNull(),
    permissions: text('permissions', { mode: 'json' }).$type<string[]>().notNull(),
    /**
     * Whether the key reaches every library its owner sees; when false, only those in api_key_libraries
     * (fixed at creation, and always within the owner's). A key narrowed to libraries that were all
     * deleted sees none: it never falls back to everything.
     */
    allLibraries: integer('all_libraries', { mode: 'boolean' }).notNull().default(true),
    expiresAt: timestamp('expires_at'),
    lastUsedAt: timestamp('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_keys_prefix_unique').on(t.prefix), index('api_keys_user_idx').on(t.userId)],
);
