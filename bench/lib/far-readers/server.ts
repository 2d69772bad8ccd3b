/**
 * A Longbox for the far-readers benchmark: both processes as `npm start` runs them (the API worker; the
 * consumers and the renderer), from a frozen copy of the sources, the API worker's entry being the bench-only
 * far-readers.ts (config.ts). "now" is the working tree; "before" is a commit's tree (`git archive`), its web
 * app built from that tree, so the same run measures both, A/B.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { startLongbox } from '../longbox-server.mjs';
import { ROOT } from '../report.mjs';
import { snapshotSources } from '../source-snapshot.mjs';
import { applyMigrations } from '../wrangler-dev.mjs';
import { writeFarReadersConfig } from './config';

/** What the workers are built from (as source-snapshot.mjs copies them). */
const SOURCES = [
  'src',
  'durable-objects',
  'worker',
  'consumers',
  'scripts',
  'renderer',
  'web',
  'migrations',
  'wrangler.toml',
  'package.json',
  'tsconfig.json',
];

export interface FarSettings {
  delayMs: number;
  replicas: boolean;
  vars: Record<string, string>;
}

export interface FarCall {
  label: string;
  placement: 'far' | 'near';
  start: number;
  end: number | null;
}

export interface FarReport {
  depth: number;
  levels: string[][];
  counted: FarCall[];
  pending: FarCall[];
  after: FarCall[];
  near: FarCall[];
  settled: boolean;
}

export interface FarServer {
  label: string;
  url: string;
  /** Sets the distance, the replica mode and the LONGBOX_* variables the worker sees (no request when unchanged). */
  settings(next: FarSettings): Promise<void>;
  /** Sends the settings last set again (the worker was reloaded: a new isolate has the defaults). */
  reapply(): Promise<void>;
  /** The request's whole record once its `waitUntil` work has settled (or after `timeoutMs`). */
  report(id: string, timeoutMs?: number): Promise<FarReport>;
  state(): Promise<{ environmentsSeen: number; unattributed: number }>;
  /** The workers' last output lines that mention `needle` (a request id), else their last lines. */
  log(needle: string): string;
  stop(): Promise<void>;
}

/** The vars both processes get, as production sets them (an auth secret) and quiet. */
const VARS = {
  LONGBOX_LOG__LEVEL: 'warn',
  LONGBOX_PAGES__EDGE_CACHE: 'false',
  // Production must set one; without it the first request of each isolate reads the generated one from D1.
  LONGBOX_AUTH__SECRET: 'far-readers-benchmark-secret-0123456789abcdef',
};

/** The sources of `commit` in `dir`, with node_modules linked and the web app built from them. */
export function snapshotCommit(commit: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync('git', ['-C', ROOT, 'archive', '--format=tar', commit, '--', ...SOURCES], {
    maxBuffer: 1 << 30,
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`untar of ${commit} failed: ${untar.stderr}`);
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const web = spawnSync(process.execPath, [path.join(dir, 'scripts/build-web.mjs')], {
    cwd: dir,
    env: { ...process.env, CI: 'true' },
    encoding: 'utf8',
  });
  if (web.status !== 0) throw new Error(`web build of ${commit} failed:\n${web.stdout}\n${web.stderr}`);
}

/**
 * Starts the far-readers Longbox over `data` from the sources in `dir`: the working tree's (copied there now)
 * or, with `commit`, that commit's.
 */
export async function startFarServer(options: {
  label: string;
  dir: string;
  data: string;
  commit?: string;
  /** More variables for both processes (the fake release providers' addresses). */
  vars?: Record<string, string>;
}): Promise<FarServer> {
  const { label, dir, data, commit } = options;
  let sources: { api: string; consumers: string; renderer: string };
  if (commit) {
    snapshotCommit(commit, dir);
    sources = {
      api: path.join(dir, 'wrangler.toml'),
      consumers: path.join(dir, 'consumers/wrangler.toml'),
      renderer: path.join(dir, 'renderer/wrangler.toml'),
    };
  } else sources = snapshotSources(dir);
  const api = writeFarReadersConfig(dir);
  applyMigrations(sources.api, data);
  const longbox = await startLongbox({
    sources: { ...sources, api },
    persistTo: data,
    vars: { ...VARS, ...options.vars },
  });
  const url = longbox.url;
  let current = '';
  const control = async (pathname: string, init?: RequestInit): Promise<any> => {
    const res = await fetch(`${url}/__far/${pathname}`, init);
    const body = await res.json();
    if (!res.ok) throw new Error(`/__far/${pathname} → ${res.status}: ${JSON.stringify(body)}`);
    return body;
  };
  return {
    label,
    url,
    async settings(next) {
      const body = JSON.stringify(next);
      if (body === current) return;
      await control('settings', { method: 'POST', body });
      current = body;
    },
    async reapply() {
      if (current) await control('settings', { method: 'POST', body: current });
    },
    report: (id, timeoutMs = 15_000) => control(`requests/${id}?settled=${timeoutMs}`),
    state: () => control('state'),
    log(needle) {
      const lines = longbox.output().split('\n');
      const mentioning = lines.filter((line) => line.includes(needle));
      return (mentioning.length > 0 ? mentioning : lines.slice(-30)).join('\n');
    },
    stop: () => longbox.stop(),
  };
}
