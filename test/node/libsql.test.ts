/**
 * Issue 2 point 3 (DECISIONS.md §Storage: the catalog is D1 or libSQL): the same migrations, drizzle
 * schema and app code run over a local libSQL file in Node, driven through the HTTP API. A second file is
 * opened with foreign keys off, as a connection may run: what D1 would cascade, the app deletes itself.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Client, createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { type Database, schema } from '../../src/db/client';
import {
  authenticationActivity,
  books,
  koboDeviceBooks,
  koboDeviceShelves,
  libraries,
  readingSessions,
  readingStatistics,
  series,
} from '../../src/db/schema';

const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');
const workDir = mkdtempSync(path.join(tmpdir(), 'longbox-libsql-'));
let client: Client;

/** Every migrations/*.sql in name order, one transaction per file, as `wrangler d1 migrations apply` does. */
async function applyMigrations(db: Client): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  for (const file of files) {
    const statements = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8')
      .split('--> statement-breakpoint')
      .map((statement) => statement.trim())
      .filter(Boolean);
    await db.batch(statements, 'write');
  }
  return files;
}

/** Only what /health touches: the database is the point here, not storage. */
const fakeBucket = { list: async () => ({ objects: [], truncated: false, delimitedPrefixes: [] }) };
const env = { LIBRARY: fakeBucket, CACHE: fakeBucket } as unknown as Env;

const app = createApp({ databaseFactory: () => drizzle(client, { schema }) as unknown as Database });

type App = ReturnType<typeof createApp>;
interface CallInit {
  method?: string;
  json?: unknown;
  token?: string;
}

const call = (pathname: string, init: CallInit = {}) => callOn(app, env, pathname, init);

async function callOn(target: App, bindings: Env, pathname: string, init: CallInit = {}) {
  const headers: Record<string, string> = {};
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  const response = await target.request(
    `http://longbox.test/api/v1${pathname}`,
    {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    },
    bindings,
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, text };
}

beforeAll(async () => {
  client = createClient({ url: `file:${path.join(workDir, 'longbox.db')}` });
  // D1 enforces foreign keys; a plain SQLite/libSQL connection only when asked.
  await client.execute('PRAGMA foreign_keys = ON');
});

afterAll(() => {
  client?.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('libSQL file database in Node (issue 2 point 3)', () => {
  it('applies every migration, including the FTS5 virtual table', async () => {
    const applied = await applyMigrations(client);
    expect(applied.length).toBeGreaterThanOrEqual(3);
    const tables = await client.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    const names = tables.rows.map((row) => row.name);
    for (const table of ['users', 'sessions', 'api_keys', 'libraries', 'series', 'books', 'catalog_search']) {
      expect(names).toContain(table);
    }
    const search = await client.execute("SELECT count(*) AS n FROM catalog_search WHERE catalog_search MATCH 'dune*'");
    expect(search.rows[0]?.n).toBe(0);
  });

  it('serves setup, login, /auth/me and user administration through the same app code', async () => {
    const health = await call('/health');
    expect(health.status, health.text).toBe(200);
    expect(health.body.checks.database.status).toBe('ok');

    expect((await call('/setup/status')).body).toMatchObject({ setupRequired: true, hasUsers: false });
    const admin = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };
    const setup = await call('/setup/initialize', { json: admin });
    expect(setup.status, setup.text).toBe(201);
    expect(setup.body.user).toMatchObject({ username: 'admin', role: 'admin' });

    const login = await call('/auth/login', { json: { username: 'admin', password: admin.password } });
    expect(login.status, login.text).toBe(200);
    const token = login.body.access_token as string;

    const me = await call('/auth/me', { token });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ username: 'admin', role: 'admin', authMethod: 'session' });

    const reader = { username: 'reader1', email: 'reader1@example.com', password: 'reader-password-1', role: 'reader' };
    const created = await call('/users', { json: reader, token });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ username: 'reader1', role: 'reader', isActive: true });

    const duplicate = await call('/users', { json: { ...reader, email: 'other@example.com' }, token });
    expect(duplicate.status, duplicate.text).toBe(409);
    expect(duplicate.body.error).toBe('Conflict');

    const list = await call('/users?page=1&pageSize=10', { token });
    expect(list.status, list.text).toBe(200);
    expect(list.body).toMatchObject({ page: 1, pageSize: 10, total: 2 });
    expect(list.body.data.map((user: { username: string }) => user.username).sort()).toEqual(['admin', 'reader1']);

    const readerLogin = await call('/auth/login', { json: { username: 'reader1', password: reader.password } });
    expect(readerLogin.status, readerLogin.text).toBe(200);
    const forbidden = await call('/users', { token: readerLogin.body.access_token });
    expect(forbidden.status).toBe(403);

    expect((await call('/auth/logout', { method: 'POST', token })).status).toBe(204);
    expect((await call('/auth/me', { token })).status).toBe(401);
  });

  it('kept foreign keys enforced on the connection the app used', async () => {
    expect((await client.execute('PRAGMA foreign_keys')).rows[0]?.foreign_keys).toBe(1);
    const users = await client.execute('SELECT count(*) AS n FROM users');
    expect(users.rows[0]?.n).toBe(2);
  });
});

/**
 * How many rows of each table name the user (a `user_id` or `owner_user_id` column, or `users` itself) or their
 * API key (an `api_key_id` column, or `api_keys` itself); tables with none are left out. Read from the database's
 * own schema, so a table added later is checked too.
 */
async function rowsOf(db: Client, userId: string, keyId: string): Promise<Record<string, number>> {
  const tables = await db.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
  );
  const found: Record<string, number> = {};
  for (const { name } of tables.rows as unknown as Array<{ name: string }>) {
    const columns = (await db.execute(`PRAGMA table_info("${name}")`)).rows.map((c) => String(c.name));
    const named = [
      ...columns.filter((c) => c === 'user_id' || c === 'owner_user_id').map((c) => ({ c, id: userId })),
      ...columns.filter((c) => c === 'api_key_id').map((c) => ({ c, id: keyId })),
      ...(name === 'users' ? [{ c: 'id', id: userId }] : name === 'api_keys' ? [{ c: 'id', id: keyId }] : []),
    ];
    if (named.length === 0) continue;
    const where = named.map(({ c }) => `"${c}" = ?`).join(' OR ');
    const result = await db.execute({
      sql: `SELECT count(*) AS n FROM "${name}" WHERE ${where}`,
      args: named.map(({ id }) => id),
    });
    const n = Number(result.rows[0]?.n);
    if (n > 0) found[name] = n;
  }
  return found;
}

describe('libSQL without foreign keys (issue 35: a deleted user leaves no reading statistics)', () => {
  let plain: Client;
  let plainApp: App;
  // A user's deletion ends their sessions with an event: the EventHub Durable Object's binding, standing in,
  // keeps what it is handed.
  const published: Array<{ type: string; user_id?: string }> = [];
  const eventHub = {
    idFromName: (name: string) => name,
    get: () => ({ publish: async (events: typeof published) => published.push(...events) }),
  };
  const plainEnv = { ...env, EVENT_HUB: eventHub } as unknown as Env;
  const on = (pathname: string, init: CallInit = {}) => callOn(plainApp, plainEnv, pathname, init);

  beforeAll(async () => {
    // One connection, so the pragma holds for every statement the app sends (the client opens new connections
    // with foreign keys on).
    plain = createClient({ url: `file:${path.join(workDir, 'plain.db')}`, concurrency: 1 });
    await plain.execute('PRAGMA foreign_keys = OFF');
    plainApp = createApp({ databaseFactory: () => drizzle(plain, { schema }) as unknown as Database });
    await applyMigrations(plain);
  });

  afterAll(() => plain?.close());

  it("deleting a user deletes their sittings, receipts, device names, a Kobo's totals and every row of theirs", async () => {
    // Nothing cascades here: every row below is gone only because the deletion names its table.
    expect((await plain.execute('PRAGMA foreign_keys')).rows[0]?.foreign_keys).toBe(0);
    const admin = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };
    expect((await on('/setup/initialize', { json: admin })).status).toBe(201);
    const token = (await on('/auth/login', { json: { username: 'admin', password: admin.password } })).body
      .access_token as string;
    const reader = { username: 'reader1', email: 'reader1@example.com', password: 'reader-password-1', role: 'reader' };
    const created = await on('/users', { json: reader, token });
    expect(created.status, created.text).toBe(201);
    const readerId = created.body.id as string;
    const readerToken = (await on('/auth/login', { json: { username: 'reader1', password: reader.password } })).body
      .access_token as string;

    // A book to read (a scan needs storage this test has not got), and the reader's statistics of it.
    const db = drizzle(plain, { schema });
    const now = new Date().toISOString();
    const [libraryId, seriesId, bookId] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    await db.insert(libraries).values({
      id: libraryId,
      name: 'Comics',
      path: 'comics',
      scanningConfig: { enabled: false, cron_schedule: null, default_mode: 'normal', scan_on_start: false },
      createdAt: now,
      updatedAt: now,
    });
    await db.insert(series).values({
      id: seriesId,
      libraryId,
      title: 'Saga',
      titleSort: 'Saga',
      groupKey: 'saga',
      path: 'comics/Saga',
      createdAt: now,
      updatedAt: now,
    });
    await db.insert(books).values({
      id: bookId,
      libraryId,
      seriesId,
      title: 'Saga 001',
      titleSort: 'Saga 001',
      sortKey: 'Saga 001',
      path: 'comics/Saga/Saga 001.cbz',
      fileName: 'Saga 001.cbz',
      fileFormat: 'cbz',
      fileSize: 1000,
      etag: 'etag',
      fileModifiedAt: now,
      fileHash: 'hash',
      pageCount: 20,
      analyzed: true,
      createdAt: now,
      updatedAt: now,
    });
    const sent = await on('/reading-sessions', {
      token: readerToken,
      json: {
        sessions: [
          {
            id: 'phone-1',
            bookId,
            deviceId: 'phone',
            kind: 'progress',
            activeDurationMs: 600_000,
            clientStartedAt: new Date(Date.now() - 900_000).toISOString(),
            clientEndedAt: new Date(Date.now() - 60_000).toISOString(),
          },
        ],
      },
    });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.accepted).toEqual(['phone-1']);
    expect(
      (await on('/reading-devices/client:phone', { method: 'PUT', token: readerToken, json: { name: 'Mine' } })).status,
    ).toBe(204);
    await db.insert(readingStatistics).values({
      userId: readerId,
      bookId,
      deviceId: 'api-key:kobo',
      deviceName: 'Kobo',
      spentReadingMinutes: 10,
      updatedAt: now,
    });
    // A key of the reader's, narrowed to the library, that a Kobo has synced a book and a shelf with; and a sign-in
    // listed in the authentication activity.
    const key = await on('/api-keys', { token: readerToken, json: { name: 'Kobo', library_ids: [libraryId] } });
    expect(key.status, key.text).toBe(201);
    const keyId = key.body.id as string;
    await db
      .insert(koboDeviceBooks)
      .values({ apiKeyId: keyId, bookId, state: 'sent', fingerprint: 'f', generation: 1 });
    await db
      .insert(koboDeviceShelves)
      .values({ apiKeyId: keyId, listId: crypto.randomUUID(), state: 'sent', fingerprint: 'f', generation: 1 });
    await db.insert(authenticationActivity).values({
      id: crypto.randomUUID(),
      userId: readerId,
      email: reader.email,
      apiKeyId: keyId,
      apiKeyName: 'Kobo',
      success: true,
      source: 'ApiKey',
      dateTime: now,
    });
    const tables = ['reading_sessions', 'reading_session_receipts', 'reading_device_names', 'reading_statistics'];
    const left = async () => {
      const counts: Record<string, unknown> = {};
      for (const table of tables) {
        const result = await plain.execute({
          sql: `SELECT count(*) AS n FROM ${table} WHERE user_id = ?`,
          args: [readerId],
        });
        counts[table] = result.rows[0]?.n;
      }
      return counts;
    };
    expect(await left()).toEqual(Object.fromEntries(tables.map((t) => [t, 1])));
    expect(await rowsOf(plain, readerId, keyId)).toMatchObject({
      api_keys: 1,
      api_key_libraries: 1,
      authentication_activity: expect.any(Number),
      kobo_device_books: 1,
      kobo_device_shelves: 1,
      sessions: expect.any(Number),
      users: 1,
    });
    expect((await on('/admin/reading-stats', { token })).body.users).toMatchObject([{ userId: readerId, sessions: 1 }]);

    const deleted = await on(`/users/${readerId}`, { method: 'DELETE', token });
    expect(deleted.status, deleted.text).toBe(204);
    expect(published).toContainEqual(expect.objectContaining({ type: 'session_expired', user_id: readerId }));
    expect(await left()).toEqual(Object.fromEntries(tables.map((t) => [t, 0])));
    // Every table's rows that name the reader or their key, whatever the table: none is left.
    expect(await rowsOf(plain, readerId, keyId)).toEqual({});
    expect(await db.select().from(readingSessions)).toEqual([]);
    const server = await on('/admin/reading-stats', { token });
    expect(server.status, server.text).toBe(200);
    expect(server.body.summary).toMatchObject({ sessions: 0, readers: 0 });
    expect(server.body.users).toEqual([]);
  });
});
