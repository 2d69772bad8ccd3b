import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
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

export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async create(session: SessionRecord): Promise<void> {
    await this.db.insert(sessions).values(session);
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
