import { desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Database, preparedPerDatabase } from '../db/client';
import { apiKeyLibraries, apiKeys, users } from '../db/schema';
import { type GrantedColumns, grantsOf, keyLibrariesColumn, userGrantColumns } from './user-access.repository';
import { matching, matchingPlaceholders } from './matching';
import type { UserRecord } from './users.repository';

export type ApiKeyRecord = typeof apiKeys.$inferSelect;

/** A key with its libraries, its owner and their grants, in one statement, found by `where`. */
const keyAndOwner = (db: Database, where: SQL) =>
  db
    .select({ key: apiKeys, owner: users, keyLibraries: keyLibrariesColumn, ...userGrantColumns })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(where)
    .prepare();

/** Every request signed with an API key runs this lookup, by the key's prefix. */
const keyWithOwner = preparedPerDatabase((db) => keyAndOwner(db, eq(apiKeys.prefix, sql.placeholder('prefix'))));

/** An open event stream signed with a key re-reads it once a second (access refresh): by id and owner. */
const ownedKeyWithOwner = preparedPerDatabase((db) => keyAndOwner(db, matchingPlaceholders(apiKeys, 'id', 'userId')));

export class ApiKeysRepository {
  constructor(private readonly db: Database) {}

  /**
   * A new key; `record.allLibraries` false limits it to `libraryIds` (api_key_libraries), written in the
   * same batch so the key never exists unlimited for a moment.
   */
  async create(record: ApiKeyRecord, libraryIds: readonly string[] = []): Promise<ApiKeyRecord> {
    const insert = this.db.insert(apiKeys).values(record).returning();
    const ids = record.allLibraries ? [] : [...new Set(libraryIds)];
    if (ids.length === 0) return (await insert)[0] as ApiKeyRecord;
    const [rows] = await this.db.batch([
      insert,
      // One JSON parameter however many libraries (D1 binds at most 100 parameters).
      this.db
        .insert(apiKeyLibraries)
        .select(sql`SELECT ${record.id}, l.value FROM json_each(${JSON.stringify(ids)}) AS l`),
    ]);
    return rows[0] as ApiKeyRecord;
  }

  /**
   * A key imported from Komga (docs/DECISIONS.md §Imported credentials), for a migration's batch: skipped when
   * its hash is a key's already (the caller checked; this keeps a race from failing the batch).
   */
  importedKomgaKey(record: ApiKeyRecord) {
    return this.db.insert(apiKeys).values(record).onConflictDoNothing();
  }

  /** Which of these lookup prefixes (a Komga key: its hash) some key already has. */
  async prefixesTaken(prefixes: readonly string[]): Promise<Set<string>> {
    if (prefixes.length === 0) return new Set();
    const rows = await this.db
      .select({ prefix: apiKeys.prefix })
      .from(apiKeys)
      .where(sql`${apiKeys.prefix} IN (SELECT value FROM json_each(${JSON.stringify(prefixes)}))`);
    return new Set(rows.map((row) => row.prefix));
  }

  /** The libraries of each narrowed key among these, by key id (keys reaching all their owner's have none). */
  async librariesOf(keyIds: readonly string[]): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>();
    if (keyIds.length === 0) return result;
    const rows = await this.db
      .select()
      .from(apiKeyLibraries)
      .where(inArray(apiKeyLibraries.apiKeyId, [...keyIds]));
    for (const row of rows) result.set(row.apiKeyId, [...(result.get(row.apiKeyId) ?? []), row.libraryId]);
    return result;
  }

  /** The key and its owner in one round trip: every request signed with an API key needs both. */
  async getWithOwnerByPrefix(prefix: string) {
    const row: ({ key: ApiKeyRecord; owner: UserRecord; keyLibraries: string[] | null } & GrantedColumns) | undefined =
      await keyWithOwner(this.db).get({ prefix });
    return row && { key: row.key, owner: row.owner, keyLibraries: row.keyLibraries, grants: grantsOf(row) };
  }

  /** The user's key `id` with its libraries, the owner and their grants, in one round trip. */
  async getOwnedWithOwner(id: string, userId: string) {
    const row: ({ key: ApiKeyRecord; owner: UserRecord; keyLibraries: string[] | null } & GrantedColumns) | undefined =
      await ownedKeyWithOwner(this.db).get({ id, userId });
    return row && { key: row.key, owner: row.owner, keyLibraries: row.keyLibraries, grants: grantsOf(row) };
  }

  async getOwned(id: string, userId: string): Promise<ApiKeyRecord | undefined> {
    return this.db.select().from(apiKeys).where(matching(apiKeys, { id, userId })).get();
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
    const [, rows] = await this.db.batch([
      this.db.delete(apiKeyLibraries).where(eq(apiKeyLibraries.apiKeyId, id)),
      this.db.delete(apiKeys).where(eq(apiKeys.id, id)).returning({ id: apiKeys.id }),
    ]);
    return rows.length > 0;
  }
}
