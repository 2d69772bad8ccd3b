// Soak (issue 21): `npm start` as a user runs it (the API process; the consumers + renderer process) over a
// seeded library, then a steady mix of what readers and apps do for LONGBOX_SOAK_MINUTES (30 by default):
// original and resized pages, catalog lists, search, progress writes, OPDS feeds, /komga calls, thumbnails and
// task lists, with 200 SSE streams open and a rescan (with a few new books) every few minutes. Every 10 s the
// resident memory of each process and the API isolate's JS heap are sampled; per minute, latency percentiles
// per request class and errors. Afterwards every acknowledged progress write is read back.
//
// LONGBOX_SOAK_MINUTES (≥ 30 writes docs/BENCHMARKS.md; shorter runs only print), LONGBOX_SOAK_BOOKS (400),
// LONGBOX_SOAK_RATE (requests offered per second, 12), LONGBOX_SOAK_SSE (200), LONGBOX_SOAK_RESCAN_MINUTES (5).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { book as benchBook, distinctPages } from './lib/comic-library.mjs';
import { connectInspector } from './lib/inspector.mjs';
import { residentBytes, stackProcesses, startLongbox } from './lib/longbox-stack.mjs';
import { setupAdminClient } from './lib/admin-client.mjs';
import { environmentLines, markdownTable, percentile, writeSection } from './lib/report.mjs';
import { listBooks, seedComicLibrary } from './lib/seed-library.mjs';
import { SMOKE, sized } from './lib/smoke.mjs';
import { snapshotSources } from './lib/source-snapshot.mjs';
import { removeDir, tempStateDir } from './lib/wrangler-dev.mjs';

// A smoke run (BENCH_SMOKE=1): one minute, 4 books, 5 streams, a rescan half a minute in.
const MINUTES = Number(process.env.LONGBOX_SOAK_MINUTES ?? sized(30, 1));
const BOOKS = Number(process.env.LONGBOX_SOAK_BOOKS ?? sized(400, 4));
const RATE = Number(process.env.LONGBOX_SOAK_RATE ?? 12);
const SSE_STREAMS = Number(process.env.LONGBOX_SOAK_SSE ?? sized(200, 5));
const RESCAN_MINUTES = Number(process.env.LONGBOX_SOAK_RESCAN_MINUTES ?? sized(5, 1));
/** Shorter runs only print (a smoke run goes through writeSection, which writes nothing then). */
const WRITE = MINUTES >= 30 || SMOKE;
/** Requests in flight at most; a tick that finds this many waiting skips its request (counted). */
const MAX_IN_FLIGHT = 32;
const SAMPLE_MS = 10_000;
const READERS = 12;
const NEW_BOOKS_PER_RESCAN = 5;
const WINDOW_MINUTES = 5;
const TARGET_RSS_RATIO = 1.3;
const TARGET_P99_RATIO = 1.2;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const MiB = 1024 ** 2;
const mib = (bytes) => (bytes / MiB).toFixed(0);

/** A deterministic stream of choices (the mix is the same from run to run). */
function prng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Request classes, their share of the mix (%), and how one request of each is made. */
function requestClasses(ctx) {
  const { api, base, auth, basic, random, readers, books, seriesIds, libraryId, progressLog } = ctx;
  const pick = (list) => list[Math.floor(random() * list.length)];
  /** A reader turns a page: the next page of its book, the next book when done. */
  const turn = () => {
    const reader = pick(readers);
    reader.page += 1;
    if (reader.page > reader.book.pageCount) {
      reader.book = books[(books.indexOf(reader.book) + READERS) % books.length];
      reader.page = 1;
    }
    return reader;
  };
  const get = (url, headers = auth) => ({ url, init: { headers } });
  return [
    { name: 'page', share: 30, make: () => ((r) => get(`${api}/books/${r.book.id}/pages/${r.page}`))(turn()) },
    {
      name: 'page resized',
      share: 8,
      make: () => ((r) => get(`${api}/books/${r.book.id}/pages/${r.page}?width=320`))(turn()),
    },
    {
      name: 'series list',
      share: 7,
      make: () => get(`${api}/series?pageSize=50&page=${1 + Math.floor(random() * 2)}`),
    },
    {
      name: 'books list',
      share: 6,
      make: () => get(`${api}/books?library_id=${libraryId}&pageSize=50&page=${1 + Math.floor(random() * 8)}`),
    },
    {
      name: 'search',
      share: 5,
      make: () => ({
        url: `${api}/series/search`,
        init: {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ query: `Bench Series ${String(1 + Math.floor(random() * 20)).padStart(3, '0')}` }),
        },
      }),
    },
    {
      name: 'progress write',
      share: 10,
      make: () => {
        const reader = pick(readers);
        const page = Math.max(1, Math.min(reader.book.pageCount, reader.page));
        return {
          url: `${api}/books/${reader.book.id}/progress`,
          init: {
            method: 'PUT',
            headers: { ...auth, 'Content-Type': 'application/json' },
            body: JSON.stringify({ current_page: page }),
          },
          // Acknowledged writes are read back at the end: the last one per book must be there.
          onOk: () => progressLog.set(reader.book.id, { page, at: Date.now() }),
        };
      },
    },
    {
      name: 'opds',
      share: 10,
      make: () =>
        pick([
          () => get(`${base}/opds/v1.2/catalog`, basic),
          () => get(`${base}/opds/v1.2/series?page=${1 + Math.floor(random() * 2)}`, basic),
          () => get(`${base}/opds/v1.2/series/${pick(seriesIds)}`, basic),
          () => get(`${base}/opds/v2.0/series/${pick(seriesIds)}`, basic),
        ])(),
    },
    {
      name: 'komga',
      share: 10,
      make: () =>
        pick([
          () => get(`${base}/komga/api/v1/series?size=20&page=${Math.floor(random() * 5)}`, basic),
          () => get(`${base}/komga/api/v1/books/${pick(books).id}`, basic),
          () => ((r) => get(`${base}/komga/api/v1/books/${r.book.id}/pages/${r.page}`, basic))(turn()),
        ])(),
    },
    { name: 'thumbnail', share: 7, make: () => get(`${api}/books/${pick(books).id}/thumbnail`) },
    { name: 'tasks', share: 7, make: () => get(`${api}/tasks?pageSize=20`) },
  ];
}

/** One open SSE stream: counts events, and reconnects with Last-Event-ID when the server ends it. */
function sseStream(url, auth, errors) {
  const state = { events: 0, lastId: null, reconnects: 0, stopped: false, controller: new AbortController() };
  (async () => {
    while (!state.stopped) {
      try {
        const headers = { ...auth, ...(state.lastId === null ? {} : { 'Last-Event-ID': String(state.lastId) }) };
        const res = await fetch(url, { headers, signal: state.controller.signal });
        if (res.status !== 200) throw new Error(`SSE ${res.status}`);
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const id = /^id: (\d+)$/m.exec(buffer.slice(0, end))?.[1];
            if (id) {
              state.lastId = Number(id);
              state.events += 1;
            }
            buffer = buffer.slice(end + 2);
          }
        }
        if (!state.stopped) throw new Error('the server ended the stream');
      } catch (error) {
        if (state.stopped) return;
        errors.push({ at: Date.now(), what: `SSE ${url.split('/').slice(-2).join('/')}: ${String(error)}` });
        state.reconnects += 1;
        await sleep(1000);
      }
    }
  })();
  return state;
}

function loadAverage() {
  return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

async function main() {
  const state = tempStateDir('soak');
  let server;
  try {
    const sources = snapshotSources(path.join(state, 'sources'));
    server = await startLongbox({ sources, data: path.join(state, 'data') });
    const base = server.url;
    const api = `${base}/api/v1`;
    const client = await setupAdminClient(api);
    const started = Date.now();
    const seeded = await seedComicLibrary({ api, ...client }, { books: BOOKS });
    console.log(`seeded ${BOOKS} books in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const key = await client.call('POST', '/api-keys', { name: 'Soak reader app' });
    if (key.status !== 201) throw new Error(`API key: ${JSON.stringify(key)}`);
    const basic = { Authorization: `Basic ${Buffer.from(`api:${key.body.key}`).toString('base64')}` };
    const books = seeded.books;
    const seriesIds = [...new Set(books.map((b) => b.seriesId))];
    const random = prng(21);
    const readers = Array.from({ length: READERS }, (_, i) => ({ book: books[i % books.length], page: 0 }));
    const progressLog = new Map();
    const classes = requestClasses({
      api,
      base,
      auth: client.auth,
      basic,
      random,
      readers,
      books,
      seriesIds,
      libraryId: seeded.libraryId,
      progressLog,
    });
    const totalShare = classes.reduce((n, c) => n + c.share, 0);
    const chooseClass = () => {
      let r = random() * totalShare;
      for (const c of classes) {
        r -= c.share;
        if (r < 0) return c;
      }
      return classes.at(-1);
    };

    const processes = stackProcesses(server.pid).filter((p) => p.kind !== 'other');
    const processLabel = (p) => `${p.role} ${p.kind}`;
    const inspector = await connectInspector(server.inspectorPort);
    const errors = [];

    // 200 streams: most on entity events, some on tasks and scans, as web apps and admin pages keep them.
    const streams = Array.from({ length: SSE_STREAMS }, (_, i) =>
      sseStream(`${api}/${i % 10 < 7 ? 'events' : i % 10 < 9 ? 'tasks' : 'scans'}/stream`, client.auth, errors),
    );
    await sleep(2000);

    const soakStart = Date.now();
    const soakEnd = soakStart + MINUTES * 60_000;
    const minuteOf = (t) => Math.floor((t - soakStart) / 60_000);
    const minutes = Array.from({ length: MINUTES }, () => ({
      latency: new Map(classes.map((c) => [c.name, []])),
      requests: 0,
      errors: 0,
      skipped: 0,
      samples: [],
      heap: null,
      load: null,
    }));
    let inFlight = 0;
    const requestsDone = [];

    // Memory: every 10 s each process's RSS and the API heap; at each minute's end a GC, then the heap.
    const sampler = (async () => {
      let nextMinute = 1;
      while (Date.now() < soakEnd) {
        await sleep(Math.min(SAMPLE_MS, Math.max(0, soakEnd - Date.now())));
        const minute = Math.min(MINUTES - 1, minuteOf(Date.now() - 1));
        const rss = Object.fromEntries(processes.map((p) => [processLabel(p), residentBytes(p.pid)]));
        const heap = await inspector.heapUsage().catch(() => null);
        minutes[minute].samples.push({ rss, heap: heap?.usedSize ?? null });
        if (Date.now() >= soakStart + nextMinute * 60_000 - SAMPLE_MS / 2) {
          await inspector.collectGarbage().catch(() => {});
          const retained = await inspector.heapUsage().catch(() => null);
          minutes[Math.min(MINUTES - 1, nextMinute - 1)].heap = retained?.usedSize ?? null;
          minutes[Math.min(MINUTES - 1, nextMinute - 1)].load = loadAverage();
          console.log(
            `minute ${nextMinute}: ${Object.entries(rss)
              .map(([k, v]) => `${k} ${mib(v)} MiB`)
              .join(', ')}, API heap ${retained ? mib(retained.usedSize) : '?'} MiB, load ${loadAverage()}`,
          );
          nextMinute += 1;
        }
      }
    })();

    // Rescans: a few new books uploaded, then POST scan; what the consumers make of them reaches the streams.
    const pages = await distinctPages();
    let nextBook = BOOKS;
    const rescans = [];
    const rescanner = (async () => {
      // Half a period in (minutes 2.5, 7.5, …, 27.5 of 30): the first and the last five minutes hold one
      // rescan each, so their percentiles compare like with like.
      for (let at = soakStart + RESCAN_MINUTES * 30_000; at < soakEnd; at += RESCAN_MINUTES * 60_000) {
        await sleep(at - Date.now());
        const t = Date.now();
        for (let i = 0; i < NEW_BOOKS_PER_RESCAN; i++) {
          const { key: file, bytes } = benchBook(nextBook++, pages);
          const res = await fetch(
            `${api}/libraries/${seeded.libraryId}/files/${file.split('/').map(encodeURIComponent).join('/')}`,
            { method: 'PUT', headers: { ...client.auth, 'Content-Type': 'application/octet-stream' }, body: bytes },
          );
          await res.arrayBuffer();
          if (res.status !== 201) errors.push({ at: Date.now(), what: `upload ${res.status}` });
        }
        const scan = await client.call('POST', `/libraries/${seeded.libraryId}/scan`);
        if (scan.status !== 202) errors.push({ at: Date.now(), what: `rescan ${scan.status}` });
        rescans.push({ minute: minuteOf(t) + 1, status: scan.status });
      }
    })();

    // The traffic: one request every 1/RATE s (open loop), each of a class drawn from the mix.
    for (let tick = 0; ; tick++) {
      const due = soakStart + (tick * 1000) / RATE;
      if (due >= soakEnd) break;
      if (due > Date.now()) await sleep(due - Date.now());
      const minute = minutes[Math.min(MINUTES - 1, minuteOf(Date.now()))];
      if (inFlight >= MAX_IN_FLIGHT) {
        minute.skipped += 1;
        continue;
      }
      const kind = chooseClass();
      const request = kind.make();
      inFlight += 1;
      const t0 = performance.now();
      const done = fetch(request.url, request.init)
        .then(async (res) => {
          await res.arrayBuffer();
          const ms = performance.now() - t0;
          const at = minutes[Math.min(MINUTES - 1, minuteOf(Date.now()))];
          at.requests += 1;
          at.latency.get(kind.name).push(ms);
          if (res.status >= 400) {
            at.errors += 1;
            errors.push({ at: Date.now(), what: `${kind.name} ${res.status} ${request.url.replace(base, '')}` });
          } else request.onOk?.();
        })
        .catch((error) => {
          const at = minutes[Math.min(MINUTES - 1, minuteOf(Date.now()))];
          at.errors += 1;
          errors.push({ at: Date.now(), what: `${kind.name} ${String(error)}` });
        })
        .finally(() => {
          inFlight -= 1;
        });
      requestsDone.push(done);
      if (requestsDone.length > 1000) requestsDone.splice(0, 500);
    }
    await Promise.all(requestsDone);
    await sampler;
    await rescanner;
    const sseSummary = {
      streams: streams.length,
      events: streams.reduce((n, s) => n + s.events, 0),
      reconnects: streams.reduce((n, s) => n + s.reconnects, 0),
    };
    for (const stream of streams) {
      stream.stopped = true;
      stream.controller.abort();
    }

    // Every acknowledged progress write is there (the last one per book).
    let progressChecked = 0;
    let progressMissing = 0;
    for (const [bookId, { page }] of progressLog) {
      const stored = await client.call('GET', `/books/${bookId}/progress`);
      progressChecked += 1;
      if (stored.status !== 200 || stored.body?.currentPage !== page) {
        progressMissing += 1;
        errors.push({
          at: Date.now(),
          what: `progress of ${bookId}: wanted page ${page}, got ${JSON.stringify(stored.body)}`,
        });
      }
    }
    const finalBooks = await listBooks(client.call, seeded.libraryId);
    inspector.close();
    await server.stop();
    server = undefined;

    // ---- report ----
    const roleKinds = [...new Set(processes.map(processLabel))];
    /** A process's RSS over one minute: the median of its samples (a rescan spikes one). */
    const minuteRss = (m, kind) =>
      percentile(
        m.samples.map((s) => s.rss[kind] ?? 0),
        50,
      );
    const resourceRows = minutes.map((m, i) => [
      i + 1,
      m.load?.toFixed(1) ?? '',
      m.requests,
      m.errors,
      m.skipped,
      ...roleKinds.map((k) => mib(minuteRss(m, k))),
      m.heap === null ? '' : (m.heap / MiB).toFixed(1),
    ]);
    const resourceTable = markdownTable(
      [
        'min',
        'load (1 min)',
        'requests',
        'errors',
        'skipped (32 in flight)',
        ...roleKinds.map((k) => `${k} RSS MiB (median)`),
        'API isolate heap after GC, MiB',
      ],
      resourceRows,
    );
    const fmt = (values) =>
      values.length === 0 ? '—' : `${Math.round(percentile(values, 50))} / ${Math.round(percentile(values, 99))}`;
    const latencyTable = markdownTable(
      ['min', ...classes.map((c) => `${c.name} p50 / p99 ms`)],
      minutes.map((m, i) => [i + 1, ...classes.map((c) => fmt(m.latency.get(c.name)))]),
    );
    const window = (from, to) => minutes.slice(from, to);
    const first = window(0, Math.min(WINDOW_MINUTES, MINUTES));
    const last = window(Math.max(0, MINUTES - WINDOW_MINUTES), MINUTES);
    const merged = (ms, name) => ms.flatMap((m) => m.latency.get(name));
    const apiRuntime = 'api runtime';
    const rssAt = (m) => minuteRss(m, apiRuntime);
    const rssFirst = rssAt(first.at(-1));
    const rssLast = rssAt(last.at(-1));
    const rssRatio = rssLast / rssFirst;
    const totalErrors = errors.length;
    const targetRows = [
      [
        `API process (workerd runtime) RSS, median of minute ${MINUTES} ÷ of minute ${first.length}`,
        `${mib(rssLast)} ÷ ${mib(rssFirst)} MiB = ${rssRatio.toFixed(2)}`,
        `≤ ${TARGET_RSS_RATIO}`,
        rssRatio <= TARGET_RSS_RATIO ? 'meets' : 'MISSES',
      ],
      ...classes.map((c) => {
        const [a, b] = [first, last].map((w) => merged(w, c.name));
        const ratio = (p) => percentile(b, p) / percentile(a, p);
        return [
          `${c.name}: p99 of the last ${last.length} min ÷ the first ${first.length} (n = ${a.length} / ${b.length}; p50, p95 ratios)`,
          `${Math.round(percentile(b, 99))} ÷ ${Math.round(percentile(a, 99))} ms = ${ratio(99).toFixed(2)} (p50 ${ratio(50).toFixed(2)}, p95 ${ratio(95).toFixed(2)})`,
          `≤ ${TARGET_P99_RATIO}`,
          ratio(99) <= TARGET_P99_RATIO ? 'meets' : 'MISSES',
        ];
      }),
      ['errors (no fault injected)', String(totalErrors), '0', totalErrors === 0 ? 'meets' : 'MISSES'],
    ];
    const targetTable = markdownTable(['measure', 'value', 'target', ''], targetRows);
    const requestsTotal = minutes.reduce((n, m) => n + m.requests, 0);
    const pageRequests = minutes.reduce(
      (n, m) => n + m.latency.get('page').length + m.latency.get('page resized').length,
      0,
    );
    const heaps = minutes.map((m) => m.heap).filter((v) => v !== null);
    const proxyAt = (m) => minuteRss(m, 'api proxy');
    const growthLines = [
      `**What grew, and why**: the API isolate's heap stayed between ${(Math.min(...heaps) / MiB).toFixed(1)} and ${(Math.max(...heaps) / MiB).toFixed(1)} MiB`,
      '(after a GC, every minute): Longbox keeps nothing that grows with traffic (what its heap holds, compared',
      'snapshot to snapshot, is in "Memory under page traffic"; no snapshot is taken here: serialising one adds',
      "~200 MiB to the runtime's RSS for good, which would hide what this run measures).",
      `The runtime workerd went from ${mib(rssFirst)} MiB (minute ${first.length}) to ${mib(rssLast)} MiB and wrangler's dev proxy`,
      `from ${mib(proxyAt(first.at(-1)))} to ${mib(proxyAt(last.at(-1)))} MiB: the local runtime and its proxy, which grow the same way under a bare worker`,
      'making the same R2 reads, or answering no-op requests, and a Longbox page more than a bare read (its D1',
      'reads through the local simulator, in the same workerd; outside the isolate\'s heap): section "Memory under',
      'page traffic". None of that exists on Cloudflare. Fixed on the way: `npm start` runs with the edge page',
      'cache off — its local simulator kept',
      'every page served in memory and on disk.',
    ];
    const errorLines = errors.slice(0, 15).map((e) => `  - minute ${minuteOf(e.at) + 1}: ${e.what}`);

    console.log(resourceTable);
    console.log(latencyTable);
    console.log(targetTable);
    console.log(JSON.stringify({ sseSummary, rescans, progressChecked, progressMissing, books: finalBooks.length }));
    if (errors.length) console.log(errors.slice(0, 30));
    if (!WRITE) return;

    writeSection(
      'Soak: 30 minutes of mixed traffic',
      [
        '`npm start` as a user runs it (scripts/start.mjs on a snapshot of the sources: the API worker in one',
        '`wrangler dev` process, the consumers and the renderer in a second; fresh local state) with a library of',
        `${BOOKS} benchmark CBZs (50 pages each, uploaded and scanned first), then ${MINUTES} minutes of traffic offered at`,
        `${RATE} requests/s (open loop, at most ${MAX_IN_FLIGHT} in flight): original pages and pages at width=320 as`,
        `${READERS} readers turn them, series and book lists, series search, progress writes, OPDS 1.2/2.0 feeds and`,
        '`/komga` calls (Basic with an API key), thumbnails and task lists — with',
        `${SSE_STREAMS} SSE streams open throughout (70% /events, 20% /tasks, 10% /scans) and, every ${RESCAN_MINUTES} minutes,`,
        `${NEW_BOOKS_PER_RESCAN} new books uploaded and a rescan. ${requestsTotal.toLocaleString('en-US')} requests in all, ${pageRequests.toLocaleString('en-US')} of them pages.`,
        "RSS per process from /proc/<pid>/status every 10 s (the median of each minute's samples); the API isolate's heap through",
        'the inspector `wrangler dev --inspector-port` exposes (Chrome DevTools Protocol: a forced GC, then',
        '`Runtime.getHeapUsage`). The **runtime** process is the workerd that runs the worker with the local',
        "R2/D1/Queues/cache simulators; the **proxy** is the workerd of wrangler's dev proxy in front of it.",
        '',
        '**Targets**',
        '',
        targetTable,
        '',
        '**Per minute: load, requests, errors, memory**',
        '',
        resourceTable,
        '',
        '**Per minute: latency per request class (p50 / p99, ms, from the client)**',
        '',
        latencyTable,
        '',
        ...growthLines,
        '',
        `**SSE**: ${sseSummary.streams} streams, ${sseSummary.events.toLocaleString('en-US')} events delivered, ${sseSummary.reconnects} reconnects.`,
        `**Progress**: ${progressChecked} books written; the last acknowledged write of each read back: ${progressMissing} missing.`,
        `**Rescans**: ${rescans.map((r) => `minute ${r.minute} (${r.status})`).join(', ') || 'none'}; ${finalBooks.length} books at the end.`,
        ...(errorLines.length ? ['**Errors**:', ...errorLines] : []),
        '',
        ...environmentLines(`npm run bench -- soak (LONGBOX_SOAK_MINUTES=${MINUTES})`),
      ].join('\n'),
    );
  } finally {
    await server?.stop();
    removeDir(state);
  }
}

await main();
