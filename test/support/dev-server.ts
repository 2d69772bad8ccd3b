/**
 * A real Longbox over real HTTP, for the tests that drive it from outside (browsers, client libraries,
 * system tools such as jing, the import command) and the browser benchmarks: `wrangler dev` (API worker,
 * renderer and book-work consumers) on a free loopback port with a fresh local state directory migrated
 * as `npm start` does, stopped with its whole process group. The web app must be built first (`npm test`
 * does it; vitest.config.ts builds it when dist/web is missing).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { privateDevRegistry } from './dev-registry';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const WRANGLER = path.join(ROOT, 'node_modules', '.bin', 'wrangler');

export interface LongboxServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  stateDir: string;
  /** Everything the server printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface StartOptions {
  /** Extra worker variables (`--var KEY:VALUE`), e.g. { LONGBOX_SCAN__SLICE_MS: '5' }. */
  vars?: Record<string, string>;
}

/**
 * The consumers' config, with the test's variables among its [vars] when there are some: `--var` reaches the
 * first worker of a `wrangler dev` only, and the release-poll consumer must see the providers' addresses
 * too. The copy lives in the state folder, its paths made absolute.
 */
function consumersConfig(stateDir: string, vars: Record<string, string>): string {
  if (Object.keys(vars).length === 0) return 'consumers/wrangler.toml';
  const text = readFileSync(path.join(ROOT, 'consumers', 'wrangler.toml'), 'utf8')
    .replace(/^main = "index.ts"$/m, `main = ${JSON.stringify(path.join(ROOT, 'consumers', 'index.ts'))}`)
    .replace(
      /^migrations_dir = "\.\.\/migrations"$/m,
      `migrations_dir = ${JSON.stringify(path.join(ROOT, 'migrations'))}`,
    )
    .replace(
      /^\[vars\]$/m,
      `[vars]\n${Object.entries(vars)
        .map(([key, value]) => `${key} = ${JSON.stringify(value)}`)
        .join('\n')}`,
    );
  const file = path.join(stateDir, 'consumers.wrangler.toml');
  writeFileSync(file, text);
  return file;
}

export async function startServer(options: StartOptions = {}): Promise<LongboxServer> {
  if (!existsSync(path.join(ROOT, 'dist', 'web', 'index.html'))) {
    throw new Error('dist/web is missing: run `npm run build:web` (npm test does it first)');
  }
  const stateDir = mkdtempSync(path.join(tmpdir(), 'longbox-e2e-'));
  const env = {
    ...process.env,
    CI: 'true',
    WRANGLER_SEND_METRICS: 'false',
    NO_COLOR: '1',
    ...privateDevRegistry(stateDir),
  };
  const migrate = spawnSync(WRANGLER, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', stateDir], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}\n${migrate.stderr}`);

  // Files run beside each other, so a port found free can be taken before wrangler binds it: one retry.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(stateDir, env, options);
    } catch (error) {
      if (attempt >= 2 || !/EADDRINUSE|address already in use/i.test(String(error))) {
        rmSync(stateDir, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

/** `wrangler dev` on two free ports (the server's and its inspector's), once it answers its health check. */
async function launch(stateDir: string, env: NodeJS.ProcessEnv, options: StartOptions): Promise<LongboxServer> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const configs = ['-c', 'wrangler.toml'];
  if (existsSync(path.join(ROOT, 'renderer', 'wrangler.toml'))) configs.push('-c', 'renderer/wrangler.toml');
  // The book-work queue consumers (README "How scans work") in the same process: without them no book
  // gets its page sizes, hashes or cover, and the reader lays out pages from those sizes.
  configs.push('-c', consumersConfig(stateDir, options.vars ?? {}));
  const vars = Object.entries(options.vars ?? {}).flatMap(([key, value]) => ['--var', `${key}:${value}`]);
  const args = ['dev', ...configs, '--port', String(port), '--ip', '127.0.0.1', '--persist-to', stateDir];
  args.push('--inspector-port', String(inspectorPort), '--show-interactive-dev-session=false', ...vars);
  const child = spawn(WRANGLER, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));

  const url = `http://127.0.0.1:${port}`;
  const server: LongboxServer = {
    url,
    stateDir,
    output: () => output,
    stop: () => stop(child, stateDir),
  };
  try {
    await waitForHealth(url, child, () => output);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return server;
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`wrangler dev did not answer /api/v1/health within 150 s:\n${output()}`);
}

async function stop(child: ChildProcess, stateDir: string): Promise<void> {
  await stopProcess(child);
  rmSync(stateDir, { recursive: true, force: true });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.pid) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid, 'SIGTERM'); // the whole group: wrangler and its workerd
    } catch {
      // already gone
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
