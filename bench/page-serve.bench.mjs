// Serving an original page (API.md §4 Pages): GET /api/v1/books/{id}/pages/{n} on the real worker, pages
// of a 300-page CBZ in R2, against a bare worker (bench/workers/r2-object.ts) that streams the same bytes
// from a plain R2 object with no auth and no database. Both run under `wrangler dev` on loopback with the
// same local R2 directory; 32 concurrent clients, a bounded number of requests, interleaved rounds. Longbox
// runs as `npm start` lays it out (bench/lib/longbox-server.mjs): the API process, and the consumers that
// finish the scanned book's per-book work in a second one.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { startLongbox } from './lib/longbox-server.mjs';
import { environmentLines, markdownTable, ms, percentile, ROOT, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';
import { snapshotCommit, snapshotSources } from './lib/source-snapshot.mjs';
import { applyMigrations, removeDir, startWranglerDev, tempStateDir } from './lib/wrangler-dev.mjs';

const PAGES = sized(300, 6);
/** A typical scanned comic page; incompressible, like JPEG data. */
const PAGE_BYTES = 400 * 1024;
const CONCURRENCY = sized(32, 4);
const WARMUP_REQUESTS = sized(320, 8);
const REQUESTS_PER_ROUND = sized(960, 24);
const ROUNDS = sized(5, 1);
const TARGET_RATIO = 0.8;
const BARE_CONFIG = path.join(ROOT, 'bench/workers/r2-object.toml');
const ADMIN = { username: 'bench-admin', email: 'bench@example.com', password: 'bench-password-42' };
/**
 * `--against=<commit>`: the same requests also to Longbox as it was at that commit, a second server over its own
 * state, in the same interleaved rounds (an A/B of the page path: "no regression against main").
 */
const AGAINST = process.argv.find((a) => a.startsWith('--against='))?.slice('--against='.length);

/** SOI, comment segments of random bytes, EOI: a page-sized JPEG stream that stays incompressible. */
function jpegPage() {
  const parts = [Buffer.from([0xff, 0xd8])];
  let left = PAGE_BYTES - 4;
  while (left > 0) {
    const body = Math.min(left - 4, 65_533);
    const header = Buffer.from([0xff, 0xfe, ((body + 2) >> 8) & 0xff, (body + 2) & 0xff]);
    parts.push(header, randomBytes(body));
    left -= body + 4;
  }
  parts.push(Buffer.from([0xff, 0xd9]));
  return new Uint8Array(Buffer.concat(parts));
}

/** CPU seconds (user + system) of every process in the process group `wrangler dev` runs in (Linux /proc). */
function groupCpuSeconds(pgid) {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended while being read
    }
  }
  return ticks / 100;
}

/** The process group of the `wrangler dev` listening on `url` (it runs detached, as its own group). */
function processGroupOf(url) {
  if (!existsSync('/proc/self/stat')) return null;
  const port = new URL(url).port;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`--port\0${port}\0`)) continue;
      return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[2]);
    } catch {
      // the process ended while being read
    }
  }
  return null;
}

async function call(url, init = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const sleep = (msValue) => new Promise((resolve) => setTimeout(resolve, msValue));

/** `total` GETs from CONCURRENCY clients; every response is checked, since a cheap refusal would flatter. */
async function load(urlOf, headers, total, expect = { status: 200, bytes: PAGE_BYTES }) {
  let next = 0;
  const latencies = [];
  const started = process.hrtime.bigint();
  const client = async () => {
    for (let i = next++; i < total; i = next++) {
      const page = (i % PAGES) + 1;
      const t0 = process.hrtime.bigint();
      const res = await fetch(urlOf(page), { headers });
      const body = await res.arrayBuffer();
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (res.status !== expect.status || (expect.bytes !== undefined && body.byteLength !== expect.bytes)) {
        throw new Error(`${urlOf(page)} answered ${res.status} with ${body.byteLength} bytes`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return { latencies, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

async function waitUntil(what, check, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Admin, API key, the library scanned; `upload`: the CBZ put through the API first (a server over its own state). */
async function prepareRealWorker(api, upload = null) {
  const json = (body, headers = {}) => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const setup = await call(`${api}/setup/initialize`, json(ADMIN));
  if (setup.status !== 201) throw new Error(`setup failed: ${JSON.stringify(setup)}`);
  const admin = { Authorization: `Bearer ${setup.body.access_token}` };
  const key = await call(`${api}/api-keys`, json({ name: 'bench reader' }, admin));
  if (key.status !== 201) throw new Error(`API key creation failed: ${JSON.stringify(key)}`);
  const library = await call(`${api}/libraries`, json({ name: 'Bench', path: 'comics' }, admin));
  if (library.status !== 201) throw new Error(`library creation failed: ${JSON.stringify(library)}`);
  const libraryId = library.body.id;
  if (upload) {
    const put = await fetch(`${api}/libraries/${libraryId}/files/Bench/bench.cbz`, {
      method: 'PUT',
      headers: { ...admin, 'Content-Type': 'application/octet-stream' },
      body: upload,
    });
    if (put.status !== 201) throw new Error(`upload failed: ${put.status} ${await put.text()}`);
  }
  const started = await call(`${api}/libraries/${libraryId}/scan`, { method: 'POST', headers: admin });
  if (started.status !== 202) throw new Error(`scan failed to start: ${JSON.stringify(started)}`);
  await waitUntil('the scan', async () => {
    const status = await call(`${api}/libraries/${libraryId}/scan-status`, { headers: admin });
    return status.body?.status !== 'running';
  });
  // The scan's follow-up tasks (hashes, dimensions, thumbnails) would compete for the CPU: let them finish.
  await waitUntil('background tasks', async () => {
    const tasks = await call(`${api}/tasks?library_id=${libraryId}&pageSize=500`, { headers: admin });
    const list = tasks.body?.data ?? [];
    return list.length > 0 && list.every((t) => !['pending', 'running'].includes(t.status));
  });
  const books = await call(`${api}/books?library_id=${libraryId}`, { headers: admin });
  const book = books.body?.data?.[0];
  if (!book || book.pageCount !== PAGES) throw new Error(`the bench book was not scanned: ${JSON.stringify(books)}`);
  const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
  // One request pays the password hash and fills the Basic cache, as a reader app's first request does.
  const first = await fetch(`${api}/auth/me`, { headers: { Authorization: basic } });
  if (first.status !== 200) throw new Error(`Basic sign-in failed: ${first.status} ${await first.text()}`);
  return { bookId: book.id, apiKey: key.body.key, basic };
}

function row(label, result, bareRps, bodyBytes, keyedBareRps = null) {
  const all = result.latencies;
  const rps = all.length / result.seconds;
  const mibps = bodyBytes ? ((all.length * bodyBytes) / result.seconds / 1024 ** 2).toFixed(0) : '—';
  return {
    rps,
    cells: [
      label,
      rps.toFixed(0),
      mibps,
      ms(percentile(all, 50)),
      ms(percentile(all, 99)),
      result.cpu ? ((result.cpu * 1000) / all.length).toFixed(2) : '—',
      bareRps ? `${(rps / bareRps).toFixed(2)}×` : '—',
      keyedBareRps ? `${(rps / keyedBareRps).toFixed(2)}×` : '—',
      String(all.length),
    ],
  };
}

async function main() {
  const state = tempStateDir('page-serve');
  // wrangler dev restarts on every change to a watched file: run a frozen copy of the sources.
  const sources = snapshotSources(path.join(state, 'sources'));
  const againstState = AGAINST ? tempStateDir('page-serve-against') : null;
  let bare;
  let real;
  let against;
  try {
    applyMigrations(sources.api, state);
    bare = await startWranglerDev({ config: BARE_CONFIG, persistTo: state, readyPath: '/ready' });
    const pages = Array.from({ length: PAGES }, jpegPage);
    const cbz = zipSync(
      Object.fromEntries(pages.map((page, i) => [`${String(i + 1).padStart(3, '0')}.jpg`, [page, { level: 0 }]])),
    );
    const put = async (key, bytes) => {
      const res = await fetch(`${bare.url}/objects/${encodeURIComponent(key)}`, { method: 'PUT', body: bytes });
      if (res.status !== 201) throw new Error(`upload of ${key} failed: ${res.status} ${await res.text()}`);
    };
    await put('comics/Bench/bench.cbz', cbz);
    for (let i = 0; i < PAGES; i += 10) {
      await Promise.all(pages.slice(i, i + 10).map((page, j) => put(`bare/page-${i + j + 1}.jpg`, page)));
    }

    // Request logging off: wrangler dev carries every console line through its Node process (about 0.6 ms of
    // CPU per request on this machine), which production does not.
    real = await startLongbox({ sources, persistTo: state, vars: { LONGBOX_LOG__LEVEL: 'warn' } });
    const { bookId, apiKey, basic } = await prepareRealWorker(`${real.url}/api/v1`);
    const pageUrl = (n) => `${real.url}/api/v1/books/${bookId}/pages/${n}`;
    const againstTargets = [];
    if (AGAINST && againstState) {
      const old = snapshotCommit(AGAINST, path.join(againstState, 'sources'));
      applyMigrations(old.api, againstState);
      against = await startLongbox({ sources: old, persistTo: againstState, vars: { LONGBOX_LOG__LEVEL: 'warn' } });
      const prepared = await prepareRealWorker(`${against.url}/api/v1`, cbz);
      const oldPage = (n) => `${against.url}/api/v1/books/${prepared.bookId}/pages/${n}`;
      const group = processGroupOf(against.url);
      againstTargets.push(
        {
          label: `Longbox at ${AGAINST}: the same, API key (X-API-Key)`,
          urlOf: oldPage,
          headers: { 'X-API-Key': prepared.apiKey },
          group,
        },
        {
          label: `Longbox at ${AGAINST}: the same, Basic user:password (cached check)`,
          urlOf: oldPage,
          headers: { Authorization: prepared.basic },
          group,
        },
        // The breakdown rows at that commit too: where a difference in CPU lies (framework, credential check and
        // page table, or the R2 read).
        {
          label: `breakdown at ${AGAINST}: without credentials (401)`,
          urlOf: oldPage,
          headers: {},
          group,
          expect: { status: 401 },
          breakdown: true,
        },
        {
          label: `breakdown at ${AGAINST}: API key and If-None-Match: * (304)`,
          urlOf: oldPage,
          headers: { 'X-API-Key': prepared.apiKey, 'If-None-Match': '*' },
          group,
          expect: { status: 304, bytes: 0 },
          breakdown: true,
        },
      );
    }
    const bareTarget = {
      label: 'bare worker: GET /objects/bare/page-{n}.jpg (R2 get → Response; no auth, no D1)',
      urlOf: (n) => `${bare.url}/objects/bare%2Fpage-${n}.jpg`,
      headers: {},
      group: processGroupOf(bare.url),
    };
    const keyedBareTarget = {
      label:
        'bare worker + the credential read: GET /keyed-objects/bare/page-{n}.jpg (one D1 read of the key and its owner, then R2 get → Response)',
      urlOf: (n) => `${bare.url}/keyed-objects/bare%2Fpage-${n}.jpg`,
      headers: { 'X-API-Key': apiKey },
      group: bareTarget.group,
      reference: true,
    };
    const realGroup = processGroupOf(real.url);
    const apiKeyTarget = {
      label: 'Longbox: GET /api/v1/books/{id}/pages/{n}, API key (X-API-Key)',
      urlOf: pageUrl,
      headers: { 'X-API-Key': apiKey },
      group: realGroup,
    };
    const unauthenticated = {
      label: 'breakdown: the same without credentials (401: routing and framework only)',
      urlOf: pageUrl,
      headers: {},
      group: realGroup,
      expect: { status: 401 },
      breakdown: true,
    };
    const notModified = {
      label: 'breakdown: the same, API key and If-None-Match: * (304: + credential check and page table, no R2)',
      urlOf: pageUrl,
      headers: { 'X-API-Key': apiKey, 'If-None-Match': '*' },
      group: realGroup,
      expect: { status: 304, bytes: 0 },
      breakdown: true,
    };
    const targets = [
      apiKeyTarget,
      {
        label: 'Longbox: GET /api/v1/books/{id}/pages/{n}, Basic user:password (cached check)',
        urlOf: pageUrl,
        headers: { Authorization: basic },
        group: realGroup,
      },
      ...againstTargets,
      bareTarget,
      keyedBareTarget,
      unauthenticated,
      notModified,
    ];
    // All serve identical bytes: page n of the CBZ is the object bare/page-n.jpg.
    for (const n of [1, Math.ceil(PAGES / 2), PAGES]) {
      for (const t of targets.filter((target) => !target.breakdown)) {
        const bytes = Buffer.from(await (await fetch(t.urlOf(n), { headers: t.headers })).arrayBuffer());
        if (!bytes.equals(Buffer.from(pages[n - 1]))) throw new Error(`page ${n} differs: ${t.label}`);
      }
    }
    for (const t of targets) await load(t.urlOf, t.headers, WARMUP_REQUESTS, t.expect);

    const results = targets.map(() => ({ latencies: [], seconds: 0, cpu: 0 }));
    // Interleaved rounds (order rotated each round), so drift on a shared machine hits every target alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < targets.length; k++) {
        const j = (round + k) % targets.length;
        const cpuBefore = targets[j].group ? groupCpuSeconds(targets[j].group) : 0;
        const { latencies, seconds } = await load(
          targets[j].urlOf,
          targets[j].headers,
          REQUESTS_PER_ROUND,
          targets[j].expect,
        );
        results[j].latencies.push(...latencies);
        results[j].seconds += seconds;
        if (targets[j].group) results[j].cpu += groupCpuSeconds(targets[j].group) - cpuBefore;
      }
    }

    const rpsOf = (target) => {
      const r = results[targets.indexOf(target)];
      return r.latencies.length / r.seconds;
    };
    const bareRps = rpsOf(bareTarget);
    const keyedBareRps = rpsOf(keyedBareTarget);
    const compared = (t) => t !== bareTarget && !t.breakdown;
    const rows = targets.map((t, j) =>
      row(
        t.label,
        results[j],
        compared(t) ? bareRps : null,
        t.breakdown ? 0 : PAGE_BYTES,
        compared(t) && !t.reference ? keyedBareRps : null,
      ),
    );
    const ratios = targets.filter((t) => compared(t) && !t.reference).map((t) => rpsOf(t) / bareRps);
    const table = markdownTable(
      [
        'request',
        'req/s',
        'MiB/s',
        'p50 ms',
        'p99 ms',
        'worker CPU ms/request',
        'throughput vs bare',
        'vs bare + credential read',
        'n',
      ],
      rows.map((r) => r.cells),
    );
    const cpuOf = (target) => {
      const r = results[targets.indexOf(target)];
      return r.cpu ? ((r.cpu * 1000) / r.latencies.length).toFixed(2) : '?';
    };
    const verdict = ratios.every((r) => r >= TARGET_RATIO) ? 'meets' : 'misses';
    const body = [
      `${PAGES}-page CBZ (stored entries, ${PAGE_BYTES / 1024} KiB incompressible JPEG streams per page) in local R2. The real`,
      'worker (wrangler.toml) and a bare worker (bench/workers/r2-object.toml: `R2.get` → Response, the same page',
      'bytes stored as plain objects) run side by side under `wrangler dev` on loopback with the same local R2',
      'directory under .tmp/ (removed afterwards). Longbox runs as `npm start` runs it: the API worker in one process,',
      'the book-work consumers and the renderer in a second, which finishes the scanned book (page sizes, hashes,',
      `thumbnail) before anything is timed and then idles. ${CONCURRENCY} concurrent clients (Node fetch, keep-alive) request`,
      `pages 1…${PAGES} in turn; every response is checked for status and length, and all targets are first checked`,
      `to serve identical bytes. ${WARMUP_REQUESTS} warm-up requests per target, then ${ROUNDS} interleaved rounds of`,
      `${REQUESTS_PER_ROUND} requests each. Throughput = requests / wall time of the rounds; latency per request, end`,
      'to end, including the body. "Worker CPU" = CPU time of the target’s whole `wrangler dev` process group (for',
      'Longbox the API process: workerd with the local D1/R2 simulators, its proxy, wrangler) divided by the',
      'requests it served. Longbox runs',
      'with `LONGBOX_LOG__LEVEL=warn`: at info, wrangler dev carries each access-log line through its Node process.',
      ...(AGAINST
        ? [
            '',
            `Run with \`--against=${AGAINST}\`: the "Longbox at ${AGAINST}" rows are the same requests to Longbox built from that`,
            'commit (its own sources, state and processes, the same CBZ uploaded and scanned), in the same interleaved',
            'rounds: an A/B of the page path on the same machine at the same time.',
          ]
        : []),
      '',
      table,
      '',
      `Target: Longbox at ≥ ${TARGET_RATIO}× the bare read's throughput — **${verdict}** (${ratios.map((r) => `${r.toFixed(2)}×`).join(', ')}).`,
      '',
      'Per page the route does: the credential check (API key: one prepared D1 query for the key and its owner,',
      'HMAC-SHA-256 of the secret; Basic: keyed-hash cache lookup and one prepared query for the user row), the',
      'book’s page table (one D1 round trip per book per minute per isolate), then the page bytes: from the edge',
      'cache of the data center (Workers Cache API, keyed by book, scanned etag and page) when an earlier read put',
      'them there, otherwise one ranged R2 read of the entry, pinned to the scanned etag, whose header is checked and',
      'whose rest is piped natively into the response and, through a tee, into the cache. Every round here re-reads',
      'pages read before, so the timed rounds are served from the cache, as a book being read again near its reader',
      'is. The breakdown rows take the same route without the body, to show where the CPU goes:',
      '',
      `- routing and framework (401, before any D1 query): ${cpuOf(unauthenticated)} ms per request;`,
      `- + credential check and page table (304): ${cpuOf(notModified)} ms;`,
      `- + the page body (200, API key): ${cpuOf(apiKeyTarget)} ms, against ${cpuOf(bareTarget)} ms for the whole bare request`,
      `  and ${cpuOf(keyedBareTarget)} ms for the bare request with the credential read.`,
      '',
      'What separates Longbox from the bare read is the credential check: DECISIONS.md §Auth and API.md §5 make a',
      'revoked key, a logged-out session and a demoted owner fail at once, so every request asks D1 (one query).',
      'The "bare + credential read" row is the bare worker making that same query (the key and its owner by prefix,',
      'plain D1 API, no framework) before the same R2 read: it is the most any route that checks an API key per',
      `request can do here, and Longbox runs at ${(rpsOf(apiKeyTarget) / keyedBareRps).toFixed(2)}× of it. Locally one D1 query is not`,
      'cheap: miniflare serves it through an entry worker (RPC, zod validation of the queries and of the result)',
      'and a Durable Object (a storage transaction, two `total_changes()` probes, JSON both ways), all inside the',
      'same workerd process as the worker. On Cloudflare that work happens in D1, outside the isolate, and the',
      'read costs the isolate a round trip rather than CPU. An isolate-local cache of verified credentials would',
      'remove the read but would let other isolates accept a revoked key until it expired, so it is not done.',
      '',
      ...environmentLines('npm run bench -- page-serve'),
    ].join('\n');
    writeSection('Page serving (original page vs bare R2 read)', body);
    console.log(table);
    console.log(`ratios ${ratios.map((r) => r.toFixed(2)).join(', ')} (${verdict} the ${TARGET_RATIO}× target)`);
  } finally {
    await against?.stop();
    await real?.stop();
    await bare?.stop();
    removeDir(state);
    if (againstState) removeDir(againstState);
  }
}

await main();
