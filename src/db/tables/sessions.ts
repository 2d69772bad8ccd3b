import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { cascadingReference, createdAt, id } from './columns';
import { users } from './users';

/** A login session; the session token's `sid` names a row here, and logout deletes it. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: id(),
    userId: cascadingReference('user_id', () => users.id),
    userAgent: text('user_agent'),
    clientAddress: text('client_address'),
    createdAt: createdAt(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);
