/**
 * Property-based fuzzing of the format readers (issue 13): valid fixtures with bytes flipped or
 * overwritten, cut short, spliced, and with 16/32-bit fields overwritten by inflated lengths and
 * out-of-bounds offsets. Every case must end in a result or a BookAnalysisError within a time bound —
 * never another exception, a hang, a read outside the file, or runaway reading.
 *
 * `npm test` runs FUZZ_RUNS (default 400) cases per reader; `npm run fuzz` runs 100,000.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { BookAnalysisError } from '../../src/media/errors';
import { memoryRangeReader, type RangeReader } from '../../src/media/range-reader';

export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 400);
/** One case's time bound: generous for a shared 2-core machine; a real hang never finishes. */
export const CASE_TIME_LIMIT_MS = Number(process.env.FUZZ_CASE_MS ?? 10_000);
/** Time for a whole fuzz test at `runs` cases. */
export const fuzzTimeout = (perCaseMs = 20) => Math.max(120_000, FUZZ_RUNS * perCaseMs);

type SizeRelative = 'size' | 'size+1' | 'size-1' | 'half';
type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'int'; at: number; width: 2 | 4; little: boolean; value: number | SizeRelative }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'copy'; from: number; to: number; length: number };

const position = fc.nat({ max: 0x7fffffff });
const interesting = fc.oneof(
  fc.constantFrom<number | SizeRelative>(0, 1, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0xffffffff),
  fc.constantFrom<SizeRelative>('size', 'size+1', 'size-1', 'half'),
  fc.nat({ max: 0xffffffff }),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('flip' as const), at: position, bit: fc.nat({ max: 7 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('set' as const), at: position, value: fc.nat({ max: 255 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: position }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('int' as const),
      at: position,
      width: fc.constantFrom(2 as const, 4 as const),
      little: fc.boolean(),
      value: interesting,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      at: position,
      length: fc.integer({ min: 1, max: 64 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      at: position,
      bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('copy' as const),
      from: position,
      to: position,
      length: fc.integer({ min: 1, max: 256 }),
    }),
  },
);

function resolve(value: number | SizeRelative, size: number): number {
  if (typeof value === 'number') return value;
  return { size, 'size+1': size + 1, 'size-1': size - 1, half: size >> 1 }[value];
}

export function mutate(seed: Uint8Array, mutations: Mutation[]): Uint8Array {
  let bytes = seed.slice();
  for (const m of mutations) {
    if (bytes.length === 0) break;
    const at = (m.kind === 'copy' ? m.to : m.at) % bytes.length;
    if (m.kind === 'flip') bytes[at] = (bytes[at] as number) ^ (1 << m.bit);
    else if (m.kind === 'set') bytes[at] = m.value;
    else if (m.kind === 'truncate') bytes = bytes.slice(0, at);
    else if (m.kind === 'int') {
      const value = resolve(m.value, bytes.length) >>> 0;
      for (let i = 0; i < m.width && at + i < bytes.length; i++) {
        const shift = 8 * (m.little ? i : m.width - 1 - i);
        bytes[at + i] = (value >>> shift) & 0xff;
      }
    } else if (m.kind === 'delete')
      bytes = Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + m.length)]);
    else if (m.kind === 'insert')
      bytes = Uint8Array.from([...bytes.subarray(0, at), ...m.bytes, ...bytes.subarray(at)]);
    else {
      const from = m.from % bytes.length;
      bytes.set(bytes.subarray(from, Math.min(bytes.length, from + m.length)).slice(0, bytes.length - at), at);
    }
  }
  return bytes;
}

export const fuzzCase = (seeds: readonly Uint8Array[]) =>
  fc
    .record({
      seed: fc.nat({ max: seeds.length - 1 }),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 6 }),
    })
    .map(({ seed, mutations }) => mutate(seeds[seed] as Uint8Array, mutations));

/** A reader over `bytes` that records every request outside the file and how much was read. */
export function guardedReader(bytes: Uint8Array): RangeReader & { outside: string[]; bytesRead: number } {
  const inner = memoryRangeReader(bytes);
  const guarded = {
    size: bytes.length,
    outside: [] as string[],
    bytesRead: 0,
    check(offset: number, length: number) {
      if (!(Number.isSafeInteger(offset) && Number.isSafeInteger(length) && offset >= 0 && length >= 0)) {
        guarded.outside.push(`${offset}+${length}`);
      } else if (offset + length > bytes.length) {
        // Where from: the first frames in src/ say which reader asked.
        const from = (new Error().stack ?? '')
          .split('\n')
          .filter((line) => line.includes('/src/'))
          .slice(0, 2);
        guarded.outside.push(`${offset}+${length} of ${bytes.length} ${from.join(' < ')}`);
      }
      guarded.bytesRead += Math.max(0, length);
    },
    read(offset: number, length: number) {
      guarded.check(offset, length);
      return inner.read(offset, length);
    },
    stream(offset: number, length: number) {
      guarded.check(offset, length);
      return inner.stream(offset, length);
    },
  };
  return guarded;
}

export interface FuzzCounts {
  cases: number;
  results: number;
  analysisErrors: number;
  slowestMs: number;
}

/** Runs `exercise` on each case and fails on anything but a result or a BookAnalysisError. */
export async function fuzzReader(
  name: string,
  seeds: readonly Uint8Array[],
  exercise: (reader: RangeReader) => Promise<unknown>,
  options: { runs?: number; seed?: number } = {},
): Promise<FuzzCounts> {
  const counts: FuzzCounts = { cases: 0, results: 0, analysisErrors: 0, slowestMs: 0 };
  // The unmutated seeds must be readable, or the fuzzing starts from nothing.
  for (const seed of seeds) await exercise(memoryRangeReader(seed));
  await fc.assert(
    fc.asyncProperty(fuzzCase(seeds), async (bytes) => {
      const reader = guardedReader(bytes);
      const started = performance.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const outcome = await Promise.race([
        exercise(reader).then(
          () => 'result' as const,
          (error: unknown) => error,
        ),
        new Promise((resolve) => {
          timer = setTimeout(
            () => resolve(new Error(`no answer within ${CASE_TIME_LIMIT_MS} ms (hang)`)),
            CASE_TIME_LIMIT_MS,
          );
        }),
      ]);
      clearTimeout(timer);
      counts.cases++;
      counts.slowestMs = Math.max(counts.slowestMs, performance.now() - started);
      if (outcome === 'result') counts.results++;
      else if (outcome instanceof BookAnalysisError) counts.analysisErrors++;
      else throw new Error(`${name}: not a BookAnalysisError: ${String((outcome as Error)?.stack ?? outcome)}`);
      if (reader.outside.length > 0) throw new Error(`${name}: read outside the file: ${reader.outside.slice(0, 3)}`);
      // Runaway reading: far more than the file, beyond what a few retries of small windows explain.
      const budget = 64 * bytes.length + 4 * 1024 * 1024;
      if (reader.bytesRead > budget)
        throw new Error(`${name}: read ${reader.bytesRead} bytes of a ${bytes.length}-byte file`);
    }),
    { numRuns: options.runs ?? FUZZ_RUNS, seed: options.seed, endOnFailure: true },
  );
  console.log(
    `FUZZ ${name}: ${counts.cases} cases, ${counts.results} results, ${counts.analysisErrors} BookAnalysisError, 0 other; slowest ${counts.slowestMs.toFixed(0)} ms`,
  );
  expect(counts.cases).toBe(options.runs ?? FUZZ_RUNS);
  return counts;
}

/** Drains a page stream (its errors must be BookAnalysisErrors too). */
export async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stream.getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return total;
    total += value.length;
  }
}
