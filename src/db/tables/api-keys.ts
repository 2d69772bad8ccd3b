import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { cascadingReference, createdAt, id, timestamp } from './columns';
import { users } from './users';

export const API_KEY_FORMATS = ['longbox', 'komga'] as const;
export type ApiKeyFormat = (typeof API_KEY_FORMATS)[number];

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: id(),
    userId: cascadingReference('user_id', () => users.id),
    name: text('name').notNull(),
    /**
     * `longbox`: a key of API.md's format. `komga`: a key imported from Komga (docs/DECISIONS.md §Imported
     * credentials), which only `/komga` (and KOReader sync) accept, in Komga's own format.
     */
    format: text('format', { enum: API_KEY_FORMATS }).notNull().default('longbox'),
    /**
     * The lookup part, stored plain: the 8 characters of `lbx_<prefix>_<secret>`; for a Komga key, the
     * SHA-512 of the whole key (hex), as Komga stores it, which is what such a key is found by.
     */
    prefix: text('prefix').notNull(),
    /** HMAC-SHA-256 of the secret under the server secret, hex (a Komga key: its SHA-512 again). */
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
