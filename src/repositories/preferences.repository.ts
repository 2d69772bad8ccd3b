import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { matching } from './matching';
import { userPreferences } from '../db/schema';

export type PreferenceRow = typeof userPreferences.$inferSelect;

/** A user's stored preferences; a missing row means "the default". */
export class PreferencesRepository {
  constructor(private readonly db: Database) {}

  async listForUser(userId: string): Promise<PreferenceRow[]> {
    return this.db.select().from(userPreferences).where(eq(userPreferences.userId, userId));
  }

  /** One stored preference of the user, or undefined when it has its default. */
  async get(userId: string, key: string): Promise<PreferenceRow | undefined> {
    return this.db.select().from(userPreferences).where(matching(userPreferences, { userId, key })).get();
  }

  async upsert(row: PreferenceRow): Promise<PreferenceRow> {
    // drizzle writes a JS null as SQL NULL, not as the JSON text `null` the NOT NULL column needs.
    const value = row.value === null ? sql`'null'` : row.value;
    const [saved] = await this.db
      .insert(userPreferences)
      .values({ ...row, value })
      .onConflictDoUpdate({
        target: [userPreferences.userId, userPreferences.key],
        set: { value, updatedAt: row.updatedAt },
      })
      .returning();
    return saved as PreferenceRow;
  }

  async delete(userId: string, key: string): Promise<void> {
    await this.db.delete(userPreferences).where(matching(userPreferences, { userId, key }));
  }
}
