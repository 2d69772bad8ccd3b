/**
 * Users, with their e-mail verification tokens and the cascade a user deletion needs (sessions, sign-in activity,
 * keys and what Kobos synced with them, preferences, progress, reading statistics, their own lists).
 */
import { and, asc, count, desc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import { type Database, preparedPerDatabase } from '../db/client';
import {
  apiKeyLibraries,
  apiKeys,
  authenticationActivity,
  collectionSeries,
  collections,
  emailVerificationTokens,
  koboDeviceBooks,
  koboDeviceShelves,
  oidcIdentities,
  readingDeviceNames,
  readingSessionReceipts,
  readingSessions,
  readingStatistics,
  readListBooks,
  readLists,
  readProgress,
  sessions,
  userLibraryAccess,
  userPreferences,
  userSharingLabels,
  users,
  wantToRead,
} from '../db/schema';
import {
  type AccessWrite,
  accessWrites,
  type GrantedColumns,
  grantsOf,
  userGrantColumns,
} from './user-access.repository';
import { forgetUserSeriesProgress } from './series-read-progress';

export type UserRecord = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type VerificationTokenRecord = typeof emailVerificationTokens.$inferSelect;

const userById = preparedPerDatabase((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare(),
);

/** Run by every Basic request whose check is cached: the user and their grants. */
const userWithGrantsById = preparedPerDatabase((db) =>
  db
    .select({ user: users, ...userGrantColumns })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare(),
);

/**
 * The statement behind `getForSignIn`, not yet run, for a sign-in that reads the account in the same round
 * trip as it counts the attempt (sign-in.repository.ts); `signInUserOf` reads its rows.
 */
export function signInQuery(db: Database, name: string, orEmail: boolean) {
  const byName = sql`lower(${users.username}) = ${name.toLowerCase()}`;
  const byEmail = eq(users.email, name.toLowerCase());
  return (
    db
      .select({ user: users, ...userGrantColumns })
      .from(users)
      .where(orEmail ? or(byEmail, byName) : byName)
      // An account whose e-mail address it is wins over one whose username happens to be the same text.
      .orderBy(sql`${orEmail ? byEmail : byName} DESC`)
      .limit(1)
  );
}

export function signInUserOf(rows: Array<{ user: UserRecord } & GrantedColumns>) {
  const row = rows[0];
  return row && { user: row.user, grants: grantsOf(row) };
}

/** The username of the account a sign-in names (as `signInQuery` finds it), as an SQL expression. */
export function signInUsername(name: string, orEmail: boolean) {
  const byName = sql`lower(username) = ${name.toLowerCase()}`;
  const byEmail = sql`email = ${name.toLowerCase()}`;
  return sql<string | null>`(SELECT username FROM ${users} WHERE ${orEmail ? sql`${byEmail} OR ${byName}` : byName}
    ORDER BY (${orEmail ? byEmail : byName}) DESC LIMIT 1)`;
}

/** The statement recording a sign-in's time on the account. */
export const touchLastLoginStatement = (db: Database, id: string, at: string) =>
  db.update(users).set({ lastLoginAt: at }).where(eq(users.id, id));

export class UsersRepository {
  constructor(private readonly db: Database) {}

  async getById(id: string): Promise<UserRecord | undefined> {
    return userById(this.db).get({ id });
  }

  /** The user with their grants (user-access.repository.ts), in one statement. */
  async getWithGrants(id: string) {
    const row: ({ user: UserRecord } & GrantedColumns) | undefined = await userWithGrantsById(this.db).get({ id });
    return row && { user: row.user, grants: grantsOf(row) };
  }

  /** Usernames are matched case-insensitively (stored as typed, compared lowercased). */
  async getByUsername(username: string): Promise<UserRecord | undefined> {
    return this.db.select().from(users).where(sql`lower(${users.username}) = ${username.toLowerCase()}`).get();
  }

  /**
   * The user a password sign-in names, with their grants, in one statement: by username (any case), or,
   * when `orEmail`, by e-mail address first (Komga's clients sign in with the account's e-mail address).
   */
  async getForSignIn(name: string, orEmail = false) {
    return signInUserOf(await signInQuery(this.db, name, orEmail));
  }

  async getByEmail(email: string): Promise<UserRecord | undefined> {
    return this.db.select().from(users).where(eq(users.email, email.toLowerCase())).get();
  }

  async count(): Promise<number> {
    const row = await this.db.select({ n: count() }).from(users).get();
    return row?.n ?? 0;
  }

  async list(offset: number, limit: number): Promise<UserRecord[]> {
    return this.db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)).limit(limit).offset(offset);
  }

  /**
   * Inserts a user with their access (when given) in one batch: the row with its access columns, then its
   * grant rows. A failing grant (a library deleted meanwhile) leaves no user behind, rather than one that
   * sees every library, the row's default.
   */
  async create(user: NewUser, access?: AccessWrite): Promise<UserRecord> {
    const [insert, ...grants] = this.creation(user, access);
    const [rows] = await this.db.batch([insert.returning(), ...grants]);
    return rows[0] as UserRecord;
  }

  /**
   * The statements that create a user with their access, for a caller's batch (a migration's batch of users):
   * the row first, then its grant rows.
   */
  creation(user: NewUser, access?: AccessWrite) {
    const { columns, statements } = access
      ? accessWrites(this.db, user.id as string, access, user.createdAt)
      : { columns: {}, statements: [] };
    const insert = this.db.insert(users).values({ ...user, ...columns, email: user.email.toLowerCase() });
    return [insert, ...statements] as const;
  }

  /**
   * Undefined when the user is gone or, with `keepAnAdmin`, when the change would take away the last
   * active admin: that condition is part of the UPDATE itself, so two admins demoting each other at the
   * same moment cannot both succeed.
   */
  async update(
    id: string,
    changes: Partial<NewUser>,
    { keepAnAdmin = false }: { keepAnAdmin?: boolean } = {},
  ): Promise<UserRecord | undefined> {
    const values = changes.email ? { ...changes, email: changes.email.toLowerCase() } : changes;
    const target = keepAnAdmin ? and(eq(users.id, id), anotherAdminRemains(id)) : eq(users.id, id);
    const [row] = await this.db.update(users).set(values).where(target).returning();
    return row;
  }

  async deleteVerificationTokens(userId: string): Promise<void> {
    await this.db.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, userId));
  }

  /** The user's one e-mail verification token from now on (earlier ones stop working), in one batch. */
  async replaceVerificationToken(token: VerificationTokenRecord): Promise<void> {
    await this.db.batch([
      this.db.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, token.userId)),
      this.db.insert(emailVerificationTokens).values(token),
    ]);
  }

  /** When the user's newest verification token was made, if they have one. */
  async latestVerificationTokenAt(userId: string): Promise<string | undefined> {
    const row = await this.db
      .select({ createdAt: emailVerificationTokens.createdAt })
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.userId, userId))
      .orderBy(desc(emailVerificationTokens.createdAt))
      .get();
    return row?.createdAt;
  }

  /** The token with this hash, unless it has expired by `now`. */
  async liveVerificationToken(tokenHash: string, now: string): Promise<VerificationTokenRecord | undefined> {
    return this.db
      .select()
      .from(emailVerificationTokens)
      .where(and(eq(emailVerificationTokens.tokenHash, tokenHash), gt(emailVerificationTokens.expiresAt, now)))
      .get();
  }

  /** The address is verified: the account is active and its tokens are used up, in one batch. */
  async markEmailVerified(userId: string, at: string): Promise<void> {
    await this.db.batch([
      this.db.update(users).set({ emailVerified: true, isActive: true, updatedAt: at }).where(eq(users.id, userId)),
      this.db.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, userId)),
    ]);
  }

  async deleteExpiredVerificationTokens(now: string): Promise<void> {
    await this.db.delete(emailVerificationTokens).where(lt(emailVerificationTokens.expiresAt, now));
  }

  /**
   * Replaces a password hash by another of the same password (a peer's by Longbox's own), only while the stored
   * one is still `previous`: a password changed meanwhile is not overwritten.
   */
  async replacePasswordHash(id: string, previous: string, next: string): Promise<void> {
    await this.db
      .update(users)
      .set({ passwordHash: next })
      .where(and(eq(users.id, id), eq(users.passwordHash, previous)));
  }

  /**
   * Deletes the user and everything that is theirs; false when the user is gone or is the last active
   * admin. Foreign keys cascade on D1, but libSQL connections may run without `PRAGMA foreign_keys`, so
   * the dependants are removed explicitly in one batch (one transaction): every table whose rows reference the
   * user or one of their keys (test/node/libsql.test.ts checks every table of the schema). What only names them
   * without a reference stays, as on D1: who changed a setting or started a task, and `import_origins`, which
   * keeps a deleted imported user from coming back on the next run. Every statement carries the last-admin
   * condition, which none of them changes, so either all apply or none does.
   */
  async delete(id: string): Promise<boolean> {
    const allowed = anotherAdminRemains(id);
    const ownKeys = this.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, id));
    const ownCollections = this.db
      .select({ id: collections.id })
      .from(collections)
      .where(eq(collections.ownerUserId, id));
    const ownReadLists = this.db.select({ id: readLists.id }).from(readLists).where(eq(readLists.ownerUserId, id));
    const results = await this.db.batch([
      this.db.delete(sessions).where(and(eq(sessions.userId, id), allowed)),
      this.db.delete(authenticationActivity).where(and(eq(authenticationActivity.userId, id), allowed)),
      // Their keys, with what each reaches and what each Kobo syncing with it was last sent.
      this.db.delete(apiKeyLibraries).where(and(inArray(apiKeyLibraries.apiKeyId, ownKeys), allowed)),
      this.db.delete(koboDeviceBooks).where(and(inArray(koboDeviceBooks.apiKeyId, ownKeys), allowed)),
      this.db.delete(koboDeviceShelves).where(and(inArray(koboDeviceShelves.apiKeyId, ownKeys), allowed)),
      this.db.delete(apiKeys).where(and(eq(apiKeys.userId, id), allowed)),
      this.db.delete(userPreferences).where(and(eq(userPreferences.userId, id), allowed)),
      this.db.delete(readProgress).where(and(eq(readProgress.userId, id), allowed)),
      forgetUserSeriesProgress(this.db, id, allowed),
      this.db.delete(wantToRead).where(and(eq(wantToRead.userId, id), allowed)),
      // Their reading statistics: sittings, the receipts of what clients sent, device names, Kobo running totals.
      this.db.delete(readingSessions).where(and(eq(readingSessions.userId, id), allowed)),
      this.db.delete(readingSessionReceipts).where(and(eq(readingSessionReceipts.userId, id), allowed)),
      this.db.delete(readingDeviceNames).where(and(eq(readingDeviceNames.userId, id), allowed)),
      this.db.delete(readingStatistics).where(and(eq(readingStatistics.userId, id), allowed)),
      // The user's own lists (a migration from Kavita brings them), with their members.
      this.db.delete(collectionSeries).where(and(inArray(collectionSeries.collectionId, ownCollections), allowed)),
      this.db.delete(collections).where(and(eq(collections.ownerUserId, id), allowed)),
      this.db.delete(readListBooks).where(and(inArray(readListBooks.readListId, ownReadLists), allowed)),
      this.db.delete(readLists).where(and(eq(readLists.ownerUserId, id), allowed)),
      this.db.delete(emailVerificationTokens).where(and(eq(emailVerificationTokens.userId, id), allowed)),
      this.db.delete(oidcIdentities).where(and(eq(oidcIdentities.userId, id), allowed)),
      this.db.delete(userLibraryAccess).where(and(eq(userLibraryAccess.userId, id), allowed)),
      this.db.delete(userSharingLabels).where(and(eq(userSharingLabels.userId, id), allowed)),
      this.db
        .delete(users)
        .where(and(eq(users.id, id), allowed))
        .returning({ id: users.id }),
    ]);
    return (results.at(-1) as unknown[]).length > 0;
  }
}

/** True unless `id` is an active admin and no other active admin exists. */
function anotherAdminRemains(id: string) {
  return sql`(NOT EXISTS (SELECT 1 FROM users AS u WHERE u.id = ${id} AND u.role = 'admin' AND u.is_active = 1)
    OR EXISTS (SELECT 1 FROM users AS o WHERE o.role = 'admin' AND o.is_active = 1 AND o.id <> ${id}))`;
}
