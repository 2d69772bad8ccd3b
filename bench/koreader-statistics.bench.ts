// KOReader statistics uploads (issue 35 point 2): how long the Worker's own read-only SQLite reader
// (src/lib/sqlite-file.ts, src/reading/koreader-statistics.ts) takes to turn KOReader's `statistics.sqlite3` into
// sittings — at a heavy reader's year (~100,000 page visits, ~5 MB) and near the upload's 32 MiB bound — and what
// it adds to the Worker's code. Reference in the same run: Node's built-in SQLite (native C, the engine that wrote
// the files) reading the same rows. Runs in Node: the same V8 as workerd, whose own clock does not advance while
// it computes (bench/README.md).
import { gzipSync } from 'node:zlib';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { build } from 'esbuild';
import { readKoreaderStatistics } from '../src/reading/koreader-statistics';
import { MERGE_WINDOW_MS } from '../src/reading/rules';
import { koreaderStatisticsFile } from '../test/support/koreader-statistics-db.mjs';
import type { KoreaderBookSpec } from '../test/support/koreader-statistics-spec.mjs';
import { environmentLines, markdownTable, ms, ROOT, summarize, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';

const SIZES = sized(
  [
    { label: 'a year of heavy reading', visits: 100_000 },
    { label: 'near the 32 MiB bound', visits: 500_000 },
  ],
  [{ label: 'smoke', visits: 2_000 }],
);
const RUNS = sized(16, 2);
const PAGES_PER_SITTING = 25;

/** `visits` page visits over 200 books: sittings of 25 pages at 40–80 s a page, a sitting every 3 hours. */
function library(visits: number): KoreaderBookSpec[] {
  const books: KoreaderBookSpec[] = Array.from({ length: 200 }, (_, i) => ({
    title: `Book ${i + 1}`,
    authors: `Author ${i % 37}`,
    md5: i.toString(16).padStart(32, '0'),
    totalPages: 400,
    visits: [],
  }));
  let start = Date.parse('2024-01-01T08:00:00Z') / 1000;
  for (let v = 0; v < visits; v++) {
    const sitting = Math.floor(v / PAGES_PER_SITTING);
    const book = books[sitting % books.length] as KoreaderBookSpec;
    if (v % PAGES_PER_SITTING === 0) start += 3 * 3600;
    const seconds = 40 + ((v * 7) % 41);
    book.visits.push({ page: 1 + (v % 400), start, duration: seconds });
    start += seconds;
  }
  return books;
}

/** Node's SQLite reading the same rows (books, then every visit), from a file as it must. */
function nativeRead(bytes: Uint8Array): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'koreader-bench-'));
  try {
    const file = path.join(dir, 'statistics.sqlite3');
    writeFileSync(file, bytes);
    const started = performance.now();
    const db = new DatabaseSync(file, { readOnly: true });
    db.prepare('SELECT id, md5, title, authors FROM book').all();
    const rows = db.prepare('SELECT id_book, page, start_time, duration FROM page_stat_data').all();
    db.close();
    if (rows.length === 0) throw new Error('no rows');
    return performance.now() - started;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function codeSize() {
  const result = await build({
    stdin: {
      contents: "export { readKoreaderStatistics } from './src/reading/koreader-statistics';",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
  });
  const bytes = result.outputFiles[0]?.contents as Uint8Array;
  return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const rows: string[][] = [];
for (const size of SIZES) {
  const bytes = koreaderStatisticsFile(library(size.visits));
  const ours: number[] = [];
  const native: number[] = [];
  let sittings = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    sittings = readKoreaderStatistics(bytes, MERGE_WINDOW_MS).sittings.length;
    ours.push(performance.now() - started);
    native.push(nativeRead(bytes));
  }
  // The first read runs the reader's code cold (as an isolate's first upload does); the others warm.
  const [a, b] = [summarize(ours.slice(1)), summarize(native)];
  rows.push([
    size.label,
    size.visits.toLocaleString('en-US'),
    `${(bytes.length / 1024 / 1024).toFixed(1)} MB`,
    `${Math.round(bytes.length / size.visits)} B`,
    sittings.toLocaleString('en-US'),
    ms(ours[0] as number),
    `${ms(a.median)} / ${ms(a.p95)}`,
    `${ms(b.median)} / ${ms(b.p95)}`,
  ]);
  console.log(rows.at(-1)?.join(' | '));
}
const size = await codeSize();
console.log(`code: ${size.minified} B minified, ${size.gzip} B gzip`);

writeSection(
  'KOReader statistics uploads',
  [
    ...environmentLines('npm run bench -- koreader-statistics'),
    '',
    `Reading KOReader's \`statistics.sqlite3\` into sittings with the Worker's own read-only SQLite reader, ${RUNS} runs each ` +
      '(the first with the code cold, as in an isolate’s first upload), ' +
      "files written by SQLite itself (node:sqlite, KOReader's schema and inserts: 200 books, sittings of 25 pages at 40–80 s). " +
      "Reference: Node's built-in SQLite (native) reading the same rows, from a file.",
    '',
    markdownTable(
      [
        'file',
        'page visits',
        'size',
        'per visit',
        'sittings',
        'our reader → sittings: first run, ms',
        'then p50 / p95 ms',
        'node:sqlite SELECT, p50 / p95 ms',
      ],
      rows,
    ),
    '',
    `The reader and KOReader's schema in the Worker: ${(size.minified / 1024).toFixed(1)} KiB minified, ` +
      `${(size.gzip / 1024).toFixed(1)} KiB gzip (esbuild). A WASM SQLite would add its .wasm to the Worker ` +
      '(README design notes: sql.js 1.17: 688 KB of .wasm and 64 KB of JavaScript; @sqlite.org/sqlite-wasm 3.41: 867 KB of .wasm).',
  ].join('\n'),
);
