// Moving a household from Komga (issue 33): `npm run migrate -- komga` imports a Komga database of 20,000 books
// and 5 users with 30,000 progress rows (and read lists and API keys) into a real Longbox (`wrangler dev`,
// local D1) whose catalog holds the same books — half under the same paths, half moved and found by KOReader
// hash, one in a hundred missing. Measured: the command's wall time end to end (reading the database included),
// its requests, and a second run that must change nothing; the D1 statements each import route runs, counted by
// running the same command against Longbox's app in Node over a copy of the same database (drizzle's logger).
// Reference in the same run: the credential check every request pays (GET /auth/me with the same key).
import { execFile } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setupAdminClient } from './lib/admin-client.mjs';
import { d1File, runTsx } from './lib/large-catalog.mjs';
import { environmentLines, markdownTable, ROOT, summarize, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';
import { snapshotSources } from './lib/source-snapshot.mjs';
import { applyMigrations, removeDir, startWranglerDev, tempStateDir } from './lib/wrangler-dev.mjs';

const SIZE = sized(
  { series: 2_000, booksPerSeries: 10, users: 5, progressRows: 30_000, readLists: 10, readListBooks: 200 },
  { series: 4, booksPerSeries: 5, users: 2, progressRows: 12, readLists: 1, readListBooks: 5 },
);
const REFERENCE_REQUESTS = sized(50, 3);

function runMigrate(file, url, key) {
  const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
  const args = [
    tsx,
    '--disable-warning=ExperimentalWarning',
    'scripts/migrate.ts',
    'komga',
    file,
    '--url',
    url,
    '--api-key',
    key,
  ];
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (error) reject(new Error(`migrate failed (${error.code}):\n${stdout.slice(-3000)}\n${stderr}`));
      else resolve({ seconds, stdout });
    });
  });
}

/** A number the report states, found by its pattern (the command's own words). */
function stated(stdout, pattern) {
  const match = pattern.exec(stdout);
  if (!match) throw new Error(`the report does not say ${pattern}:\n${stdout.slice(-3000)}`);
  return Number(match[1]);
}

async function main() {
  const state = tempStateDir('migrate');
  let worker;
  try {
    const config = snapshotSources(path.join(state, 'sources')).api;
    const data = path.join(state, 'data');
    applyMigrations(config, data);
    const vars = { LONGBOX_LOG__LEVEL: 'warn' };
    worker = await startWranglerDev({ config, persistTo: data, readyPath: '/api/v1/health', vars });
    const { call } = await setupAdminClient(`${worker.url}/api/v1`);
    const me = (await call('GET', '/auth/me')).body;
    const libraries = [];
    for (const [name, prefix] of [
      ['Comics', 'comics'],
      ['Manga', 'manga'],
    ]) {
      libraries.push({ id: (await call('POST', '/libraries', { name, path: prefix })).body.id, path: prefix });
    }
    const key = (await call('POST', '/api-keys', { name: 'migration' })).body.key;
    await worker.stop();
    worker = undefined;

    const database = d1File(data);
    const seedConfig = path.join(state, 'seed.json');
    writeFileSync(
      seedConfig,
      JSON.stringify({
        userId: me.id,
        libraries,
        series: SIZE.series,
        booksPerSeries: SIZE.booksPerSeries,
        deletedEvery: 1e9,
        progressRows: 0,
      }),
    );
    const seeded = runTsx(['bench/lib/seed-catalog.ts', database, seedConfig]);
    const komga = path.join(state, 'database.sqlite');
    const householdConfig = path.join(state, 'household.json');
    writeFileSync(householdConfig, JSON.stringify(SIZE));
    const household = runTsx(['bench/lib/migrate-household.ts', database, komga, householdConfig]);
    console.log('seeded', seeded, 'household', household);
    const before = path.join(state, 'before.sqlite');
    copyFileSync(database, before);

    worker = await startWranglerDev({ config, persistTo: data, readyPath: '/api/v1/health', vars });
    const reference = [];
    for (let i = 0; i < REFERENCE_REQUESTS; i++) {
      const started = process.hrtime.bigint();
      const res = await fetch(`${worker.url}/api/v1/auth/me`, { headers: { 'X-API-Key': key } });
      await res.text();
      reference.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const first = await runMigrate(komga, worker.url, key);
    const second = await runMigrate(komga, worker.url, key);
    await worker.stop();
    worker = undefined;

    const counted = runTsx([
      '--import',
      './bench/lib/wasm-modules.mjs',
      'bench/lib/migrate-statements.ts',
      before,
      komga,
      key,
    ]);
    const matched = stated(first.stdout, /Books: (\d+) of \d+ matched/);
    const requests = stated(first.stdout, /Requests made: (\d+)/);
    const written = stated(first.stdout, /Progress: (\d+) written/);
    const rewritten = stated(second.stdout, /Progress: (\d+) written/);
    if (rewritten !== 0) throw new Error(`the second run wrote ${rewritten} progress rows:\n${second.stdout}`);
    if (written !== counted.progressWritten) {
      throw new Error(`the counted run wrote ${counted.progressWritten} progress rows, the real one ${written}`);
    }
    const auth = summarize(reference);
    const rows = [
      [
        'first run (everything imported)',
        first.seconds.toFixed(1),
        String(requests),
        `${matched} books matched, ${written} progress rows written`,
      ],
      [
        'second run (changes nothing)',
        second.seconds.toFixed(1),
        String(stated(second.stdout, /Requests made: (\d+)/)),
        `${rewritten} progress rows written`,
      ],
      [
        `reference: ${REFERENCE_REQUESTS} × GET /auth/me (the credential check)`,
        (auth.median / 1000).toFixed(3),
        '1',
        `median of one request; p95 ${auth.p95.toFixed(1)} ms`,
      ],
    ];
    const routeRows = Object.entries(counted.routes)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([route, r]) => [
        route,
        String(r.requests),
        String(r.statements),
        (r.statements / r.requests).toFixed(1),
        String(r.most),
      ]);
    const body = [
      ...environmentLines('npm run bench -- migrate'),
      '',
      `A Komga database of ${household.books.toLocaleString('en-US')} books (${household.series} series), ${household.users} users, ${household.progress.toLocaleString('en-US')} progress rows, ${household.readLists} read list(s) of ${SIZE.readListBooks} books and ${household.users} API keys, into a Longbox holding the same books (half under Komga's paths, half moved and matched by KOReader hash; one in a hundred of Komga's books missing). Times are the whole command, reading Komga's database included, against \`wrangler dev\` (workerd, local D1) on loopback.`,
      '',
      markdownTable(['run', 'seconds', 'requests', 'what it did'], rows),
      '',
      `D1 statements the import routes ran (the same command against Longbox's app in Node over a copy of the database, every statement sent to the database counted, each of a batch's too): ${counted.statements.toLocaleString('en-US')} for ${counted.requests} requests. A request's statements are its credential check, the reads its batch needs, and one D1 batch (one transaction) of its writes; a progress batch recounts \`series_read_progress\` once per user in it.`,
      '',
      markdownTable(['route', 'requests', 'statements', 'per request', 'most in one request'], routeRows),
    ].join('\n');
    writeSection('Migration from Komga', body);
    console.log(body);
  } finally {
    await worker?.stop();
    removeDir(state);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
