#!/usr/bin/env node
// `npm run bench [-- [--smoke] <filter>... [--option[=value]]...]`: runs every bench/*.bench.mjs (and *.bench.ts,
// through tsx) one after another, each in its own Node process, or only those whose file name contains one of
// the filters. Other `--` options are passed on to each selected bench (e.g. far-readers' `--rows=page`).
// Each bench file writes its own `##` section of docs/BENCHMARKS.md (see bench/README.md). `--smoke`
// (BENCH_SMOKE=1) runs each at tiny sizes and writes nothing: a check that every bench still runs.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = path.join(root, 'bench');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const filters = args.filter((a) => !a.startsWith('--')).map((f) => f.toLowerCase());
const benchOptions = args.filter((a) => a.startsWith('--') && a !== '--smoke');

const all = readdirSync(benchDir)
  .filter((name) => /\.bench\.(mjs|ts)$/.test(name))
  .sort();
const selected = filters.length === 0 ? all : all.filter((name) => filters.some((f) => name.toLowerCase().includes(f)));

if (selected.length === 0) {
  console.error(`No bench file matches ${filters.join(', ') || '(none found)'}. Available: ${all.join(', ')}`);
  process.exit(1);
}

// The API worker serves the web app's build (wrangler.toml [assets]) and will not start without it: build
// it first, as `npm start` and `npm test` do, so a fresh clone can run every bench.
const web = spawnSync(process.execPath, [path.join(root, 'scripts/build-web.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CI: 'true' },
});
if (web.status !== 0) process.exit(web.status ?? 1);

const env = { ...process.env, ...(smoke ? { BENCH_SMOKE: '1' } : {}) };
const failed = [];
for (const name of selected) {
  console.log(`\n▶ ${name}${smoke ? ' (smoke)' : ''}`);
  const benchFile = path.join(benchDir, name);
  const benchArgs = [...(name.endsWith('.ts') ? ['--import', 'tsx', benchFile] : [benchFile]), ...benchOptions];
  const started = Date.now();
  // process.execPath: the pinned Node that npm put first on PATH, also for the bench's own children.
  const result = spawnSync(process.execPath, benchArgs, { cwd: root, stdio: 'inherit', env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) console.log(`✔ ${name} (${seconds} s)`);
  else {
    console.log(`✘ ${name} failed (exit ${result.status ?? result.signal}, ${seconds} s)`);
    failed.push(name);
  }
}

const where = smoke ? 'smoke run: docs/BENCHMARKS.md not written' : 'results in docs/BENCHMARKS.md';
console.log(`\n${selected.length - failed.length}/${selected.length} benchmarks done; ${where}`);
process.exit(failed.length === 0 ? 0 : 1);
