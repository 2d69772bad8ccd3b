// The 100,000-book catalog the catalog benchmarks (catalog-queries, opds-feed, lists, reading-stats,
// release-poll) measure: an admin and two libraries created through the real worker (so their rows are exactly
// what the app writes), then the catalog written by bench/lib/seed-catalog.ts straight into the stopped worker's
// local D1 file; and the query plans of a request's catalog statements (bench/lib/catalog-plans.ts) as markdown.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_ADMIN } from './admin-client.mjs';
import { ROOT } from './report.mjs';
import { sized } from './smoke.mjs';
import { snapshotSources } from './source-snapshot.mjs';
import { applyMigrations, startWranglerDev } from './wrangler-dev.mjs';

/** 10,000 series of 10 books over 2 libraries, 2 % soft-deleted, 5,000 progress rows (a smoke run: 40 series). */
const CATALOG = sized(
  { series: 10_000, booksPerSeries: 10, deletedEvery: 50, progressRows: 5_000 },
  { series: 40, booksPerSeries: 10, deletedEvery: 50, progressRows: 20 },
);

/** Runs a TypeScript script with tsx on this Node; its last output line is JSON. */
export function runTsx(args, flags = []) {
  const run = spawnSync(process.execPath, [...flags, '--import', 'tsx', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

/** The D1 database file miniflare keeps under the persist directory (one database: DB). */
export function d1File(persistTo) {
  const dir = path.join(persistTo, 'v3/d1/miniflare-D1DatabaseObject');
  const files = readdirSync(dir).filter((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
  if (files.length !== 1) throw new Error(`expected one D1 file in ${dir}, found ${files.join(', ')}`);
  return path.join(dir, files[0]);
}

export async function fetchJson(url, init) {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export const postJson = (body, token) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

/**
 * Creates the admin and the libraries Comics and Manga through a worker started for it, lets
 * `prepare(api, token)` add what a benchmark needs through the API (an API key), stops the worker and
 * seeds the catalog into its D1 file. Returns what the benchmark measures with.
 */
export async function seedLargeCatalog({ config, persistTo, state, vars, prepare }) {
  const worker = await startWranglerDev({ config, persistTo, readyPath: '/api/v1/health', vars });
  let userId;
  let prepared;
  const libraries = [];
  try {
    const api = `${worker.url}/api/v1`;
    const setup = await fetchJson(`${api}/setup/initialize`, postJson(BENCH_ADMIN));
    if (setup.status !== 201) throw new Error(`setup failed: ${JSON.stringify(setup)}`);
    userId = setup.body.user.id;
    for (const [name, libraryPath] of [
      ['Comics', 'comics'],
      ['Manga', 'manga'],
    ]) {
      const created = await fetchJson(
        `${api}/libraries`,
        postJson({ name, path: libraryPath }, setup.body.access_token),
      );
      if (created.status !== 201) throw new Error(`library creation failed: ${JSON.stringify(created)}`);
      libraries.push({ id: created.body.id, path: libraryPath });
    }
    prepared = prepare ? await prepare(api, setup.body.access_token) : undefined;
  } finally {
    await worker.stop();
  }
  const database = d1File(persistTo);
  const configFile = path.join(state, 'seed.json');
  writeFileSync(configFile, JSON.stringify({ userId, libraries, ...CATALOG }));
  const started = Date.now();
  const seeded = runTsx(['bench/lib/seed-catalog.ts', database, configFile]);
  return { database, libraries, prepared, seeded, seedSeconds: (Date.now() - started) / 1000 };
}

/**
 * The catalog for a bench whose requests come from a reader app signed in with an API key (HTTP Basic
 * `api:<key>` or `X-API-Key`): the workers' sources copied under `state` (edits elsewhere in the tree cannot
 * restart the worker mid-measurement), their D1 migrated, the catalog seeded and a key of the admin's named
 * `keyName` made. The bench writes what it adds into `database`, then `startWorker()` serves it all.
 */
export async function seedCatalogWithKey(state, keyName) {
  const config = snapshotSources(path.join(state, 'sources')).api;
  const persistTo = path.join(state, 'data');
  applyMigrations(config, persistTo);
  const vars = { LONGBOX_LOG__LEVEL: 'warn' };
  const { prepared: key, ...catalog } = await seedLargeCatalog({
    config,
    persistTo,
    state,
    vars,
    prepare: async (api, token) => {
      const created = await fetchJson(`${api}/api-keys`, postJson({ name: keyName }, token));
      if (created.status !== 201) throw new Error(`key failed: ${JSON.stringify(created)}`);
      return created.body.key;
    },
  });
  const startWorker = () => startWranglerDev({ config, persistTo, readyPath: '/api/v1/health', vars });
  return { ...catalog, key, startWorker };
}

/**
 * The catalog statements of `requests` ({label, method, path, body?}), run by the app itself in Node
 * over a copy of the database, each with its SQLite plan (bench/lib/catalog-plans.ts), signed in as
 * `credentials` (the bench admin unless given).
 */
export function capturePlans({ state, database, requests, credentials = BENCH_ADMIN }) {
  const copy = path.join(state, 'plans.sqlite');
  copyFileSync(database, copy);
  const input = path.join(state, 'plans.json');
  writeFileSync(input, JSON.stringify({ username: credentials.username, password: credentials.password, requests }));
  return runTsx(['--import', './bench/lib/wasm-modules.mjs', 'bench/lib/catalog-plans.ts', copy, input]);
}

/** Plan lines that read a whole catalog table (a SCAN not through an index). */
export function fullTableScans(plans, tables) {
  const scan = new RegExp(`^\\s*SCAN (${tables.join('|')})\\b(?! USING)`);
  return plans.requests.flatMap((r) =>
    r.statements.flatMap((s) =>
      s.plan.filter((line) => scan.test(line)).map((line) => ({ request: r.label, line: line.trim() })),
    ),
  );
}

/** Each request's statements with timing, parameters, SQL and plan. */
export function planMarkdown(plans, { maxParamChars = Number.POSITIVE_INFINITY } = {}) {
  const parts = [];
  for (const request of plans.requests) {
    parts.push(`#### ${request.label}`, '');
    request.statements.forEach((statement, i) => {
      const params = statement.params.map((p) => JSON.stringify(p).slice(0, maxParamChars)).join(', ');
      parts.push(
        `Statement ${i + 1} of ${request.statements.length}, ${statement.ms.toFixed(1)} ms in SQLite${params ? ` (parameters: ${params})` : ''}:`,
        '',
        '```sql',
        statement.sql.replace(/\s+/g, ' ').trim(),
        '```',
        '',
        '```',
        ...statement.plan,
        '```',
        '',
      );
    });
  }
  return parts.join('\n');
}
