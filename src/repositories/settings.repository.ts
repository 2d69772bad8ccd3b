import { count, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { serverSecrets, settingHistory, settings } from '../db/schema';
import { newId } from '../lib/ids';

export type SettingRow = typeof settings.$inferSelect;
export type SettingHistoryRow = typeof settingHistory.$inferSelect;

export interface SettingChange {
  key: string;
  oldValue: unknown;
  newValue: unknown;
  /** null resets to the default (the row is removed). */
  stored: unknown | null;
  changedBy: string | null;
  changeReason: string | null;
  at: string;
}

/** Every stored setting, as a statement not yet run (a sign-in reads them with the account: sign-in.repository.ts). */
export const allSettingsQuery = (db: Database) => db.select().from(settings);

export class SettingsRepository {
  constructor(private readonly db: Database) {}

  async all(): Promise<SettingRow[]> {
    return allSettingsQuery(this.db);
  }

  async get(key: string): Promise<SettingRow | undefined> {
    return this.db.select().from(settings).where(eq(settings.key, key)).get();
  }

  /** Applies every change and its history entry in one batch: all or nothing. */
  async apply(changes: SettingChange[]): Promise<void> {
    if (changes.length === 0) return;
    const statements = changes.flatMap((c) => [
      c.stored === null
        ? this.db.delete(settings).where(eq(settings.key, c.key))
        : this.db
            .insert(settings)
            .values({ key: c.key, value: c.stored, updatedAt: c.at, updatedBy: c.changedBy })
            .onConflictDoUpdate({
              target: settings.key,
              set: { value: c.stored, updatedAt: c.at, updatedBy: c.changedBy },
            }),
      this.db.insert(settingHistory).values({
        id: newId(),
        key: c.key,
        oldValue: c.oldValue,
        newValue: c.newValue,
        changedBy: c.changedBy,
        changeReason: c.changeReason,
        changedAt: c.at,
      }),
    ]);
    await this.db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  }

  async history(key: string, offset: number, limit: number): Promise<SettingHistoryRow[]> {
    return this.db
      .select()
      .from(settingHistory)
      .where(eq(settingHistory.key, key))
      .orderBy(desc(settingHistory.changedAt), desc(settingHistory.id))
      .limit(limit)
      .offset(offset);
  }

  async countHistory(key: string): Promise<number> {
    const row = await this.db.select({ n: count() }).from(settingHistory).where(eq(settingHistory.key, key)).get();
    return row?.n ?? 0;
  }

  async getServerSecret(name: string): Promise<string | undefined> {
    const row = await this.db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).get();
    return row?.value;
  }

  /** Inserts unless another isolate won the race; returns whichever value is stored. */
  async ensureServerSecret(name: string, candidate: string, at: string): Promise<string> {
    await this.db.insert(serverSecrets).values({ name, value: candidate, createdAt: at }).onConflictDoNothing();
    return (await this.getServerSecret(name)) ?? candidate;
  }
}
