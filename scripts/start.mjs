#!/usr/bin/env node
// `npm start`: apply migrations to the local D1 (state kept in .wrangler/state, or PERSIST_TO, between
// restarts), then run two `wrangler dev` processes (real workerd) over that same state:
//   api   the API worker (wrangler.toml), on PORT;
//   jobs  the book-work queue consumers (consumers/wrangler.toml) and the native-image worker
//         (renderer/wrangler.toml), on JOBS_PORT.
// One workerd process runs on one thread (issue 11 point 3): ingest and image work in their own process
// leave the API's thread to requests, so GET /series, GET /tasks and pages stay fast while a library is
// imported. The API reaches the renderer, and the consumers reach the API's EventHub and queue, through a
// dev registry private to this state folder, so another Longbox running on the same machine is never mistaken
// for this one.
//
// The jobs process starts first and the API only once its queue consumers are registered: a book-work
// message the API sends while no consumer is registered is dropped by the local queue (miniflare's broker
// forwards a message without a local consumer to the dev session that consumes the queue, and drops it
// when there is none), and the book then waited for the cron's re-queue, ten minutes later. So `npm start`
// says "Longbox is ready" only when an upload is analysed at once (issue 31 point 13). Its output is one
// line per step and then the processes' own logs (scripts/lib/start-output.mjs); `npm start -- --verbose`
// shows everything wrangler prints.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { migrationSummary, WranglerLines } from './lib/start-output.mjs';

const port = process.env.PORT ?? '8787';
const jobsPort = process.env.JOBS_PORT ?? String(Number(port) + 10);
const host = process.env.HOST ?? '127.0.0.1';
const verbose = process.argv.includes('--verbose');
/** Niceness of the jobs process (0 normal … 19 lowest): ingest takes the CPU the API leaves. */
const JOBS_NICENESS = 10;
/** The queue the API sends book work to (wrangler.toml, consumers/wrangler.toml). */
const BOOK_WORK_QUEUE = 'longbox-book-work';
/** A dev-registry entry not refreshed for this long is a process that died (miniflare refreshes every 10 s). */
const REGISTRY_ENTRY_DEAD_MS = 30_000;
const root = path.join(import.meta.dirname, '..');
// Wrangler runs on this Node (the pinned 22 that npm puts first on PATH), whatever `node` the shell has.
const wrangler = path.join(root, 'node_modules/wrangler/bin/wrangler.js');
const state = path.resolve(root, process.env.PERSIST_TO ?? '.wrangler/state');
const registry = path.join(state, 'registry');
mkdirSync(registry, { recursive: true });
const env = { ...process.env, WRANGLER_REGISTRY_PATH: registry, CLOUDFLARE_DEV_REGISTRY_PATH: registry };

/** Runs a step to its end; its output is shown only when it fails (or with --verbose). */
function step(args, options = {}) {
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', ...options });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (verbose || result.status !== 0) process.stdout.write(output);
  if (result.status !== 0) process.exit(result.status ?? 1);
  return output;
}

// The web app's files (dist/web) must exist before wrangler starts: its [assets] directory.
step(['scripts/build-web.mjs'], { env: { ...process.env, CI: 'true' } });
console.log('Web app built.');

const migrations = step([wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], {
  env: { ...env, CI: 'true' }, // no interactive confirmation
});
console.log(migrationSummary(migrations));

// A process killed without its shutdown leaves its dev-registry entry, and a new process of that name
// waits for the entry to age out (90 s) before registering: its queue consumers would be unknown that long.
// An entry is dead when it has not been refreshed lately or its process no longer answers on its port.
for (const name of ['longbox', 'longbox-jobs', 'longbox-renderer']) {
  const entry = path.join(registry, name);
  const modified = statSync(entry, { throwIfNoEntry: false })?.mtimeMs;
  if (modified === undefined) continue;
  let address;
  try {
    address = JSON.parse(readFileSync(entry, 'utf8')).debugPortAddress;
  } catch {
    // unreadable: dead
  }
  const alive =
    Date.now() - modified < REGISTRY_ENTRY_DEAD_MS &&
    typeof address === 'string' &&
    (await fetch(`http://${address}/`, { signal: AbortSignal.timeout(2_000) }).then(
      () => true,
      () => false,
    ));
  if (!alive) unlinkSync(entry);
}

// LONGBOX_* variables of this environment reach both workers (e.g. LONGBOX_LOG__LEVEL=debug npm start).
// The edge page cache is off unless asked for: one machine has no edge to be near, and the local Cache API
// simulator keeps every page served on disk and grows the runtime's memory with each one (issue 21,
// docs/BENCHMARKS.md "Memory under page traffic").
const vars = Object.entries({ LONGBOX_PAGES__EDGE_CACHE: 'false', ...process.env })
  .filter(([key]) => key.startsWith('LONGBOX_'))
  .flatMap(([key, value]) => ['--var', `${key}:${value}`]);
const renderer = existsSync(path.join(root, 'renderer/wrangler.toml')) ? ['-c', 'renderer/wrangler.toml'] : [];
const dev = (name, configs, listen, extra = []) => {
  const ip = name === 'api' ? host : '127.0.0.1';
  const args = [wrangler, 'dev', ...configs, '--port', listen, '--ip', ip, '--persist-to', state, ...vars, ...extra];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: root, env });
  const lines = new WranglerLines(name);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      const shown = verbose ? line : lines.filter(line);
      if (verbose) lines.filter(line);
      if (shown !== null) console.log(shown);
    });
  }
  // Background work yields the CPU to requests: the jobs process (and the workerd it starts, which
  // inherits this) runs at a lower priority, so on a busy machine the API is scheduled first.
  if (name === 'jobs' && child.pid) {
    try {
      os.setPriority(child.pid, JOBS_NICENESS);
    } catch {
      // not permitted here: both run at the same priority
    }
  }
  child.on('exit', (code) => shutdown(code ?? 0));
  return { child, lines };
};
let stopping = false;
let cronTimer;
const local = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
// INSPECTOR_PORT / JOBS_INSPECTOR_PORT: where each process's DevTools inspector listens (benchmarks read the
// isolates' heap through it); unset, wrangler picks one.
const inspector = (name) => (process.env[name] ? ['--inspector-port', process.env[name]] : []);

/** Waits for `ready()` (checked every 250 ms), or stops everything after two minutes. */
async function until(what, ready) {
  for (const deadline = Date.now() + 120_000; !stopping; ) {
    if (await ready()) return;
    if (Date.now() > deadline) {
      console.error(`${what} did not start within two minutes; run \`npm start -- --verbose\` to see why.`);
      shutdown(1);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The jobs process's consumers, as the dev registry has them from this run (written after `since`). */
function consumersRegistered(since) {
  const entry = path.join(registry, 'longbox-jobs');
  try {
    if (statSync(entry).mtimeMs < since) return false;
    return JSON.parse(readFileSync(entry, 'utf8')).queueConsumers?.includes(BOOK_WORK_QUEUE) === true;
  } catch {
    return false;
  }
}

const answers = (url, accept) =>
  fetch(url).then(
    (res) => accept(res.status),
    () => false,
  );

// 1. The jobs process: its worker answers every request with 404 once it serves, and its queue consumers
//    are in the dev registry once it has registered them (before it says it is ready).
console.log('Starting the book-work process, then the API…');
const jobsStarted = Date.now() - 1_000;
const jobs = dev('jobs', ['-c', 'consumers/wrangler.toml', ...renderer], jobsPort, inspector('JOBS_INSPECTOR_PORT'));
const children = [jobs.child];
await until('The book-work process', async () => {
  if (!consumersRegistered(jobsStarted)) return false;
  return answers(`http://127.0.0.1:${jobsPort}/`, (status) => status === 404);
});
jobs.lines.ready = true;

// 2. The API: it reads the registry as it starts, so its queue knows where the consumers are before it
//    answers; wrangler says "Ready" once that is done (a health answer alone can come a moment earlier).
let api;
if (!stopping) {
  api = dev('api', ['-c', 'wrangler.toml'], port, ['--test-scheduled', ...inspector('INSPECTOR_PORT')]);
  children.push(api.child);
  let healthySince = 0;
  await until('The API', async () => {
    if (!(await answers(`${local}/api/v1/health`, (status) => status < 500))) return false;
    healthySince ||= Date.now();
    return api.lines.saidReady || Date.now() - healthySince > 5_000;
  });
  api.lines.ready = true;
}
if (!stopping) {
  console.log(
    host === '0.0.0.0'
      ? `Longbox is ready at ${local} (and at this machine's other addresses, port ${port})`
      : `Longbox is ready at ${local}`,
  );
}

// wrangler dev does not fire cron triggers by itself: tick the worker's scheduled handler once a minute,
// as Cloudflare would, so cron_schedule scans and the re-queue of lost book work happen locally too.
cronTimer = setInterval(() => {
  fetch(`${local}/__scheduled?cron=${encodeURIComponent('* * * * *')}`).catch(
    () => {}, // not listening yet, or restarting
  );
}, 60_000);

function shutdown(code) {
  if (stopping) return;
  stopping = true;
  clearInterval(cronTimer);
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  // A wrangler that does not stop within 10 s is killed, so no workerd outlives `npm start`.
  setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  }, 10_000).unref();
  process.exitCode = code;
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => shutdown(0));
