/**
 * Every benchmark still runs (issue 23): each bench/*.bench.{mjs,ts} file is run as `npm run bench` runs it
 * (its own Node process, `.ts` through tsx), with BENCH_SMOKE=1 — tiny sizes, the whole path: workers
 * started, data made, requests measured, table built, everything stopped. A bench that crashes, hangs or
 * leaves docs/BENCHMARKS.md changed fails here, long before someone needs its numbers. A new bench file is
 * picked up by itself and must honour BENCH_SMOKE (bench/lib/smoke.mjs) to finish within BENCH_TIMEOUT_MS.
 *
 * The `bench` vitest project runs after all the others (vitest.config.ts, sequence.groupOrder), so the
 * benches do not compete with the test suite. Two run at a time; the two Chromium benches never together,
 * since each writes its reference page into dist/web, which every `wrangler dev` on the checkout serves.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { chromiumPath, MISSING_CHROMIUM } from '../e2e/support/browser';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BENCH_DIR = path.join(ROOT, 'bench');
const BENCHMARKS_MD = path.join(ROOT, 'docs', 'BENCHMARKS.md');
/** One smoke run may take this long (they take 5–50 s each on a busy 2-core machine). */
const BENCH_TIMEOUT_MS = 240_000;
const PARALLEL = 2;

interface Bench {
  file: string;
  needsChromium: boolean;
}

const benches: Bench[] = readdirSync(BENCH_DIR)
  .filter((name) => /\.bench\.(mjs|ts)$/.test(name))
  .sort()
  .map((file) => ({
    file,
    needsChromium: readFileSync(path.join(BENCH_DIR, file), 'utf8').includes('e2e/support/browser'),
  }))
  // The long ones first, so the two lanes finish close together.
  .sort(
    (a, b) =>
      Number(b.needsChromium || b.file.startsWith('ingest')) - Number(a.needsChromium || a.file.startsWith('ingest')),
  );

/** A counting lock: `acquire()` resolves with a release function once one of `slots` is free. */
function lock(slots: number): () => Promise<() => void> {
  let free = slots;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return () =>
    new Promise((resolve) => {
      if (free > 0) {
        free--;
        resolve(release);
      } else waiting.push(() => resolve(release));
    });
}
const lane = lock(PARALLEL);
const browser = lock(1);

const fingerprint = () =>
  existsSync(BENCHMARKS_MD) ? createHash('sha256').update(readFileSync(BENCHMARKS_MD)).digest('hex') : '';

/** Runs one bench file in smoke mode; resolves with its exit code and the tail of its output. */
function runBench(file: string): Promise<{
  code: number | null;
  signal: string | null;
  output: string;
  smokeNoticed: boolean;
  seconds: number;
}> {
  const args = file.endsWith('.ts') ? ['--import', 'tsx', path.join(BENCH_DIR, file)] : [path.join(BENCH_DIR, file)];
  const started = Date.now();
  return new Promise((resolve) => {
    // process.execPath: the pinned Node 22 vitest runs on, as scripts/bench.mjs uses.
    const child: ChildProcess = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, BENCH_SMOKE: '1', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let smokeNoticed = false;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8_000);
      // writeSection's notice (bench/lib/report.mjs): the bench knew it was a smoke run.
      smokeNoticed ||= output.includes('smoke run: "## ');
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    // SIGTERM lets the bench's own signal handling stop the servers it started (bench/lib/wrangler-dev.mjs).
    const timer = setTimeout(() => child.kill('SIGTERM'), BENCH_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output, smokeNoticed, seconds: (Date.now() - started) / 1000 });
    });
  });
}

describe('every benchmark runs to completion at smoke size (BENCH_SMOKE=1)', () => {
  if (!chromiumPath && benches.some((b) => b.needsChromium)) console.warn(MISSING_CHROMIUM);

  test('there are benchmarks to run', () => {
    expect(benches.length).toBeGreaterThan(0);
  });

  for (const bench of benches) {
    test.skipIf(bench.needsChromium && !chromiumPath).concurrent(
      bench.file,
      async () => {
        const releaseBrowser = bench.needsChromium ? await browser() : () => {};
        const release = await lane();
        try {
          const before = fingerprint();
          const run = await runBench(bench.file);
          console.log(`${bench.file}: smoke run ${run.seconds.toFixed(1)} s`);
          expect(
            { code: run.code, signal: run.signal },
            `${bench.file} did not finish cleanly within ${BENCH_TIMEOUT_MS / 1000} s:\n${run.output}`,
          ).toEqual({ code: 0, signal: null });
          expect(run.smokeNoticed, `${bench.file} never reached writeSection, or did not know it was a smoke run`).toBe(
            true,
          );
          expect(fingerprint(), `${bench.file} changed docs/BENCHMARKS.md in a smoke run`).toBe(before);
        } finally {
          release();
          releaseBrowser();
        }
      },
      // Waiting for a free lane counts too: up to all benches ahead of this one.
      BENCH_TIMEOUT_MS * benches.length,
    );
  }
});
