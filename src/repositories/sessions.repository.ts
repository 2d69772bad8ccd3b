import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { Database } from '../db/client';
import { sessions } from '../db/schema';

export type SessionRecord = typeof sessions.$inferSelect;

export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async create(session: SessionRecord): Promise<void> {
    await this.db.insert(sessions).values(session);
  }

  /** A live session of that user, or undefined when logged out, expired or never existed. */
  async getLive(id: string, userId: string, now: string): Promise<SessionRecord | undefined> {
    return this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, id), eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
      .get();
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
