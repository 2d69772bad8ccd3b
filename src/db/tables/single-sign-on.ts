import { index, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { cascadingReference, createdAt, id, timestamp } from './columns';
import { users } from './users';

/**
 * An identity at a single-sign-on provider linked to a Longbox account (docs/DECISIONS.md §Single sign-on): one of the
 * configured OIDC providers by its name, or `cloudflare-access`. A provider's subject is linked to at most
 * one account, and an account to at most one subject of each provider, so a second identity claiming the
 * same e-mail address cannot take over an account that is already linked.
 */
export const oidcIdentities = sqliteTable(
  'oidc_identities',
  {
    id: id(),
    userId: cascadingReference('user_id', () => users.id),
    provider: text('provider').notNull(),
    /** The provider's `sub` claim: stable for the person at that provider, unlike the e-mail address. */
    subject: text('subject').notNull(),
    /** The address the provider vouched for at the last sign-in. */
    email: text('email'),
    /** The groups claim seen at the last sign-in (what the role mapping was applied to). */
    groups: text('groups', { mode: 'json' }).$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at'),
  },
  (t) => [
    uniqueIndex('oidc_identities_subject_unique').on(t.provider, t.subject),
    uniqueIndex('oidc_identities_user_provider_unique').on(t.userId, t.provider),
  ],
);

/**
 * An OIDC sign-in between `POST /auth/oidc/{provider}/login` and its callback: the PKCE verifier, the nonce
 * and where to go afterwards, found by the `state` the provider echoes back. Used once (deleted as it is
 * read) and refused after five minutes.
 */
export const oidcPendingLogins = sqliteTable(
  'oidc_pending_logins',
  {
    state: text('state').primaryKey(),
    provider: text('provider').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    /** SHA-256 of the value in the browser's login cookie: the callback must come from the same browser. */
    browserBindingHash: text('browser_binding_hash').notNull(),
    /** The callback URL registered at the provider, exactly as sent in the authorization request. */
    redirectUri: text('redirect_uri').notNull(),
    /** Where the browser goes after signing in: a path on this server. */
    returnTo: text('return_to').notNull(),
    expiresAt: text('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('oidc_pending_logins_expires_idx').on(t.expiresAt)],
);
