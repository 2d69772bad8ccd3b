// Ingest end to end (issue 11): `npm start` (scripts/start.mjs: the API process and the book-work consumer
// process over one local state) imports (1) the 2,000-book benchmark library and (2) 100 realistic books
// (1988×3056 JPEG pages, 25–40 MB each), timed from POST /libraries/{id}/scan until every book is complete —
// page sizes, fileHash, readerHash and a thumbnail — as the scan's hash_files and generate_thumbnails task
// rows report it. Meanwhile GET /series, GET /tasks and a page are requested in a loop (API latency during
// ingest) and the workerd processes' memory is sampled. The reference in the same run: the bare cost of one
// sequential read of every file from the same local R2 (bench/workers/r2-object.ts, GET /read-all).
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { book, distinctPages } from './lib/comic-library.mjs';
import { environmentLines, markdownTable, percentile, ROOT, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';
import { snapshotSources } from './lib/source-snapshot.mjs';
import { removeDir, startWranglerDev, tempStateDir } from './lib/wrangler-dev.mjs';
import { mapLimited, stackProcesses, startLongbox } from './lib/longbox-stack.mjs';
import { setupAdminClient } from './lib/admin-client.mjs';
import { createLibrary, uploadBookFile } from './lib/seed-library.mjs';

// LONGBOX_BENCH_BOOKS: a smaller benchmark library for a quick run (nothing is written);
// LONGBOX_BENCH_REALISTIC: fewer realistic books (written, and the table says how many).
const QUICK = process.env.LONGBOX_BENCH_BOOKS !== undefined;
const BOOKS = QUICK ? Number(process.env.LONGBOX_BENCH_BOOKS) : sized(2000, 6);
const REALISTIC = Number(process.env.LONGBOX_BENCH_REALISTIC ?? (QUICK ? 4 : sized(100, 1)));
/** Distinct realistic pages the books are made of (each takes a second or two to draw). */
const REALISTIC_PAGES = sized(16, 2);
const UPLOAD_CONCURRENCY = 8;
const PROBE_PAUSE_MS = 100;
const IDLE_PROBE_MS = QUICK ? 5_000 : sized(20_000, 1_000);
const INGEST_TIMEOUT_MS = 30 * 60_000;
const TARGET_BOOKS_PER_S = 100;
const TARGET_LIST_P99_MS = 250;
const TARGET_PAGE_P99_MS = 500;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const MB = 1e6;

/** A realistic scanned page: 1988×3056, drawn panels over paper grain, JPEG q85 (~1 MB). */
async function realisticPage(seed) {
  const width = 1988;
  const height = 3056;
  const raw = Buffer.alloc(width * height * 3);
  let state = (seed + 1) * 2654435761;
  for (let y = 0; y < height; y++) {
    const panel = Math.floor(y / 760);
    for (let x = 0; x < width; x++) {
      state = (state * 1103515245 + 12345) >>> 0;
      const grain = (state >>> 24) % 22;
      const border = x % 660 < 12 || y % 760 < 12;
      const i = (y * width + x) * 3;
      const base = border ? 20 : 150 + ((panel * 40 + seed * 13 + (x >> 6)) % 80);
      raw[i] = base + grain;
      raw[i + 1] = Math.max(0, base - 30) + grain;
      raw[i + 2] = Math.max(0, base - 60) + ((grain * 3) % 22);
    }
  }
  return new Uint8Array(
    await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 85 })
      .toBuffer(),
  );
}

/** Realistic book i: 26–38 pages drawn from the distinct ones, stored as comic archives are. */
function realisticBook(i, pages) {
  const files = {};
  const count = 26 + (i % 13);
  for (let p = 0; p < count; p++)
    files[`${String(p + 1).padStart(3, '0')}.jpg`] = [pages[(i * 5 + p) % pages.length], { level: 0 }];
  return {
    key: `Real Series ${String(Math.floor(i / 10) + 1).padStart(2, '0')}/Real ${String(i + 1).padStart(3, '0')}.cbz`,
    bytes: zipSync(files),
  };
}

/** The workerd processes of `npm start` (each process's runtime and its dev proxy), by role. */
function workerdProcesses(rootPid) {
  return stackProcesses(rootPid).filter((p) => p.kind === 'runtime' || p.kind === 'proxy');
}

/** Resident memory of the workerd processes, by role. */
function workerdMemory(processes) {
  const rss = { api: 0, jobs: 0 };
  for (const { pid, role } of processes) {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      rss[role] += kb * 1024;
    } catch {}
  }
  return rss;
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds the whole machine has been busy (all cores, /proc/stat): what else ran is told apart. */
function machineBusySeconds() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle + iowait
  return (ticks.reduce((a, b) => a + b, 0) - idle) / CLOCK_TICKS;
}
/** CPU seconds (user + system) each role's workerd has used so far. */
function workerdCpuSeconds(processes) {
  const cpu = { api: 0, jobs: 0 };
  for (const { pid, role } of processes) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu[role] += (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {}
  }
  return cpu;
}

async function main() {
  sharp.concurrency(1);
  const state = tempStateDir('ingest');
  let server;
  try {
    const sources = snapshotSources(path.join(state, 'sources'));
    const data = path.join(state, 'data');
    server = await startLongbox({ sources, data });
    const processes = workerdProcesses(server.pid);
    const api = `${server.url}/api/v1`;
    const { auth, call } = await setupAdminClient(api);
    const upload = (libraryId, key, bytes) => uploadBookFile({ api, auth }, libraryId, key, bytes);

    // A book to read while the others are ingested (page requests), complete before anything is timed.
    const pages = await distinctPages();
    const readerLibrary = await createLibrary(call, 'Reading', 'reading');
    await upload(readerLibrary, 'Reading/Reading #01.cbz', book(0, pages).bytes);

    const libraries = [];
    const smallLibrary = await createLibrary(call, 'Bench comics', 'bench');
    let smallBytes = 0;
    let started = Date.now();
    await mapLimited(BOOKS, UPLOAD_CONCURRENCY, async (i) => {
      const { key, bytes } = book(i, pages);
      await upload(smallLibrary, key, bytes);
      smallBytes += bytes.length;
    });
    console.log(`uploaded ${BOOKS} books (${(smallBytes / MB).toFixed(0)} MB) in ${(Date.now() - started) / 1000} s`);
    libraries.push({
      label: `${BOOKS.toLocaleString('en-US')} benchmark CBZs`,
      id: smallLibrary,
      prefix: 'bench/',
      books: BOOKS,
      bytes: smallBytes,
    });

    started = Date.now();
    const realPages = [];
    for (let seed = 0; seed < REALISTIC_PAGES; seed++) realPages.push(await realisticPage(seed));
    const realLibrary = await createLibrary(call, 'Realistic comics', 'real');
    let realBytes = 0;
    const realSizes = [];
    await mapLimited(REALISTIC, 2, async (i) => {
      const { key, bytes } = realisticBook(i, realPages);
      await upload(realLibrary, key, bytes);
      realBytes += bytes.length;
      realSizes.push(bytes.length);
    });
    const pageKb = realPages.reduce((n, p) => n + p.length, 0) / realPages.length / 1024;
    console.log(
      `uploaded ${REALISTIC} realistic books (${(realBytes / MB).toFixed(0)} MB) in ${(Date.now() - started) / 1000} s`,
    );
    libraries.push({
      label: `${REALISTIC} realistic CBZs`,
      id: realLibrary,
      prefix: 'real/',
      books: REALISTIC,
      bytes: realBytes,
    });

    const scanAndWait = async (libraryId, expected, probe) => {
      const requested = new Date().toISOString();
      const postedAt = Date.now();
      const batchesBefore = server.batches.length;
      const cpuBefore = workerdCpuSeconds(processes);
      const busyBefore = machineBusySeconds();
      const start = await call('POST', `/libraries/${libraryId}/scan`);
      if (start.status !== 202) throw new Error(`scan start failed: ${JSON.stringify(start)}`);
      let rows = [];
      for (const deadline = Date.now() + INGEST_TIMEOUT_MS; ; ) {
        const list = await call('GET', `/tasks?library_id=${libraryId}&pageSize=50`);
        rows = list.body.data.filter((t) => t.createdAt >= requested);
        const rounds = rows.filter((t) => t.type === 'hash_files' || t.type === 'generate_thumbnails');
        if (rounds.length === 2 && rounds.every((t) => t.status === 'completed')) break;
        if (rows.some((t) => t.status === 'failed')) throw new Error(`a task failed: ${JSON.stringify(rows)}`);
        if (Date.now() > deadline) throw new Error(`ingest still running: ${JSON.stringify(rows)}\n${server.tail()}`);
        await sleep(250);
      }
      probe.stop = true;
      const cpuAfter = workerdCpuSeconds(processes);
      const machineBusy = machineBusySeconds() - busyBefore;
      const scanRow = rows.find((t) => t.type === 'scan_library');
      const done = Math.max(...rows.filter((t) => t.type !== 'scan_library').map((t) => Date.parse(t.completedAt)));
      const batches = server.batches.slice(batchesBefore);
      const completed = batches.reduce((n, b) => n + b.details, 0);
      const r2 = batches.reduce((n, b) => n + b.r2Requests, 0);
      // Every book complete, as the API shows it.
      let complete = 0;
      for (let page = 1; ; page++) {
        const list = await call('GET', `/books?library_id=${libraryId}&pageSize=500&page=${page}`);
        complete += list.body.data.filter((b) => /^[0-9a-f]{64}$/.test(b.fileHash) && b.analyzed).length;
        if (list.body.data.length < 500) break;
      }
      if (complete !== expected) throw new Error(`${complete} of ${expected} books complete`);
      // Where the consumers' time went (their "batch done" lines), for whoever reads the console.
      const sum = (field) => batches.reduce((n, b) => n + (b[field] ?? 0), 0);
      if (batches.length > 0) {
        console.log(
          `  ${batches.length} batches, ${(sum('messages') / batches.length).toFixed(1)} messages each;`,
          `per batch ${(sum('ms') / batches.length).toFixed(0)} ms (books ${(sum('booksMs') / batches.length).toFixed(0)} ms);`,
          `per book details ${(sum('detailsMs') / Math.max(1, sum('details'))).toFixed(0)} ms,`,
          `thumbnail ${(sum('thumbnailMs') / Math.max(1, sum('thumbnails'))).toFixed(0)} ms (wall, interleaved)`,
        );
      }
      const thumbnails = rows.find((t) => t.type === 'generate_thumbnails');
      return {
        seconds: (done - postedAt) / 1000,
        scanSeconds: (Date.parse(scanRow.completedAt) - postedAt) / 1000,
        r2PerBook: completed ? r2 / completed : 0,
        cpuSeconds: Object.fromEntries(Object.keys(cpuAfter).map((role) => [role, cpuAfter[role] - cpuBefore[role]])),
        machineBusy,
        completed,
        thumbnails: thumbnails.result,
      };
    };

    /** Requests a reader makes, in a loop, until `probe.stop`; memory sampled alongside. */
    const probing = (probe) =>
      (async () => {
        const samples = {
          series: [],
          tasks: [],
          page: [],
          failures: 0,
          memory: { api: 0, jobs: 0, total: 0 },
          slow: [], // requests over 200 ms, with when they started (s after the probe began), for the console
        };
        const began = Date.now();
        for (let n = 0; !probe.stop; n++) {
          for (const [kind, url] of [
            ['series', '/series?pageSize=50'],
            ['tasks', '/tasks?pageSize=20'],
            ['page', `/books/${readerBook.id}/pages/${(n % 50) + 1}`],
          ]) {
            const t = process.hrtime.bigint();
            const res = await fetch(`${api}${url}`, { headers: auth });
            await res.arrayBuffer();
            const took = Number(process.hrtime.bigint() - t) / 1e6;
            samples[kind].push(took);
            if (took > 200)
              samples.slow.push(
                `${kind} ${Math.round(took)} ms at ${((Date.now() - began - took) / 1000).toFixed(1)} s`,
              );
            if (res.status !== 200) samples.failures += 1;
          }
          const rss = workerdMemory(processes);
          samples.memory.api = Math.max(samples.memory.api, rss.api);
          samples.memory.jobs = Math.max(samples.memory.jobs, rss.jobs);
          samples.memory.total = Math.max(samples.memory.total, rss.api + rss.jobs);
          await sleep(PROBE_PAUSE_MS);
        }
        return samples;
      })();

    // The reading book first (untimed), then each library.
    await scanAndWait(readerLibrary, 1, {});
    const readerBook = (await call('GET', `/books?library_id=${readerLibrary}`)).body.data[0];
    const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' / ');
    // Reference for the latency rows, same run: the same loop against the idle server, so what the
    // machine's other load costs a request is told apart from what the ingest costs it.
    const idleProbe = { stop: false };
    const idlePromise = probing(idleProbe);
    await sleep(IDLE_PROBE_MS);
    idleProbe.stop = true;
    const idle = await idlePromise;
    const results = [];
    for (const library of libraries) {
      const probe = { stop: false };
      const samplesPromise = probing(probe);
      const ingest = await scanAndWait(library.id, library.books, probe);
      const samples = await samplesPromise;
      results.push({ library, ingest, samples });
      console.log(library.label, JSON.stringify(ingest), `latency samples ${samples.series.length}`);
      if (samples.slow.length > 0) console.log('  requests over 200 ms:', samples.slow.join('; '));
    }
    const loadAfter = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' / ');
    await server.stop();

    // The reference, same run, same local R2 files: one read of every file, nothing else.
    const bare = await startWranglerDev({
      config: path.join(ROOT, 'bench/workers/r2-object.toml'),
      persistTo: data,
      readyPath: '/ready',
    });
    for (const result of results) {
      result.bare = {};
      for (const concurrency of [1, 10]) {
        const res = await fetch(
          `${bare.url}/read-all?prefix=${encodeURIComponent(result.library.prefix)}&concurrency=${concurrency}`,
        );
        result.bare[concurrency] = await res.json();
      }
      console.log(result.library.label, 'bare read', JSON.stringify(result.bare));
    }
    await bare.stop();

    const rows = results.map(({ library, ingest, bare: b }) => {
      const rate = library.books / ingest.seconds;
      const bareSeconds = (c) => b[c].ms / 1000;
      return [
        library.label,
        `${(library.bytes / MB).toFixed(0)} MB`,
        ingest.scanSeconds.toFixed(1),
        ingest.seconds.toFixed(1),
        `${rate.toFixed(1)} books/s, ${(library.bytes / MB / ingest.seconds).toFixed(1)} MB/s`,
        `${bareSeconds(1).toFixed(1)} s (${(library.bytes / MB / bareSeconds(1)).toFixed(0)} MB/s) / ${bareSeconds(10).toFixed(1)} s (${(library.bytes / MB / bareSeconds(10)).toFixed(0)} MB/s)`,
        ingest.r2PerBook.toFixed(2),
        library.books === BOOKS
          ? `${rate >= TARGET_BOOKS_PER_S ? 'meets' : 'MISSES'} ≥ ${TARGET_BOOKS_PER_S} books/s`
          : 'MB/s reported',
      ];
    });
    const ingestTable = markdownTable(
      [
        'library',
        'size',
        'scan s (POST → scan completed)',
        'ingest s (POST → every book complete)',
        'end to end',
        'bare read of every file, 1 / 10 at a time',
        'R2 GETs per book (details pass)',
        'target',
      ],
      rows,
    );
    const latencyRows = [
      { library: { label: 'nothing (idle server: reference)' }, samples: idle, reference: true },
      ...results,
    ].flatMap(({ library, samples, reference }) =>
      [
        ['GET /series?pageSize=50', samples.series, TARGET_LIST_P99_MS],
        ['GET /tasks?pageSize=20', samples.tasks, TARGET_LIST_P99_MS],
        ['GET /books/{id}/pages/{n} (original)', samples.page, TARGET_PAGE_P99_MS],
      ].map(([label, values, target]) => {
        const p99 = percentile(values, 99);
        return [
          library.label,
          label,
          values.length,
          Math.round(percentile(values, 50)),
          Math.round(p99),
          Math.round(Math.max(...values)),
          reference ? '—' : `${p99 <= target ? 'meets' : 'MISSES'} ≤ ${target} ms`,
        ];
      }),
    );
    const latencyTable = markdownTable(
      ['during ingest of', 'request', 'n', 'p50 ms', 'p99 ms', 'max ms', 'target p99'],
      latencyRows,
    );
    const memoryTable = markdownTable(
      ['during ingest of', 'API process (workerd) peak RSS', 'consumer process (workerd) peak RSS', 'both, peak'],
      results.map(({ library, samples }) => [
        library.label,
        `${(samples.memory.api / 1024 ** 2).toFixed(0)} MiB`,
        `${(samples.memory.jobs / 1024 ** 2).toFixed(0)} MiB`,
        `${(samples.memory.total / 1024 ** 2).toFixed(0)} MiB`,
      ]),
    );
    console.log(ingestTable);
    console.log(latencyTable);
    const cpuTable = markdownTable(
      [
        'library',
        'API process (workerd) CPU s',
        'consumer process (workerd) CPU s',
        'per book, API / consumers',
        'whole machine busy CPU s (2 cores × ingest s available)',
      ],
      results.map(({ library, ingest }) => [
        library.label,
        ingest.cpuSeconds.api.toFixed(1),
        ingest.cpuSeconds.jobs.toFixed(1),
        `${((ingest.cpuSeconds.api / library.books) * 1000).toFixed(1)} / ${((ingest.cpuSeconds.jobs / library.books) * 1000).toFixed(1)} ms`,
        `${ingest.machineBusy.toFixed(1)} of ${(cpus().length * ingest.seconds).toFixed(1)}`,
      ]),
    );
    console.log(memoryTable);
    console.log(cpuTable);
    if (QUICK) return;
    const failures = results.reduce((n, r) => n + r.samples.failures, 0);
    const realMin = Math.min(...realSizes) / MB;
    const realMax = Math.max(...realSizes) / MB;
    writeSection(
      'Ingest end to end',
      [
        '`npm start` as a user runs it (scripts/start.mjs on a snapshot copy of the sources: the API worker in one',
        '`wrangler dev` process; the book-work consumers and the native-image worker in a second one; one local',
        'D1/R2 state in a fresh .tmp/ folder). Two libraries are uploaded through PUT /libraries/{id}/files/{path}',
        'and then each is scanned once; **ingest** is the time from POST /libraries/{id}/scan until every book is',
        "complete — page sizes, fileHash, readerHash and a thumbnail — i.e. the `completedAt` of the scan's",
        '`hash_files` and `generate_thumbnails` task rows (host clock), checked afterwards book by book through',
        'GET /books. Libraries:',
        `- the ${BOOKS.toLocaleString('en-US')} CBZs of "Library scan throughput" (50 stored 200×300 JPEG pages each, ~${Math.round(smallBytes / BOOKS / 1024)} KiB);`,
        `- ${REALISTIC} realistic CBZs: 26–38 stored 1988×3056 JPEG pages (${REALISTIC_PAGES} distinct scans-like pages, q85,`,
        `  ${(pageKb / 1024).toFixed(2)} MiB on average), ${realMin.toFixed(0)}–${realMax.toFixed(0)} MB per book.`,
        '',
        '**Reference, same run**: after the server stops, a bare worker (bench/workers/r2-object.ts, GET /read-all)',
        'reads every file of the library from the same local R2 once, start to end, 64 KiB at a time as the',
        'consumers read, and discards the bytes — one at a time, and ten at a time (a consumer batch works on ten',
        'books at once). That is the floor of the one read per book that ingest makes. **R2 GETs per book**:',
        'counted by the consumers themselves (their "batch done" log lines) for the details pass; the thumbnail',
        'is made from the cover that read kept, so these books need no other GET.',
        '',
        ingestTable,
        '',
        `**API latency during ingest**: a client loops GET /series, GET /tasks and an original page of an`,
        `already complete book, one after another with ${PROBE_PAUSE_MS} ms pauses, from POST scan until ingest ends`,
        `(${failures} non-200 answers). Percentiles by nearest rank. Reference, same run: the same loop for`,
        `${IDLE_PROBE_MS / 1000} s against the idle server just before the timed ingests (what the machine's other load costs alone).`,
        '',
        latencyTable,
        '',
        '**CPU**: what each workerd process used from POST scan until ingest ended (/proc/<pid>/stat), and the',
        'whole machine meanwhile (/proc/stat): the difference is what else ran (wrangler, this benchmark, other work).',
        '',
        cpuTable,
        '',
        '**Memory**: resident set of each workerd process, sampled every round of the loop above.',
        '',
        memoryTable,
        '',
        `Load average (1/5/15 min) before the timed ingests: ${loadBefore}; after: ${loadAfter}. The machine is a`,
        "2-core VM shared with other agents' builds and tests: read the numbers of one run against each other.",
        '',
        ...environmentLines('npm run bench -- ingest'),
      ].join('\n'),
    );
  } finally {
    await server?.stop();
    removeDir(state);
  }
}

await main();
