/**
 * `npm start`'s two processes, each under the test's control (the slow fault tests, test/faults/): the API
 * worker (wrangler.toml, --test-scheduled) and the jobs process (the book-work consumers and the renderer),
 * started with the arguments scripts/start.mjs gives them over one fresh local state with a dev registry of
 * its own. Unlike `npm start`, which stops everything when one of them exits, either can be killed (SIGKILL,
 * the whole process group: wrangler and its workerd) and started again while the other keeps running.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './dev-server';
import { privateDevRegistry } from './dev-registry';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const WRANGLER = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Role = 'api' | 'jobs';

export interface SplitServer {
  url: string;
  stateDir: string;
  /** The consumers' "batch done" log lines, as they came (across restarts). */
  batches: Array<{ at: number; details: number; thumbnails: number; retried: number }>;
  start(role: Role): Promise<void>;
  /** SIGKILL: no shutdown, as a crash or an OOM kill ends a process. */
  kill(role: Role): Promise<void>;
  /** Fires the cron trigger once (wrangler dev does not), as scripts/start.mjs does every minute. */
  cron(): Promise<void>;
  /** The local D1 database file both processes open. */
  databaseFile(): string;
  output(): string;
  stop(): Promise<void>;
}

export async function startSplitServer(vars: Record<string, string> = {}): Promise<SplitServer> {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'longbox-faults-'));
  const env = {
    ...process.env,
    CI: 'true',
    WRANGLER_SEND_METRICS: 'false',
    NO_COLOR: '1',
    ...privateDevRegistry(stateDir),
  };
  const migrate = spawnSync(
    process.execPath,
    [WRANGLER, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', stateDir],
    {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    },
  );
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);
  const ports: Record<Role, number> = { api: await freePort(), jobs: await freePort() };
  const url = `http://127.0.0.1:${ports.api}`;
  const varArgs = Object.entries({ LONGBOX_LOG__LEVEL: 'info', ...vars }).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
  const configs: Record<Role, string[]> = {
    api: ['-c', 'wrangler.toml'],
    jobs: ['-c', 'consumers/wrangler.toml', '-c', 'renderer/wrangler.toml'],
  };
  const children: Partial<Record<Role, ChildProcess>> = {};
  const batches: SplitServer['batches'] = [];
  let output = '';

  const listen = (child: ChildProcess, role: Role) => {
    let partial = '';
    const read = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.includes('"batch done"')) {
          try {
            batches.push({ at: Date.now(), ...JSON.parse(line.slice(line.indexOf('{'))) });
          } catch {
            // a line cut by the terminal formatting
          }
        } else if (!line.includes('"msg":"request"')) output = `${output}[${role}] ${line}\n`.slice(-40_000);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
  };

  const ready = async (role: Role) => {
    const probe = role === 'api' ? `${url}/api/v1/health` : `http://127.0.0.1:${ports.jobs}/`;
    const deadline = Date.now() + 180_000;
    for (;;) {
      const status = await fetch(probe).then(
        (r) => r.status,
        () => 0,
      );
      if ((role === 'api' && status === 200) || (role === 'jobs' && status === 404)) return;
      if (children[role]?.exitCode !== null || Date.now() > deadline) {
        throw new Error(`${role} did not start:\n${output}`);
      }
      await sleep(250);
    }
  };

  const server: SplitServer = {
    url,
    stateDir,
    batches,
    async start(role) {
      const extra = role === 'api' ? ['--test-scheduled'] : [];
      const args = [WRANGLER, 'dev', ...configs[role], '--port', String(ports[role]), '--ip', '127.0.0.1'];
      args.push('--persist-to', stateDir, '--show-interactive-dev-session=false', ...varArgs, ...extra);
      const child = spawn(process.execPath, args, {
        cwd: ROOT,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children[role] = child;
      listen(child, role);
      await ready(role);
    },
    async kill(role) {
      const child = children[role];
      if (!child?.pid || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await Promise.race([exited, sleep(10_000)]);
    },
    async cron() {
      const res = await fetch(`${url}/__scheduled?cron=${encodeURIComponent('* * * * *')}`);
      await res.arrayBuffer();
    },
    databaseFile() {
      const dir = path.join(stateDir, 'v3', 'd1', 'miniflare-D1DatabaseObject');
      const file = readdirSync(dir).find((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
      if (!file) throw new Error(`no D1 database in ${dir}`);
      return path.join(dir, file);
    },
    output: () => output,
    async stop() {
      for (const role of ['jobs', 'api'] as const) {
        const child = children[role];
        if (!child?.pid || child.exitCode !== null) continue;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          continue;
        }
        await Promise.race([exited, sleep(10_000)]);
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // stopped
        }
      }
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
  return server;
}
