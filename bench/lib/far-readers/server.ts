/**
 * A Longbox for the far-readers benchmark: both processes as `npm start` runs them (the API worker; the
 * consumers and the renderer), from a frozen copy of the sources, the API worker's entry being the bench-only
 * far-readers.ts (config.ts). "now" is the working tree; "before" is a commit's tree (`git archive`), its web
 * app built from that tree, so the same run measures both, A/B.
 */
import { startLongbox } from '../longbox-server.mjs';
import { snapshotCommit, snapshotSources } from '../source-snapshot.mjs';
import { applyMigrations } from '../wrangler-dev.mjs';
import { writeFarReadersConfig } from './config';

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
  /** Every error line the workers logged (a failure the run asked past, such as a setup wait's, is still shown). */
  errors(): string[];
  stop(): Promise<void>;
}

/** The vars both processes get, as production sets them (an auth secret) and quiet. */
const VARS = {
  LONGBOX_LOG__LEVEL: 'warn',
  LONGBOX_PAGES__EDGE_CACHE: 'false',
  // Production must set one; without it the first request of each isolate reads the generated one from D1.
  LONGBOX_AUTH__SECRET: 'far-readers-benchmark-secret-0123456789abcdef',
};

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
  const sources = commit ? snapshotCommit(commit, dir) : snapshotSources(dir);
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
    errors: () => longbox.errors(),
    stop: () => longbox.stop(),
  };
}
