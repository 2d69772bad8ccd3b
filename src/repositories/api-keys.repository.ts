import { and, desc, eq, sql } from 'drizzle-orm';
import { type Database, preparedPerDatabase } from '../db/client';
import { apiKeys, users } from '../db/schema';
import type { UserRecord } from './users.repository';

export type ApiKeyRecord = typeof apiKeys.$inferSelect;

/** Every request signed with an API key runs this lookup. */
const keyWithOwner = preparedPerDatabase((db) =>
  db
    .select({ key: apiKeys, owner: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.prefix, sql.placeholder('prefix')))
    .prepare(),
);

export class ApiKeysRepository {
  constructor(private readonly db: Database) {}

  async create(record: ApiKeyRecord): Promise<ApiKeyRecord> {
    const [row] = await this.db.insert(apiKeys).values(record).returning();
    return row as ApiKeyRecord;
  }

  /** The key and its owner in one round trip: every request signed with an API key needs both. */
  async getWithOwnerByPrefix(prefix: string): Promise<{ key: ApiKeyRecord; owner: UserRecord } | undefined> {
    return keyWithOwner(this.db).get({ prefix });
  }

  async getOwned(id: string, userId: string): Promise<ApiKeyRecord | undefined> {
    return this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
      .get();
  }

  async listOwned(userId: string): Promise<ApiKeyRecord[]> {
    return this.db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt));
  }

  async update(id: string, changes: Partial<Pick<ApiKeyRecord, 'name' | 'permissions' | 'expiresAt'>>) {
    const [row] = await this.db.update(apiKeys).set(changes).where(eq(apiKeys.id, id)).returning();
    return row;
  }

  async touchLastUsed(id: string, at: string): Promise<void> {
    await this.db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(apiKeys).where(eq(apiKeys.id, id)).returning({ id: apiKeys.id });
    return rows.length > 0;
  }
}
