/**
 * The SQL behind catalog endpoints and SQLite's plan for it. Runs Longbox's own app (createApp, the
 * same routes, services and repositories as the worker) in Node over a libSQL connection to a copy of
 * the benchmark's D1 file, with a drizzle logger recording every statement a request runs; then
 * EXPLAIN QUERY PLAN for each catalog statement with its bound parameters, and its median time over
 * a few runs on that connection:
 *
 *   node --import tsx --import ./bench/lib/wasm-modules.mjs bench/lib/catalog-plans.ts <db copy> <input.json>
 *
 * input: { username, password, requests: [{ label, method, path, body? }] }. Prints JSON:
 * { sqliteVersion, requests: [{ label, status, statements: [{ sql, params, plan: string[], ms }] }] }.
 */
import { readFileSync } from 'node:fs';
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { createApp } from '../../src/app';
import { type Database, schema } from '../../src/db/client';

interface PlanInput {
  username: string;
  password: string;
  requests: Array<{ label: string; method: string; path: string; body?: unknown }>;
}

const TIMED_RUNS = 7;

/** Statements of the catalog itself; authentication's session/user lookups are left out. */
const CATALOG =
  /\b(books|series|read_progress|catalog_search|book_terms|series_terms|want_to_read|read_lists|read_list_books|collections|collection_series)\b/;

async function main() {
  const [file, inputFile] = process.argv.slice(2) as [string, string];
  const input = JSON.parse(readFileSync(inputFile, 'utf8')) as PlanInput;
  const client = createClient({ url: `file:${file}` });
  let recording: Array<{ sql: string; params: unknown[] }> | null = null;
  const db = drizzle(client, {
    schema,
    logger: { logQuery: (sql, params) => recording?.push({ sql, params }) },
  }) as unknown as Database;
  const app = createApp({ databaseFactory: () => db });
  const env = {} as Env;

  const call = async (method: string, path: string, body: unknown, token?: string) => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    // Paths may be given whole (/api/v1/…, /opds/…, /koreader/…) or relative to /api/v1.
    const url = /^\/(api\/v1|opds|koreader)\//.test(path) ? path : `/api/v1${path}`;
    const res = await app.request(
      `http://longbox.bench${url}`,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
      env,
    );
    const text = await res.text();
    const json = res.headers.get('Content-Type')?.includes('json');
    return { status: res.status, body: text && json ? JSON.parse(text) : null };
  };

  const login = await call('POST', '/auth/login', { username: input.username, password: input.password });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login)}`);
  const token = login.body.access_token as string;

  const results = [];
  for (const request of input.requests) {
    recording = [];
    const res = await call(request.method, request.path, request.body, token);
    // A plan of a failed request would be the plan of an error path: say so instead of printing nothing.
    if (res.status >= 400) throw new Error(`${request.method} ${request.path} answered ${res.status}`);
    const statements = [];
    for (const { sql, params } of recording.filter((s) => CATALOG.test(s.sql))) {
      const rows = (await client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: params as never })).rows;
      // Rows are (id, parent, notused, detail): indent each step under its parent.
      const depth = new Map<number, number>([[0, -1]]);
      const plan = rows.map((row) => {
        const level = (depth.get(Number(row.parent)) ?? -1) + 1;
        depth.set(Number(row.id), level);
        return `${'  '.repeat(level)}${String(row.detail)}`;
      });
      // What the statement itself costs in SQLite, without the worker, D1 transport or JSON around it.
      const times: number[] = [];
      for (let i = 0; i < TIMED_RUNS; i++) {
        const started = performance.now();
        await client.execute({ sql, args: params as never });
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      statements.push({ sql, params, plan, ms: times[Math.floor(TIMED_RUNS / 2)] });
    }
    recording = null;
    results.push({ label: request.label, status: res.status, total: res.body?.total ?? null, statements });
  }
  const version = (await client.execute('select sqlite_version() as v')).rows[0]?.v;
  client.close();
  console.log(JSON.stringify({ sqliteVersion: version, requests: results }));
}

await main();
