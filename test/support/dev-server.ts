/**
 * For node tests that need the real server over real HTTP (client libraries, system tools such as
 * jing): `wrangler dev` with the API and renderer workers on a free loopback port, its D1/R2 state in
 * a temporary --persist-to folder migrated as `npm start` does, stopped with its process group.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { privateDevRegistry } from './dev-registry';

const ROOT = path.resolve(__dirname, '../..');
const WRANGLER = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js');

export interface DevServer {
  url: string;
  stop: () => void;
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startDevServer(label: string, timeoutMs = 120_000): Promise<DevServer> {
  const work = mkdtempSync(path.join(tmpdir(), `longbox-${label}-`));
  const persist = path.join(work, 'state');
  const env = { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', ...privateDevRegistry(work) };
  const migrate = spawnSync(
    process.execPath,
    [WRANGLER, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist],
    { cwd: ROOT, env, encoding: 'utf8' },
  );
  if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr}`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const server: ChildProcess = spawn(
    process.execPath,
    [
      WRANGLER,
      'dev',
      '-c',
      'wrangler.toml',
      '-c',
      'renderer/wrangler.toml',
      // The book-work consumers (issue 11), beside the API in this one process: page sizes, hashes, covers.
      '-c',
      'consumers/wrangler.toml',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
    ].concat(['--persist-to', persist, '--inspector-port', '0', '--show-interactive-dev-session=false']),
    // Its own process group, so the workerd children go down with it.
    { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  server.stdout?.on('data', (chunk) => (output += chunk));
  server.stderr?.on('data', (chunk) => (output += chunk));
  const stop = () => {
    if (server.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
    rmSync(work, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/api/v1/setup/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error(`wrangler dev did not start:\n${output.slice(-3000)}`);
}
