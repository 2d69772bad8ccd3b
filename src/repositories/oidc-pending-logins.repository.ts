/** OIDC sign-ins waiting for their callback (src/db/tables/single-sign-on.ts). */
import { eq, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { oidcPendingLogins } from '../db/schema';

export type PendingLoginRecord = typeof oidcPendingLogins.$inferSelect;

export class OidcPendingLoginsRepository {
  constructor(private readonly db: Database) {}

  /** Stores a new sign-in and drops the ones whose five minutes are over (no cron needed for them). */
  async create(login: PendingLoginRecord, now: string): Promise<void> {
    await this.db.batch([
      this.db.delete(oidcPendingLogins).where(lt(oidcPendingLogins.expiresAt, now)),
      this.db.insert(oidcPendingLogins).values(login),
    ]);
  }

  /**
   * Reads and deletes the sign-in in one statement: a state can be used once, even by two callbacks
   * arriving together (a replayed redirect finds nothing).
   */
  async take(state: string): Promise<PendingLoginRecord | undefined> {
    const [row] = await this.db.delete(oidcPendingLogins).where(eq(oidcPendingLogins.state, state)).returning();
    return row;
  }
}
