import { sql } from 'drizzle-orm';
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, id, timestamp, updatedAt } from './columns';

export const users = sqliteTable(
  'users',
  {
    id: id(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['reader', 'maintainer', 'admin'] }).notNull(),
    /** JSON array of permission names granted on top of the role. */
    customPermissions: text('custom_permissions', { mode: 'json' }).$type<string[]>().notNull().default([]),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    emailVerified: integer('email_verified', { mode: 'boolean' }).notNull().default(false),
    /** Sees every library (today's default); otherwise only those in user_library_access. */
    sharedAllLibraries: integer('shared_all_libraries', { mode: 'boolean' }).notNull().default(true),
    /** Komga's age restriction: with ALLOW_ONLY only series rated at most this age, with EXCLUDE none rated this or more. */
    ageRestrictionAge: integer('age_restriction_age'),
    ageRestrictionMode: text('age_restriction_mode', { enum: ['ALLOW_ONLY', 'EXCLUDE'] }),
    /** Bumped on password, role, permission or account changes: cached Basic-auth checks compare it. */
    authVersion: integer('auth_version').notNull().default(1),
    lastLoginAt: timestamp('last_login_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Usernames are unique regardless of case; lookups use the same expression.
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_unique').on(t.email),
  ],
);
