import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { cascadingReference, createdAt, id } from './columns';
import { users } from './users';

/** Failed-login counters per username and per client address (fixed window). */
export const loginAttempts = sqliteTable('login_attempts', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: text('window_started_at').notNull(),
});

export const emailVerificationTokens = sqliteTable(
  'email_verification_tokens',
  {
    /** SHA-256 of the token sent by mail; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: cascadingReference('user_id', () => users.id),
    expiresAt: text('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('email_verification_tokens_user_idx').on(t.userId)],
);

/** Mail that would have been sent; the fallback when no mail sender is configured. */
export const emailOutbox = sqliteTable('email_outbox', {
  id: id(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
});
