/**
 * Issue 2 point 3 (DECISIONS.md §Storage: the catalog is D1 or libSQL): the same migrations, drizzle
 * schema and app code run over a local libSQL file in Node, driven through the HTTP API.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Client, createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { type Database, schema } from '../../src/db/client';

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

async function call(pathname: string, init: { method?: string; json?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  const response = await app.request(
    `http://longbox.test/api/v1${pathname}`,
    {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    },
    env,
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
