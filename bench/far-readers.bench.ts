/**
 * `npm run bench -- far-readers` (issue 30): what a reader far from the D1 primary, the R2 buckets and the
 * Durable Objects pays per request. Longbox runs as `npm start` runs it, behind a simulated distance
 * (bench/workers/far-readers.ts): every D1, R2, Durable Object and queue call waits a set time before it runs;
 * the renderer, the static assets and the Cache API are in the reader's colo (counted, not delayed). For each
 * row of bench/lib/far-readers/rows.ts it reports the **sequential depth** (the longest chain of far calls the
 * response waited for, from the recorded calls) without and with read replicas, and the median time at 0 and
 * 100 ms per far call, for the working tree and, in the same run, for main before issue 30 (BEFORE_COMMIT).
 * It exits non-zero when a row's depth is above its target.
 *
 * Options (after the bench's name: `npm run bench -- far-readers --rows=page,login --depth-only`):
 *   --rows=a,b      only the rows whose id contains one of these (rows.ts ids; nothing written to the docs)
 *   --depth-only    structural depth only: one delay (--delay, default 30 ms), --samples (default 1) each,
 *                   no "before" server (add --before for one)
 *   --no-before     skip the "before" server; --no-replicas  skip the read-replica pass
 * BENCH_SMOKE=1 (`npm test`) is --depth-only at 25 ms over every row, small data.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { chromiumPath, launchBrowser } from '../test/e2e/support/browser';
import { startFakeProviders } from '../test/support/provider-fakes/node-server.mjs';
import { loadHome } from './lib/far-readers/home-screen';
import { type Library, seedLibrary, seedTracking } from './lib/far-readers/library';
import { type Call, type Fresh, ROWS, type Row } from './lib/far-readers/rows';
import { type FarReport, type FarServer, startFarServer } from './lib/far-readers/server';
import { environmentLines, markdownTable, percentile, ROOT, writeSection } from './lib/report.mjs';
import { SMOKE } from './lib/smoke.mjs';
import { removeDir, tempStateDir } from './lib/wrangler-dev.mjs';

/** Main just before issue 30's work (the far-readers note measured this commit). */
const BEFORE_COMMIT = '140f3ba';
const SECTION = 'Far readers: round trips per request';
const PAGES_PER_BOOK = SMOKE ? 3 : 6;
const PAGE_WIDTH = SMOKE ? 400 : 1200;

// Options --------------------------------------------------------------------------------------------------
const argv = process.argv.slice(2);
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const flag = (name: string) => argv.includes(`--${name}`);
const unknown = argv.filter((a) => !/^--(rows|delay|samples)=|^--(depth-only|before|no-before|no-replicas)$/.test(a));
if (unknown.length > 0) {
  console.error(`far-readers: unknown option(s) ${unknown.join(' ')} (see the top of bench/far-readers.bench.ts)`);
  process.exit(2);
}
const filters = option('rows')?.split(',').filter(Boolean) ?? [];
const rows = filters.length === 0 ? ROWS : ROWS.filter((row) => filters.some((f) => row.id.includes(f)));
if (rows.length === 0) {
  console.error(`far-readers: no row matches ${filters.join(', ')}. Rows: ${ROWS.map((r) => r.id).join(', ')}`);
  process.exit(2);
}
const depthOnly = SMOKE || flag('depth-only');
const delays = depthOnly ? [Number(option('delay') ?? (SMOKE ? 25 : 30))] : [0, 100];
const samples = Number(option('samples') ?? (depthOnly ? 1 : 10));
const homeSamples = depthOnly ? samples : 5;
const replicaSamples = depthOnly ? samples : 3;
const withBefore = depthOnly ? flag('before') : !flag('no-before');
const withReplicas = !flag('no-replicas');
/** Only a complete run (every row, both servers, both delays) replaces the docs section. */
const complete = !depthOnly && filters.length === 0 && withBefore && withReplicas;

if (rows.some((row) => !row.call) && !chromiumPath) {
  console.error("far-readers: the home-screen row needs Debian's chromium (apt-get install chromium)");
  process.exit(1);
}

// Passes: the primary (what a deployment does today) at each delay; read replicas (with the edge page cache,
// a warm colo) at the largest delay, for depth. -------------------------------------------------------------
interface Pass {
  key: string;
  replicas: boolean;
  delayMs: number;
  samples: number;
}
const passes: Pass[] = [
  ...delays.map((delayMs) => ({ key: `primary@${delayMs}`, replicas: false, delayMs, samples })),
  ...(withReplicas ? [{ key: 'replicas', replicas: true, delayMs: Math.max(...delays), samples: replicaSamples }] : []),
];
const depthPass = `primary@${Math.max(...delays)}`;
/** Calls each row makes on one server: a warm-up and its samples, per pass. */
const callsPerRow = passes.reduce((sum, pass) => sum + 1 + pass.samples, 0);

interface Measured {
  depths: number[];
  ms: number[];
  /** The last sample's record (or the home screen's last critical path). */
  last?: FarReport;
  chain?: string[];
}
type Results = Map<string, Map<string, Measured>>; // pass key → row id → measured

function varsFor(pass: Pass, row: Row): Record<string, string> {
  return {
    LONGBOX_PAGES__EDGE_CACHE: pass.replicas || row.edgeCache ? 'true' : 'false',
    LONGBOX_DATABASE__READ_REPLICAS: pass.replicas ? 'true' : 'false',
  };
}

/**
 * Sends one row's request and reads what the far-calls entry recorded of it; `absent` when the "before" server
 * has no such route (a route added since): its row shows "—" there instead of stopping the run.
 */
async function send(
  server: FarServer,
  call: Call,
): Promise<{ ms: number; depth: number; report: FarReport; isolate: string } | 'absent' | 'reloaded'> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.json !== undefined) headers['Content-Type'] = 'application/json';
  if (call.raw) headers['Content-Type'] = call.raw.type;
  const aborter = new AbortController();
  const started = performance.now();
  const res = await fetch(`${server.url}${call.path}`, {
    method: call.method ?? 'GET',
    headers,
    body: call.raw ? call.raw.body : call.json === undefined ? call.body : JSON.stringify(call.json),
    signal: aborter.signal,
  });
  let ms: number;
  let text = '';
  if (call.untilHeaders) {
    ms = performance.now() - started;
    aborter.abort();
  } else {
    const body = new Uint8Array(await res.arrayBuffer());
    ms = performance.now() - started;
    if (!res.ok) text = new TextDecoder().decode(body.slice(0, 300));
  }
  if (res.status === 404 && server.label === 'before' && !(call.expect ?? [200]).includes(404)) return 'absent';
  if (!(call.expect ?? [200]).includes(res.status)) {
    const id = /request id ([0-9a-f-]+)/.exec(text)?.[1];
    const log = res.status >= 500 ? `\nthe server's log:\n${server.log(id ?? '"level":"error"')}` : '';
    throw new Error(`${call.method ?? 'GET'} ${call.path} answered ${res.status}: ${text}${log}`);
  }
  const id = res.headers.get('x-far-request');
  if (!id) throw new Error(`${call.path}: no X-Far-Request header (is the far-readers entry running?)`);
  // Settled: its waitUntil work is done, so it does not overlap the next request. An isolate that took over since
  // has no record of it.
  const report = await server.report(id).catch(() => null);
  if (!report) return 'reloaded';
  return { ms, depth: Number(res.headers.get('x-far-depth')), report, isolate: res.headers.get('x-far-isolate') ?? '' };
}

async function measureServer(
  server: FarServer,
  library: Library,
  browser: Browser | null,
  serverPasses: Pass[],
): Promise<Results> {
  const results: Results = new Map();
  const calls = new Map<string, number>();
  /** The API isolate that answered last, and how many times another one took over (wrangler reloaded it). */
  let isolate: string | undefined;
  let reloads = 0;
  for (const pass of serverPasses) {
    results.set(pass.key, new Map<string, Measured>());
    for (const row of rows) {
      await measureRow(pass, row).catch((error) => {
        // A 5xx names its request: the server's log of it says why.
        const id = /request id ([0-9a-f-]+)/.exec(String(error))?.[1];
        if (id && !String(error).includes("the server's log")) console.error(`the server's log:\n${server.log(id)}`);
        throw error;
      });
    }
  }
  return results;

  async function measureRow(pass: Pass, row: Row): Promise<void> {
    const byRow = results.get(pass.key) as Map<string, Measured>;
    await server.settings({ delayMs: pass.delayMs, replicas: pass.replicas, vars: varsFor(pass, row) });
    const measured: Measured = { depths: [], ms: [] };
    if (row.newRoute && server.label === 'before') {
      byRow.set(row.id, measured);
      return;
    }
    // One warm-up call first (isolate caches, the edge cache, a made rendition); the home screen too, even in a
    // smoke run: with read replicas its covers must be in the colo's cache, as on a warm colo.
    for (let i = 0; i <= pass.samples; i++) {
      const warmUp = i === 0;
      if (row.call) {
        const n = calls.get(row.id) ?? 0;
        calls.set(row.id, n + 1);
        const made = (await row.setup?.(library, n)) ?? {};
        const sample = await send(server, row.call(library, n, made));
        await row.cleanup?.(library, n, made);
        if (sample === 'absent') break;
        if (sample === 'reloaded' || (isolate !== undefined && sample.isolate !== isolate)) {
          // A new isolate answered: it has the default settings and cold caches. The sample is dropped, the
          // settings sent again and the credentials warmed again; a row that takes nothing fresh takes the
          // sample again after a warm-up call of its own.
          if (++reloads > MAX_RELOADS) throw new Error(`the API worker was reloaded ${reloads} times: giving up`);
          console.log(`${server.label} ${pass.key} ${row.id}: the API worker was reloaded; sample dropped`);
          isolate = sample === 'reloaded' ? undefined : sample.isolate;
          await server.reapply();
          await rewarm(server, library, row, () => {
            const next = calls.get(row.id) ?? 0;
            calls.set(row.id, next + 1);
            return next;
          });
          if (!warmUp && !row.fresh) i--;
          continue;
        }
        isolate = sample.isolate;
        if (warmUp) continue;
        measured.depths.push(sample.depth);
        measured.ms.push(sample.ms);
        measured.last = sample.report;
      } else if (browser) {
        const load = await loadHome(browser, library.url, library.admin);
        if (warmUp) continue;
        measured.depths.push(load.depth);
        measured.ms.push(load.ms);
        measured.chain = load.chain;
      }
    }
    byRow.set(row.id, measured);
    const near = nearText(measured.last);
    const chain =
      row.call && measured.depths.length === 0
        ? '(no such route in this version)'
        : (measured.chain?.join(' → ') ?? levelsText(measured.last)) + (near ? `  (near: ${near})` : '');
    console.log(
      `${server.label.padEnd(6)} ${pass.key.padEnd(11)} ${row.id.padEnd(18)} depth ${depthText(measured)}  ${ms(median(measured.ms))} ms  ${chain}`,
    );
  }
}

/** Reloads of the API worker a server's run survives (each costs a row a sample, or a warm-up call). */
const MAX_RELOADS = 5;

/**
 * After a reload: the admin's key, session and the restricted reader's key checked once in the new isolate, and a
 * row that takes nothing fresh called once (its own caches: a page table, a rendition), none of it measured.
 */
async function rewarm(server: FarServer, library: Library, row: Row, nextCall: () => number): Promise<void> {
  const credentials: Array<Record<string, string>> = [
    { 'X-API-Key': library.admin.key },
    { 'X-API-Key': library.kid.key },
    { Cookie: library.admin.cookie },
  ];
  for (const headers of credentials) {
    await (await fetch(`${server.url}/api/v1/auth/me`, { headers })).arrayBuffer();
  }
  if (row.call && !row.fresh) {
    const n = nextCall();
    const made = (await row.setup?.(library, n)) ?? {};
    await send(server, row.call(library, n, made));
    await row.cleanup?.(library, n, made);
  }
}

// Reading results ------------------------------------------------------------------------------------------
const median = (values: number[]) => percentile(values, 50);
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '—');

/** The depth most samples had (ties: the larger). */
function modeDepth(m: Measured | undefined): number {
  if (!m || m.depths.length === 0) return Number.NaN;
  const counts = new Map<number, number>();
  for (const d of m.depths) counts.set(d, (counts.get(d) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
}

function depthText(m: Measured | undefined): string {
  if (!m || m.depths.length === 0) return '—';
  const mode = modeDepth(m);
  const others = m.depths.filter((d) => d !== mode);
  return others.length === 0
    ? String(mode)
    : `${mode} (${[...new Set(others)].join(', ')} in ${others.length} of ${m.depths.length})`;
}

function levelsText(report: FarReport | undefined): string {
  if (!report) return '';
  return report.levels.map((level) => level.join(' ∥ ')).join(' → ') || '(none)';
}

/** The near calls (renderer, assets, Cache API, replica reads), each once with its count. */
function nearText(report: FarReport | undefined): string {
  if (!report) return '';
  const counts = new Map<string, number>();
  for (const call of report.near) counts.set(call.label, (counts.get(call.label) ?? 0) + 1);
  return [...counts].map(([label, n]) => (n > 1 ? `${label} ×${n}` : label)).join(', ');
}

function afterText(report: FarReport | undefined): string {
  if (!report) return '';
  const labels = [...report.pending.map((c) => `${c.label} (pending)`), ...report.after.map((c) => c.label)];
  return labels.length === 0 ? '' : labels.join(', ');
}

// The run --------------------------------------------------------------------------------------------------
interface ServerRun {
  label: string;
  results: Results;
  state: { environmentsSeen: number; unattributed: number };
}

async function runServer(label: string, commit: string | undefined, browser: Browser | null): Promise<ServerRun> {
  const state = tempStateDir(`far-readers-${label}`);
  let server: FarServer | undefined;
  // A commit's server is not sent the rows of routes it does not have: nothing is made for them there.
  const measured = commit ? rows.filter((row) => !row.newRoute) : rows;
  const tracking = measured.some((row) => row.tracking);
  const fakes = tracking ? await startFakeProviders(ROOT) : undefined;
  try {
    const started = Date.now();
    server = await startFarServer({
      label,
      dir: path.join(state, 'sources'),
      data: path.join(state, 'data'),
      commit,
      vars: fakes?.vars,
    });
    const needs = (fresh: Fresh) => measured.filter((row) => row.fresh === fresh).length * callsPerRow;
    const library = await seedLibrary(server.url, {
      fresh: Math.max(3, needs('book')),
      coldUsers: needs('user'),
      victimBooks: needs('victim-book'),
      victimSeries: needs('victim-series'),
      pagesPerBook: PAGES_PER_BOOK,
      pageWidth: PAGE_WIDTH,
    });
    if (fakes) await seedTracking(library, fakes.url, needs('release'));
    console.log(`${label}: server up and library seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    // Read replicas are a mode of the working tree only: "before" is measured as deployed then.
    const serverPasses = commit ? passes.filter((pass) => !pass.replicas) : passes;
    const measuring = Date.now();
    const results = await measureServer(server, library, browser, serverPasses);
    console.log(`${label}: measured in ${((Date.now() - measuring) / 1000).toFixed(0)} s`);
    return { label, results, state: await server.state() };
  } finally {
    const errors = server?.errors() ?? [];
    if (errors.length > 0) console.warn(`${label}: the server logged ${errors.length} error(s):\n${errors.join('\n')}`);
    await server?.stop();
    await fakes?.stop();
    removeDir(state);
  }
}

const browser = rows.some((row) => !row.call) ? await launchBrowser() : null;
let now: ServerRun;
let before: ServerRun | undefined;
try {
  now = await runServer('now', undefined, browser);
  if (withBefore) before = await runServer('before', BEFORE_COMMIT, browser);
} finally {
  await browser?.close();
}

// Verdicts: every row at or under its target. ---------------------------------------------------------------
const failures: string[] = [];
for (const row of rows) {
  const checks: Array<[string, number, number]> = [
    ['depth', modeDepth(now.results.get(depthPass)?.get(row.id)), row.target],
  ];
  if (withReplicas) {
    checks.push(['depth with read replicas', modeDepth(now.results.get('replicas')?.get(row.id)), row.replicaTarget]);
  }
  for (const [what, depth, target] of checks) {
    if (!(depth <= target)) failures.push(`${row.id}: ${what} ${depth} is above its target ${target}`);
  }
}

// The table ------------------------------------------------------------------------------------------------
const cell = (run: ServerRun | undefined, pass: string, row: Row) => run?.results.get(pass)?.get(row.id);

const main = markdownTable(
  [
    'request',
    'depth',
    'depth with read replicas',
    'target (without / with replicas)',
    `depth before (${BEFORE_COMMIT})`,
    ...delays.flatMap((d) => [`ms @${d} now`, `ms @${d} before`]),
  ],
  rows.map((row) => [
    row.request,
    depthText(cell(now, depthPass, row)),
    withReplicas ? depthText(cell(now, 'replicas', row)) : '—',
    `${row.target} / ${row.replicaTarget}`,
    depthText(cell(before, depthPass, row)),
    ...delays.flatMap((d) => [
      ms(median(cell(now, `primary@${d}`, row)?.ms ?? [])),
      ms(median(cell(before, `primary@${d}`, row)?.ms ?? [])),
    ]),
  ]),
);

const details = markdownTable(
  [
    'request',
    'far calls the response waited for, now (`∥` at once, `→` one after another)',
    'near calls',
    'after the response',
    'with read replicas: far calls',
    'with read replicas: near calls',
    'note',
  ],
  rows.map((row) => {
    const primary = cell(now, depthPass, row);
    const replicas = cell(now, 'replicas', row);
    return [
      row.id,
      primary?.chain?.join(' → ') ?? levelsText(primary?.last),
      nearText(primary?.last),
      afterText(primary?.last),
      replicas?.chain?.join(' → ') ?? levelsText(replicas?.last),
      nearText(replicas?.last),
      row.note === undefined ? '—' : String(row.note),
    ];
  }),
);

const differences = rows
  .filter((row) => before && row.note !== undefined && modeDepth(cell(before, depthPass, row)) !== row.note)
  .map((row) => `\`${row.id}\` (${modeDepth(cell(before, depthPass, row))} here, ${row.note} in the note)`);

/** Rows whose depth at another delay is not the one reported: the structure should not depend on the delay. */
const unsteady = delays
  .filter((d) => `primary@${d}` !== depthPass)
  .flatMap((d) =>
    rows
      .filter(
        (row) =>
          cell(now, `primary@${d}`, row) &&
          modeDepth(cell(now, `primary@${d}`, row)) !== modeDepth(cell(now, depthPass, row)),
      )
      .map((row) => `\`${row.id}\` (${depthText(cell(now, `primary@${d}`, row))} at ${d} ms)`),
  );

const body = [
  'Each row is one request a reader far from the data makes. Longbox runs as `npm start` runs it (the API worker; the',
  'consumers and the renderer in a second process) with its API worker behind a simulated distance',
  '(`bench/workers/far-readers.ts`, a bench-only entry that wraps the real one): every D1 statement, batch and exec',
  '(sessions included), every R2 call on LIBRARY and CACHE, every Durable Object call and every queue send waits the',
  "set time before it runs; the renderer, the static assets and the Cache API are in the reader's colo (counted, not",
  'delayed). **Depth** is the longest chain of far calls the response waited for, each starting after the previous one',
  'ended, read from the calls the shim recorded on a logical clock (the order of events in the isolate, not timings):',
  'calls still running when the response was returned and `waitUntil` work are listed but not counted. At R ms per',
  'far trip a request costs about depth × R more than at 0.',
  '',
  `Sizes: ${samples} timed requests per row and delay after one warm-up (the home screen: ${homeSamples} loads), and`,
  `${replicaSamples} per row with read replicas; sequential, each after the previous one's \`waitUntil\` work settled.`,
  `Depth is the most common over the ${Math.max(...delays)} ms samples (other values in brackets). Times are medians`,
  'from Node on loopback to the last body byte (the event stream: to its headers; the home screen: navigation start',
  'to the rows on screen with their visible covers loaded). Data: 3 series of generated CBZs with ComicInfo',
  `(${PAGES_PER_BOOK} JPEG pages of ${PAGE_WIDTH}×${PAGE_WIDTH * 1.5}), scanned and complete; callers: the admin's API key unless the`,
  'row says otherwise. "Before" is `' +
    BEFORE_COMMIT +
    '` (main before issue 30), built from a `git archive` of it and',
  'measured in the same run with the same shim and data, after the working tree (not interleaved): on a shared',
  'machine their times at 0 ms are mostly CPU and differ by noise; at 100 ms the far trips dominate (about',
  'depth × 100 ms plus the time at 0).',
  '',
  '**With read replicas** (`LONGBOX_DATABASE__READ_REPLICAS=true` and the edge page cache on, a warm colo: each',
  "row's warm-up has filled the colo's cache): a read-only statement or batch run through a `withSession()` session",
  "is served by a replica near the reader (not delayed), except the first call of a `'first-primary'` session; writes",
  'and every statement made on the binding itself go to the primary (D1 without the Sessions API). Replica lag is not',
  'modelled. Rows marked edge cache run with `LONGBOX_PAGES__EDGE_CACHE=true` also without replicas (`npm start`',
  'turns it off). Longbox reads through a session when the variable is on (src/db/read-session.ts): the credential',
  "check included, so a warm reader's reads wait for nothing far; its once-a-minute check on the primary is not in",
  'these samples (docs/DECISIONS.md, "Far readers").',
  '',
  '**The home screen** is loaded in Chromium (fresh context: cold browser cache; warm server). Its critical path is',
  "the heaviest chain of requests each issued after the previous one's answer ended, weighted by the depth each",
  'response reports; only the document, scripts, style sheets and JSON calls can start a link (a cover causes no',
  'request), and the event stream is left out (nothing on the screen waits for it; the `sse` row measures its',
  "opening). The admin's want-to-read list is empty there, as in the note (a card's cover would",
  'often be one another row already asked for); the `want-to-read` row measures a list with an entry.',
  '',
  "Targets are issue 30's, except the first page of a book nothing has kept (2: the R2 range needs the page table",
  'from D1 first; DECISIONS.md §After the credential check) and the writes that wait for the check (2 / 1; DECISIONS.md',
  '§Far readers, "Writes wait for the check"). The bench fails when a row measures above its target.',
  '',
  main,
  '',
  "Where the depth comes from (the last sample of each row; labels are the binding and the statement's verb and",
  "table, `page` being a query's own `WITH page` clause). Near calls are not delayed (renderer, assets, Cache API,",
  'replica reads); "after the response" lists far or near calls still running when the response was returned or',
  'made after it (`waitUntil` work), none counted; `note` is the depth the far-readers note measured at',
  `${BEFORE_COMMIT} with a scratch shim:`,
  '',
  details,
  '',
  !before
    ? 'No "before" server in this run.'
    : differences.length === 0
      ? `Every "before" depth equals the one the note measured at ${BEFORE_COMMIT}; rows with no note depth (—) were not in the note.`
      : `Depths that differ from the note's at ${BEFORE_COMMIT}: ${differences.join('; ')}.`,
  '',
  unsteady.length === 0
    ? `Every row had the same depth at ${delays.join(' and ')} ms.`
    : `Rows whose depth at another delay differs: ${unsteady.join('; ')}.`,
  '',
  `The bindings were wrapped once per isolate (${now.state.environmentsSeen} environment object seen by the API worker); ${now.state.unattributed} call(s) were made outside any request.`,
  '',
  ...environmentLines('npm run bench -- far-readers'),
].join('\n');

// The tables first: a smoke run's last lines are writeSection's notice (test/bench/bench-smoke.test.ts reads it).
console.log(`\n${main}\n\n${details}\n`);
if (SMOKE || complete) writeSection(SECTION, body);
else console.log('(a partial run: docs/BENCHMARKS.md left as it was)');
if (failures.length > 0) {
  console.error(`\nfar-readers: ${failures.length} row(s) over their target:\n  ${failures.join('\n  ')}`);
  process.exitCode = 1;
}
