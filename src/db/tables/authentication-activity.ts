import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id } from './columns';
import { users } from './users';

/**
 * Sign-ins and failed sign-ins (Komga's authentication activity; docs/DECISIONS.md §Auth, "Authentication
 * activity"): a row per password login, single sign-on, HTTP Basic check and API-key use, kept 30 days and at
 * most `ACTIVITY_ROW_LIMIT` rows (services/authentication-activity.service.ts).
 */
export const authenticationActivity = sqliteTable(
  'authentication_activity',
  {
    id: id(),
    /** The account signed in (or whose name or key was tried); null for a name no account has. */
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The account's e-mail address, or the name typed when it is unknown. */
    email: text('email'),
    /** The API key used (no reference: a deleted key's uses stay listed). */
    apiKeyId: text('api_key_id'),
    apiKeyName: text('api_key_name'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    success: integer('success', { mode: 'boolean' }).notNull(),
    error: text('error'),
    /** Password, Basic, ApiKey, OAuth2:<provider>, CloudflareAccess. */
    source: text('source').notNull(),
    dateTime: text('date_time').notNull(),
  },
  (t) => [
    index('authentication_activity_user_idx').on(t.userId, t.dateTime),
    index('authentication_activity_date_idx').on(t.dateTime),
  ],
);
