// Scan throughput (issue 3): 2,000 generated CBZs (50 small real JPEG pages + ComicInfo.xml each, 100
// series folders of 20) uploaded through the API into the real worker's local R2, then a first scan, a
// no-change rescan and a deep scan, each timed from POST /libraries/{id}/scan to the scan's completedAt
// (targets: first scan ≥ 200 books/s, no-change rescan ≥ 2,000 books/s). The deferred per-book work goes
// to the book-work queue, which no process consumes here: bench/ingest.bench.mjs measures it.
import path from 'node:path';
import sharp from 'sharp';
import { BOOKS_PER_SERIES, book, DISTINCT_PAGES, distinctPages, PAGES_PER_BOOK } from './lib/comic-library.mjs';
import { environmentLines, markdownTable, percentile, summarize, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';
import { snapshotSources } from './lib/source-snapshot.mjs';
import { applyMigrations, removeDir, startWranglerDev, tempStateDir } from './lib/wrangler-dev.mjs';
import { setupAdminClient } from './lib/admin-client.mjs';
import { createLibrary, uploadBookFile } from './lib/seed-library.mjs';

// LONGBOX_BENCH_SERIES: fewer series for a quick profiling run (nothing is written to BENCHMARKS.md;
// LONGBOX_BENCH_ROUNDS sets its rounds); LONGBOX_BENCH_SOURCES: run an already prepared copy of the
// sources (e.g. instrumented) instead of a snapshot.
const QUICK = process.env.LONGBOX_BENCH_SERIES !== undefined;
const SERIES = QUICK ? Number(process.env.LONGBOX_BENCH_SERIES) : sized(100, 1);
const UPLOAD_CONCURRENCY = 8;
const POLL_MS = 25;
const ROUNDS = QUICK ? Number(process.env.LONGBOX_BENCH_ROUNDS ?? 1) : sized(3, 1);
/** Before a timed scan the worker must answer GET /health this fast, this many times in a row (bounded). */
const QUIET_MS = 150;
const QUIET_STREAK = 3;
const QUIET_TIMEOUT_MS = 5 * 60_000;
const SCAN_TIMEOUT_MS = 15 * 60_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function mapLimited(count, limit, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

async function main() {
  sharp.concurrency(1);
  const pages = await distinctPages();
  const state = tempStateDir('scan');
  let worker;
  try {
    const prepared = process.env.LONGBOX_BENCH_SOURCES;
    const sources = prepared
      ? { api: path.join(prepared, 'wrangler.toml'), renderer: path.join(prepared, 'renderer/wrangler.toml') }
      : snapshotSources(path.join(state, 'sources'));
    const configs = [sources.api, sources.renderer];
    const data = path.join(state, 'data');
    applyMigrations(configs[0], data);
    worker = await startWranglerDev({ config: configs, persistTo: data, readyPath: '/api/v1/health' });
    const api = `${worker.url}/api/v1`;
    const { auth, call } = await setupAdminClient(api);
    const benchLibrary = () => createLibrary(call, 'Bench comics', 'bench');
    let libraryId = await benchLibrary();

    // Upload through PUT /libraries/{id}/files/{path}, as the import command does.
    const total = SERIES * BOOKS_PER_SERIES;
    let uploadedBytes = 0;
    const uploadStarted = Date.now();
    await mapLimited(total, UPLOAD_CONCURRENCY, async (i) => {
      const { key, bytes } = book(i, pages);
      await uploadBookFile({ api, auth }, libraryId, key, bytes);
      uploadedBytes += bytes.length;
    });
    const uploadSeconds = (Date.now() - uploadStarted) / 1000;
    console.log(`uploaded ${total} books (${(uploadedBytes / 1024 ** 2).toFixed(0)} MiB) in ${uploadSeconds} s`);

    /** One scan: POST, then scan-status until it is no longer running. */
    const runScan = async (mode) => {
      const requested = new Date().toISOString();
      const postedAt = Date.now();
      const started = process.hrtime.bigint();
      const start = await call('POST', `/libraries/${libraryId}/scan?mode=${mode}`);
      if (start.status !== 202) throw new Error(`scan start failed: ${JSON.stringify(start)}`);
      let status;
      for (const deadline = Date.now() + SCAN_TIMEOUT_MS; ; ) {
        status = (await call('GET', `/libraries/${libraryId}/scan-status`)).body;
        if (status.status !== 'running') break;
        if (Date.now() > deadline) throw new Error(`scan still running: ${JSON.stringify(status)}`);
        await sleep(POLL_MS);
      }
      const observedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (status.status !== 'completed') throw new Error(`scan ended ${status.status}: ${status.message}`);
      // Same host clock: the scan's own completion time, whatever delays the status request.
      const seconds = (Date.parse(status.completedAt) - postedAt) / 1000;
      console.log(
        `${mode} scan: ${seconds.toFixed(2)} s (observed ${observedSeconds.toFixed(2)} s)`,
        JSON.stringify(status),
      );
      return { requested, seconds, observedSeconds, status };
    };
    const untilQuiet = async () => {
      for (let streak = 0, deadline = Date.now() + QUIET_TIMEOUT_MS; streak < QUIET_STREAK; ) {
        if (Date.now() > deadline) throw new Error('the worker stayed busy after its tasks were cancelled');
        const started = process.hrtime.bigint();
        await (await fetch(`${api}/health`)).arrayBuffer();
        streak = Number(process.hrtime.bigint() - started) / 1e6 < QUIET_MS ? streak + 1 : 0;
        await sleep(200);
      }
    };

    const KINDS = [
      { label: `first scan (${total.toLocaleString('en-US')} new books)`, mode: 'normal', target: 200 },
      { label: 'no-change rescan', mode: 'normal', target: 2000 },
      { label: 'deep scan (re-analyse all)', mode: 'deep' },
    ];
    const scans = KINDS.map(() => []);
    for (let round = 1; round <= ROUNDS; round++) {
      if (round > 1) {
        // A fresh library on the same files: the next round's first scan is a first scan again.
        const removed = await call('DELETE', `/libraries/${libraryId}`);
        if (removed.status !== 204) throw new Error(`library deletion failed: ${JSON.stringify(removed)}`);
        libraryId = await benchLibrary();
      }
      for (const [k, kind] of KINDS.entries()) {
        scans[k].push(await runScan(kind.mode));
        await untilQuiet();
      }
    }

    const books = total;
    const seconds = (v) => v.toFixed(2);
    const scanRows = KINDS.map((kind, k) => {
      const times = scans[k].map((scan) => scan.seconds);
      const median = percentile(times, 50);
      const rate = books / median;
      const last = scans[k].at(-1).status;
      const target = kind.target
        ? `${rate >= kind.target ? 'meets' : 'MISSES'} ≥ ${kind.target.toLocaleString('en-US')}/s`
        : '—';
      return [
        kind.label,
        times.map(seconds).join(' / '),
        seconds(median),
        Math.round(rate).toLocaleString('en-US'),
        `${last.booksAdded} / ${last.booksUpdated} / ${last.booksDeleted} / ${last.errors}`,
        target,
      ];
    });
    const table = markdownTable(
      [
        'scan',
        `scan s, rounds 1–${ROUNDS} (POST → completedAt)`,
        'median s',
        'books/s (median)',
        'added / updated / deleted / errors',
        'target',
      ],
      scanRows,
    );
    console.log(table);
    if (QUICK) {
      console.log(worker.output());
      return;
    }
    const bookSizes = summarize(Array.from({ length: 20 }, (_, i) => book(i * 97, pages).bytes.length));
    writeSection(
      'Library scan throughput',
      [
        `${books.toLocaleString('en-US')} CBZs generated by bench/scan.bench.mjs: ${SERIES} series folders of ${BOOKS_PER_SERIES},`,
        `each book ${PAGES_PER_BOOK} stored JPEG pages (200×300 comic-like pages made with sharp, ${DISTINCT_PAGES} distinct,`,
        `${(pages.reduce((n, p) => n + p.length, 0) / pages.length / 1024).toFixed(1)} KiB on average)`,
        `plus a deflated ComicInfo.xml (series, number, title, summary, writer, publisher, year, genres, tags); a book is`,
        `~${Math.round(bookSizes.median / 1024)} KiB, ${(uploadedBytes / 1024 ** 2).toFixed(0)} MiB in all. They are uploaded through`,
        `PUT /api/v1/libraries/{id}/files/{path} (${UPLOAD_CONCURRENCY} at a time: ${uploadSeconds.toFixed(0)} s) into the real worker`,
        '(wrangler.toml + renderer/wrangler.toml in one `wrangler dev`, run on a snapshot copy of the sources so edits',
        'elsewhere in the tree cannot restart it mid-run; local D1/R2/Durable Objects in a fresh .tmp/ directory;',
        'default LONGBOX_SCAN__SLICE_MS, i.e. 10 s alarm slices).',
        '',
        '**Scan time** = the scan-status `completedAt` (written by the LibraryScan Durable Object when the scan ends)',
        'minus the moment Node sent POST /libraries/{id}/scan — same host clock, so it includes the request, the',
        'alarm scheduling and every slice. books/s = books / the median scan time.',
        `${ROUNDS} rounds of first scan → no-change rescan → deep scan; between rounds the library is deleted and`,
        'created again on the same files (so each round starts with a real first scan).',
        '',
        'Thumbnails, page dimensions and hashes are deferred to the book-work queue (one message per book, sent',
        'while the scan goes on); this benchmark runs no consumer, so they are not part of these times: "Ingest end',
        'to end" measures them. Before each scan the worker must answer GET /health within',
        `${QUIET_MS} ms ${QUIET_STREAK} times in a row.`,
        '',
        table,
        '',
        'R2 bytes read per analysed CBZ: a 50-page book here costs 2 ranged gets (first KiB + last 64 KiB; ComicInfo.xml',
        'is answered from those), ~66 KB; for a 100 MB CBZ see "Book analysis: bytes read and memory on large files".',
        'The machine is a 2-core VM shared with other work (load average below): compare rows of one run, and',
        'expect a few tenths of a second between rounds.',
        '',
        ...environmentLines('npm run bench -- scan'),
      ].join('\n'),
    );
  } finally {
    await worker?.stop();
    removeDir(state);
  }
}

await main();
