/** Users, with the cascade a user deletion needs (sessions, keys, preferences, progress). */
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import { type Database, preparedPerDatabase } from '../db/client';
import {
  apiKeys,
  emailVerificationTokens,
  readProgress,
  sessions,
  userPreferences,
  users,
  wantToRead,
} from '../db/schema';

export type UserRecord = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** Run by every Basic request. */
const userById = preparedPerDatabase((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare(),
);

export class UsersRepository {
  constructor(private readonly db: Database) {}

  async getById(id: string): Promise<UserRecord | undefined> {
    return userById(this.db).get({ id });
  }

  /** Usernames are matched case-insensitively (stored as typed, compared lowercased). */
  async getByUsername(username: string): Promise<UserRecord | undefined> {
    return this.db.select().from(users).where(sql`lower(${users.username}) = ${username.toLowerCase()}`).get();
  }

  async getByEmail(email: string): Promise<UserRecord | undefined> {
    return this.db.select().from(users).where(eq(users.email, email.toLowerCase())).get();
  }

  async count(): Promise<number> {
    const row = await this.db.select({ n: count() }).from(users).get();
    return row?.n ?? 0;
  }

  /** Active admins other than `exceptId`: the last one may not be removed, demoted or disabled. */
  async countActiveAdmins(exceptId: string): Promise<number> {
    const row = await this.db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.isActive, true), ne(users.id, exceptId)))
      .get();
    return row?.n ?? 0;
  }

  async list(offset: number, limit: number): Promise<UserRecord[]> {
    return this.db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)).limit(limit).offset(offset);
  }

  async create(user: NewUser): Promise<UserRecord> {
    const [row] = await this.db
      .insert(users)
      .values({ ...user, email: user.email.toLowerCase() })
      .returning();
    return row as UserRecord;
  }

  async update(id: string, changes: Partial<NewUser>): Promise<UserRecord | undefined> {
    const values = changes.email ? { ...changes, email: changes.email.toLowerCase() } : changes;
    const [row] = await this.db.update(users).set(values).where(eq(users.id, id)).returning();
    return row;
  }

  async deleteVerificationTokens(userId: string): Promise<void> {
    await this.db.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, userId));
  }

  async touchLastLogin(id: string, at: string): Promise<void> {
    await this.db.update(users).set({ lastLoginAt: at }).where(eq(users.id, id));
  }

  /**
   * Deletes the user and everything that is theirs. Foreign keys cascade on D1, but libSQL connections
   * may run without `PRAGMA foreign_keys`, so the dependants are removed explicitly in one batch.
   */
  async delete(id: string): Promise<void> {
    await this.db.batch([
      this.db.delete(sessions).where(eq(sessions.userId, id)),
      this.db.delete(apiKeys).where(eq(apiKeys.userId, id)),
      this.db.delete(userPreferences).where(eq(userPreferences.userId, id)),
      this.db.delete(readProgress).where(eq(readProgress.userId, id)),
      this.db.delete(wantToRead).where(eq(wantToRead.userId, id)),
      this.db.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, id)),
      this.db.delete(users).where(eq(users.id, id)),
    ]);
  }
}
