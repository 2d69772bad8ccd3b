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
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const port = process.env.PORT ?? '8787';
const jobsPort = process.env.JOBS_PORT ?? String(Number(port) + 10);
const host = process.env.HOST ?? '127.0.0.1';
/** Niceness of the jobs process (0 normal … 19 lowest): ingest takes the CPU the API leaves. */
const JOBS_NICENESS = 10;
const root = path.join(import.meta.dirname, '..');
// Wrangler runs on this Node (the pinned 22 that npm puts first on PATH), whatever `node` the shell has.
const wrangler = path.join(root, 'node_modules/wrangler/bin/wrangler.js');
const state = path.resolve(root, process.env.PERSIST_TO ?? '.wrangler/state');
const registry = path.join(state, 'registry');
mkdirSync(registry, { recursive: true });
const env = { ...process.env, WRANGLER_REGISTRY_PATH: registry, CLOUDFLARE_DEV_REGISTRY_PATH: registry };

// The web app's files (dist/web) must exist before wrangler starts: its [assets] directory.
const web = spawnSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'inherit', cwd: root });
if (web.status !== 0) process.exit(web.status ?? 1);

const migrate = spawnSync(
  process.execPath,
  [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state],
  {
    stdio: 'inherit',
    cwd: root,
    env: { ...env, CI: 'true' }, // no interactive confirmation
  },
);
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

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
  const child = spawn(process.execPath, args, { stdio: 'inherit', cwd: root, env });
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
  return child;
};
let stopping = false;
let cronTimer;
const local = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
// INSPECTOR_PORT / JOBS_INSPECTOR_PORT: where each process's DevTools inspector listens (benchmarks read the
// isolates' heap through it); unset, wrangler picks one.
const inspector = (name) => (process.env[name] ? ['--inspector-port', process.env[name]] : []);
const children = [dev('api', ['-c', 'wrangler.toml'], port, ['--test-scheduled', ...inspector('INSPECTOR_PORT')])];
// The jobs process starts once the API answers: two runtimes starting at once can race for the same
// loopback port (a runtime restart re-binds the port it had), and the consumers need the API's EventHub.
for (const deadline = Date.now() + 120_000; !stopping && Date.now() < deadline; ) {
  const ready = await fetch(`${local}/api/v1/health`).then(
    (res) => res.status < 500,
    () => false,
  );
  if (ready) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
if (!stopping)
  children.push(
    dev('jobs', ['-c', 'consumers/wrangler.toml', ...renderer], jobsPort, inspector('JOBS_INSPECTOR_PORT')),
  );

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
