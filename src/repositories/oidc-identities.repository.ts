/** Identities at single-sign-on providers linked to accounts (src/db/tables/single-sign-on.ts). */
import { asc, eq } from 'drizzle-orm';
import { type Database, preparedPerDatabase } from '../db/client';
import { oidcIdentities, users } from '../db/schema';
import { matching, matchingPlaceholders } from './matching';
import type { UserRecord } from './users.repository';

export type OidcIdentityRecord = typeof oidcIdentities.$inferSelect;
export type NewOidcIdentity = typeof oidcIdentities.$inferInsert;

/** Cloudflare Access resolves its identity on every request it signs in: one prepared round trip. */
const identityWithUser = preparedPerDatabase((db) =>
  db
    .select({ identity: oidcIdentities, user: users })
    .from(oidcIdentities)
    .innerJoin(users, eq(users.id, oidcIdentities.userId))
    .where(matchingPlaceholders(oidcIdentities, 'provider', 'subject'))
    .prepare(),
);

export class OidcIdentitiesRepository {
  constructor(private readonly db: Database) {}

  async findWithUser(
    provider: string,
    subject: string,
  ): Promise<{ identity: OidcIdentityRecord; user: UserRecord } | undefined> {
    return identityWithUser(this.db).get({ provider, subject });
  }

  async findForUser(userId: string, provider: string): Promise<OidcIdentityRecord | undefined> {
    return this.db.select().from(oidcIdentities).where(matching(oidcIdentities, { userId, provider })).get();
  }

  async listForUser(userId: string): Promise<OidcIdentityRecord[]> {
    return this.db
      .select()
      .from(oidcIdentities)
      .where(eq(oidcIdentities.userId, userId))
      .orderBy(asc(oidcIdentities.provider));
  }

  /** Undefined when the subject or the account is already linked (the unique indexes decide a race). */
  async link(identity: NewOidcIdentity): Promise<OidcIdentityRecord | undefined> {
    const [row] = await this.db.insert(oidcIdentities).values(identity).onConflictDoNothing().returning();
    return row;
  }

  async recordSignIn(id: string, change: { email: string | null; groups: string[]; at: string }): Promise<void> {
    await this.db
      .update(oidcIdentities)
      .set({ email: change.email, groups: change.groups, lastLoginAt: change.at })
      .where(eq(oidcIdentities.id, id));
  }

  /** False when the user has no such identity. */
  async unlink(userId: string, id: string): Promise<boolean> {
    const removed = await this.db
      .delete(oidcIdentities)
      .where(matching(oidcIdentities, { id, userId }))
      .returning({ id: oidcIdentities.id });
    return removed.length > 0;
  }
}
