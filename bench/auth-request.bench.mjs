// What signing in costs per request (API.md §5): the real Longbox worker under `wrangler dev` with a
// throwaway local D1/R2 in .tmp/, an admin and an API key created through the API, then GET
// /api/v1/auth/me with each credential kind against GET /api/v1/health (no auth) as the reference.
import path from 'node:path';
import { environmentLines, markdownTable, summarize, us, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';
import { snapshotSources } from './lib/source-snapshot.mjs';
import { applyMigrations, removeDir, startWranglerDev, tempStateDir } from './lib/wrangler-dev.mjs';

const ROUNDS = sized(300, 5);
const WARMUP = sized(30, 2);
const ADMIN = { username: 'bench-admin', email: 'bench@example.com', password: 'bench-password-42' };

async function call(url, init = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** One sequential request, in µs, failing loudly on a non-200 (a refused request would be cheap and wrong). */
async function timed(url, headers) {
  const started = process.hrtime.bigint();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const elapsed = Number(process.hrtime.bigint() - started) / 1e3;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return elapsed;
}

async function main() {
  const state = tempStateDir('auth-request');
  let worker;
  try {
    // A frozen copy of the sources: edits elsewhere in the tree (or another bench writing into dist/web)
    // cannot restart the worker mid-measurement.
    const config = snapshotSources(path.join(state, 'sources')).api;
    const data = path.join(state, 'data');
    applyMigrations(config, data);
    worker = await startWranglerDev({ config, persistTo: data, readyPath: '/api/v1/health' });
    const api = `${worker.url}/api/v1`;
    const json = (body, extra = {}) => ({
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...extra },
      body: JSON.stringify(body),
    });

    const setup = await call(`${api}/setup/initialize`, json(ADMIN));
    if (setup.status !== 201) throw new Error(`setup failed: ${JSON.stringify(setup)}`);
    const token = setup.body.access_token;
    const key = await call(`${api}/api-keys`, json({ name: 'bench key' }, { Authorization: `Bearer ${token}` }));
    if (key.status !== 201) throw new Error(`API key creation failed: ${JSON.stringify(key)}`);
    const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;

    // The first Basic request pays one argon2id verify; every later one is answered from the cache.
    const firstBasicUs = await timed(`${api}/auth/me`, { Authorization: basic });

    const variants = [
      { label: 'GET /health, no credentials (reference)', url: `${api}/health`, headers: {} },
      {
        label: 'GET /auth/me, session token (Bearer JWT)',
        url: `${api}/auth/me`,
        headers: { Authorization: `Bearer ${token}` },
      },
      { label: 'GET /auth/me, API key (X-API-Key)', url: `${api}/auth/me`, headers: { 'X-API-Key': key.body.key } },
      { label: 'GET /auth/me, Basic user:password (cached)', url: `${api}/auth/me`, headers: { Authorization: basic } },
    ];
    for (let i = 0; i < WARMUP; i++) for (const v of variants) await timed(v.url, v.headers);
    const samples = variants.map(() => []);
    // Interleaved rounds, so drift on a shared machine hits every variant alike.
    for (let i = 0; i < ROUNDS; i++) {
      for (const [j, v] of variants.entries()) samples[j].push(await timed(v.url, v.headers));
    }

    const stats = samples.map(summarize);
    const reference = stats[0].median;
    const rows = variants.map((v, j) => [
      v.label,
      us(stats[j].median),
      us(stats[j].p95),
      j === 0 ? '—' : `${stats[j].median - reference >= 0 ? '+' : ''}${us(stats[j].median - reference)}`,
      String(stats[j].n),
    ]);
    rows.push([
      'GET /auth/me, Basic user:password, first request (argon2id verify)',
      us(firstBasicUs),
      '—',
      `+${us(firstBasicUs - reference)}`,
      '1',
    ]);
    const table = markdownTable(['request', 'median µs', 'p95 µs', 'median vs reference µs', 'n'], rows);
    const body = [
      'The real worker (wrangler.toml, worker/index.ts, run from a snapshot copy of the sources) in workerd under `wrangler dev` with local D1 and R2 in a',
      'fresh directory under .tmp/ (removed afterwards); an admin and an API key are created through the API. Each',
      'request is sequential over loopback from Node (fetch), timed end to end, so every row includes the same HTTP',
      `and logging overhead; the reference row shows it (its handler also queries D1 and R2). ${WARMUP} warm-up`,
      `rounds, then ${ROUNDS} interleaved rounds of every row.`,
      '',
      table,
      '',
      '- Session: JWT verify (HS256, jose) + session row and user row read from D1 in parallel.',
      '- API key: prefix lookup in D1 + HMAC-SHA-256 of the secret + user row; `last_used_at` is written at most',
      '  once a minute per key, after the response.',
      '- Basic: HMAC of the credentials as the cache key + user row (the cache entry is checked against',
      '  `authVersion`, the username and `isActive`); only a cache miss pays the argon2id verify.',
      '',
      ...environmentLines('npm run bench -- auth-request'),
    ].join('\n');
    writeSection('Authenticated-request cost', body);
    console.log(table);
  } finally {
    await worker?.stop();
    removeDir(state);
  }
}

await main();
