// BENCH_SMOKE=1 (`npm run bench -- --smoke`, and `npm test` through test/bench/bench-smoke.test.ts): every
// bench runs its whole path — start the workers, load, measure, build its table — at tiny sizes, in seconds,
// so a bench cannot rot unnoticed between real runs. A smoke run writes nothing to docs/BENCHMARKS.md
// (writeSection in report.mjs refuses): its numbers mean nothing.
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** `full` in a real run, `smoke` in a smoke run. */
export function sized(full, smoke) {
  return SMOKE ? smoke : full;
}
