// The far-readers worker's wrangler config, derived from the snapshot's own wrangler.toml at bench time (never a
// file of the repository, so nothing can deploy it): every binding, Durable Object, migration, queue, asset and
// var exactly as Longbox declares them, with two changes — `main` is the bench entry
// (bench/workers/far-readers.ts, copied into the snapshot), and `nodejs_als` is added to the compatibility
// flags (the entry's AsyncLocalStorage; it provides node:async_hooks only). Written beside wrangler.toml, so
// every relative path in it (assets, migrations) means what it meant there. The name stays "longbox": the
// consumers worker reaches the EventHub by that script name.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../report.mjs';

const ENTRY_FILES = ['far-readers.ts', 'far-calls.ts', 'async-hooks.d.ts'];
export const FAR_READERS_CONFIG = 'far-readers.wrangler.toml';

/** wrangler.toml's text with the bench entry as `main` and `nodejs_als` among the compatibility flags. */
export function deriveConfig(text: string, entry = 'bench/workers/far-readers.ts'): string {
  const lines = text.split('\n');
  const main = lines.findIndex((line) => /^main\s*=/.test(line));
  if (main < 0) throw new Error('wrangler.toml has no top-level `main`: the far-readers config cannot be derived');
  lines[main] = `main = "${entry}"`;
  const flags = lines.findIndex((line) => /^compatibility_flags\s*=/.test(line));
  if (flags >= 0) {
    lines[flags] = lines[flags]!.replace(/\[\s*/, '["nodejs_als", ').replace(', ]', ']');
  } else {
    const date = lines.findIndex((line) => /^compatibility_date\s*=/.test(line));
    if (date < 0) throw new Error('wrangler.toml has no compatibility_date');
    lines.splice(
      date + 1,
      0,
      'compatibility_flags = ["nodejs_als"] # bench only: AsyncLocalStorage (node:async_hooks)',
    );
  }
  return `# Derived by bench/lib/far-readers/config.mjs from wrangler.toml for the far-readers benchmark. Never deployed.\n${lines.join('\n')}`;
}

/** Copies the bench entry into the snapshot `dir` and writes the derived config there; returns its path. */
export function writeFarReadersConfig(dir: string): string {
  mkdirSync(path.join(dir, 'bench/workers'), { recursive: true });
  for (const file of ENTRY_FILES) {
    cpSync(path.join(ROOT, 'bench/workers', file), path.join(dir, 'bench/workers', file));
  }
  const config = path.join(dir, FAR_READERS_CONFIG);
  writeFileSync(config, deriveConfig(readFileSync(path.join(dir, 'wrangler.toml'), 'utf8')));
  return config;
}
