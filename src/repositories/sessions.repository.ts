import { and, desc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import { type Database, preparedPerDatabase } from '../db/client';
import { sessions, users } from '../db/schema';
import { type GrantedColumns, grantsOf, userGrantColumns } from './user-access.repository';
import { matchingPlaceholders } from './matching';
import type { UserRecord } from './users.repository';

export type SessionRecord = typeof sessions.$inferSelect;

/** Every request signed with a session token runs this: session, user and the user's grants in one round trip. */
const liveSessionWithUser = preparedPerDatabase((db) =>
  db
    .select({ session: sessions, user: users, ...userGrantColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(matchingPlaceholders(sessions, 'id', 'userId'), gt(sessions.expiresAt, sql.placeholder('now'))))
    .prepare(),
);

/**
 * A live session this user's client already holds (same User-Agent), lasting past `until`: a Komga client
 * that sends credentials on every call and keeps no cookies is given it again instead of a new row.
 */
const reusableSession = preparedPerDatabase((db) =>
  db
    .select({ id: sessions.id, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, sql.placeholder('userId')),
        sql`${sessions.userAgent} IS ${sql.placeholder('userAgent')}`,
        gt(sessions.expiresAt, sql.placeholder('until')),
      ),
    )
    .orderBy(desc(sessions.expiresAt))
    .limit(1)
    .prepare(),
);

/** The statement creating a session row, for a sign-in that writes it with its bookkeeping (sign-in.repository.ts). */
export const createSessionStatement = (db: Database, session: SessionRecord) => db.insert(sessions).values(session);

export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async create(session: SessionRecord): Promise<void> {
    await createSessionStatement(this.db, session);
  }

  /**
   * A live session of that user with the user's row and grants, or undefined when logged out, expired or
   * never existed.
   */
  async getLiveWithUser(id: string, userId: string, now: string) {
    const row: ({ session: SessionRecord; user: UserRecord } & GrantedColumns) | undefined = await liveSessionWithUser(
      this.db,
    ).get({ id, userId, now });
    return row && { session: row.session, user: row.user, grants: grantsOf(row) };
  }

  /** The user's longest-lived session from that User-Agent (null: none sent) still live at `until`. */
  async findReusable(
    userId: string,
    userAgent: string | null,
    until: string,
  ): Promise<{ id: string; expiresAt: string } | undefined> {
    return reusableSession(this.db).get({ userId, userAgent, until });
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.id, id));
  }

  /** Ends every session of the user, except `keepId` (the caller's own, when they change their password). */
  async deleteForUser(userId: string, keepId?: string): Promise<void> {
    const mine = eq(sessions.userId, userId);
    await this.db.delete(sessions).where(keepId ? and(mine, ne(sessions.id, keepId)) : mine);
  }

  async deleteExpired(now: string): Promise<void> {
    await this.db.delete(sessions).where(lt(sessions.expiresAt, now));
  }
}
