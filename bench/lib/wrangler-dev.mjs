// Runs a worker in real workerd with `wrangler dev` on loopback, with its local state in a throwaway
// directory under .tmp/, and stops it (and everything it spawned) afterwards.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from './report.mjs';

// Wrangler runs on this Node (the pinned 22), not on whatever `node` is first on PATH.
const WRANGLER = [process.execPath, path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js')];
// No telemetry, no update check, no prompts: the bench talks to nothing but loopback.
const QUIET_ENV = {
  ...process.env,
  PATH: `${path.join(ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}`,
  CI: 'true',
  WRANGLER_SEND_METRICS: 'false',
  NO_UPDATE_NOTIFIER: '1',
};

/** Process groups of the `wrangler dev` processes this bench started and has not stopped yet. */
const running = new Set();
// A bench stopped from outside (Ctrl-C, or the smoke test's time limit) takes its servers with it: they run
// detached, in their own process groups, and would otherwise outlive it.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const pid of running) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/**
 * Puts the process group of `pid` (a detached child) among those killed if the bench is interrupted; the
 * returned function takes it off again once it has been stopped. startWranglerDev does this for its servers.
 */
export function killOnInterrupt(pid) {
  running.add(pid);
  return () => running.delete(pid);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function tempStateDir(label) {
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  return mkdtempSync(path.join(ROOT, '.tmp', `bench-${label}-`));
}

/**
 * Applies the D1 migrations of `config` to the local database kept in `persistTo`, as `wrangler d1 migrations
 * apply` does — each migration's SQL, then its row in `d1_migrations`, so a later `migrations apply` (npm
 * start's) finds nothing to do — but in one `wrangler d1 execute`: `migrations apply` starts a runtime for
 * every migration, about 2 s each on a busy machine (55 s for 23), which a smoke run cannot afford.
 */
export function applyMigrations(config, persistTo) {
  const configDir = path.dirname(config);
  const dir = readFileSync(config, 'utf8').match(/^migrations_dir\s*=\s*"([^"]+)"/m)?.[1] ?? 'migrations';
  const migrations = path.resolve(configDir, dir);
  const names = readdirSync(migrations)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  const sql = [
    // wrangler's own table (its getCreateMigrationsTableQuery) and rows (buildMigrationQuery).
    'CREATE TABLE IF NOT EXISTS d1_migrations(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL);',
    ...names.map(
      (name) =>
        `${readFileSync(path.join(migrations, name), 'utf8')}\nINSERT INTO d1_migrations (name) values ('${name.replace(/'/g, "''")}');`,
    ),
  ].join('\n');
  mkdirSync(persistTo, { recursive: true });
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const file = path.join(mkdtempSync(path.join(ROOT, '.tmp', 'migrations-')), 'all.sql');
  writeFileSync(file, sql);
  const [node, wrangler] = WRANGLER;
  try {
    const result = spawnSync(
      node,
      [wrangler, 'd1', 'execute', 'DB', '--local', '-c', config, '--persist-to', persistTo, '--file', file],
      { cwd: ROOT, env: QUIET_ENV, encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`migrations failed:\n${result.stdout}\n${result.stderr}`);
  } finally {
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/**
 * Starts `wrangler dev -c <config>` and resolves once `readyPath` answers `readyStatus` (bounded wait).
 * `config` may be a list: the first worker serves the port, the others run beside it (service
 * bindings between them resolve, as with `npm start`). The child runs in its own process group so
 * stop() ends workerd too. Workers in separate `wrangler dev` processes find each other (service
 * bindings, a Durable Object of another script, a queue's consumer) through the dev registry: processes
 * given the same `registry` folder see each other and nothing else on the machine; without one, each
 * process gets a registry of its own, so a bench never binds to another Longbox running beside it.
 */
export async function startWranglerDev(options) {
  // A free port can be taken by another process (a test server beside the bench) before wrangler binds it:
  // such a start is tried again on new ports, as the test servers do.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWranglerDevOnce(options);
    } catch (error) {
      if (attempt >= 3 || !String(error?.message).includes('Address already in use')) throw error;
    }
  }
}

async function startWranglerDevOnce({
  config,
  persistTo,
  readyPath = '/',
  readyStatus = 200,
  vars = {},
  registry,
  timeoutMs = 90_000,
}) {
  const port = await freePort();
  const inspectorPort = await freePort();
  const configs = (Array.isArray(config) ? config : [config]).flatMap((file) => ['-c', file]);
  const args = ['dev', ...configs, '--ip', '127.0.0.1', '--port', String(port)];
  args.push('--inspector-port', String(inspectorPort), '--show-interactive-dev-session=false', '--log-level', 'warn');
  if (persistTo) args.push('--persist-to', persistTo);
  for (const [key, value] of Object.entries(vars)) args.push('--var', `${key}:${value}`);

  const registryDir = registry ?? tempStateDir('dev-registry');
  mkdirSync(registryDir, { recursive: true });
  const [node, wrangler] = WRANGLER;
  const child = spawn(node, [wrangler, ...args], {
    cwd: ROOT,
    env: { ...QUIET_ENV, WRANGLER_REGISTRY_PATH: registryDir, CLOUDFLARE_DEV_REGISTRY_PATH: registryDir },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  /** Error log lines, kept apart from the output's tail (the first ones of a long run would be gone from it). */
  const errors = [];
  /** What each stream gives: its lines are split per stream, as chunks of the two interleave. */
  const keeper = () => {
    let partial = '';
    return (chunk) => {
      output = (output + chunk).slice(-20_000);
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.includes('"level":"error"') && errors.length < 200) errors.push(line);
    };
  };
  child.stdout.on('data', keeper());
  child.stderr.on('data', keeper());
  let exited = false;
  running.add(child.pid);
  child.on('exit', () => {
    exited = true;
    running.delete(child.pid);
  });

  const stop = async () => {
    if (!exited) {
      try {
        process.kill(-child.pid, 'SIGTERM');
        for (let i = 0; i < 50 && !exited; i++) await new Promise((r) => setTimeout(r, 100));
        if (!exited) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (!registry) removeDir(registryDir);
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) {
      await stop();
      throw new Error(`wrangler dev exited early:\n${output}`);
    }
    try {
      const res = await fetch(url + readyPath);
      await res.arrayBuffer();
      if (res.status === readyStatus)
        return { url, pid: child.pid, stop, output: () => output, errors: () => [...errors] };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not become ready within ${timeoutMs} ms:\n${output}`);
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}
