// Catalog read latency on a large library (issue 4): 100,000 books in 10,000 series (2 libraries, 2 % of
// the books soft-deleted), genres/tags, full-text rows, and one user with 5,000 progress rows, seeded
// straight into the real worker's local D1 file (bench/lib/seed-catalog.ts) after the user and the
// libraries were created through the API. Then GET /books by title, POST /books/list with a nested
// condition, POST /series/search and GET /books/on-deck through the real worker over loopback
// (target p99 ≤ 50 ms locally), and the SQLite plan of every catalog statement those requests run
// (bench/lib/catalog-plans.ts, the same app code in Node recording its SQL). Every request is also timed
// for a restricted reader (issue 17: libraries by id, an EXCLUDE 18 age restriction and a denied label,
// bench/lib/restrict-reader.ts) in the same rounds: target p99 within 1.2× of the admin's.
import os from 'node:os';
import path from 'node:path';
import { BENCH_ADMIN } from './lib/admin-client.mjs';
import {
  capturePlans,
  fetchJson,
  fullTableScans,
  planMarkdown,
  postJson,
  runTsx,
  seedLargeCatalog,
} from './lib/large-catalog.mjs';
import { environmentLines, markdownTable, percentile, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';
import { snapshotSources } from './lib/source-snapshot.mjs';
import { applyMigrations, removeDir, startWranglerDev, tempStateDir } from './lib/wrangler-dev.mjs';
import { writeFileSync } from 'node:fs';

const READER = { username: 'bench-reader', email: 'reader@example.com', password: 'bench-password-43' };
const RESTRICTED_RATIO = 1.2;

const WARMUP = sized(20, 1);
const ROUNDS = sized(200, 3);
const TARGET_P99_MS = 50;
const CATALOG_TABLES = ['books', 'series', 'read_progress', 'book_terms', 'series_terms', 'want_to_read', 'libraries'];

/** The requests under test; the first is the reference (no catalog query). */
function requestsFor(libraries) {
  return [
    { label: 'GET /health (reference: D1 + R2 ping, no catalog)', method: 'GET', path: '/health', reference: true },
    { label: 'GET /books?sort=title (page 1 of 50)', method: 'GET', path: '/books?sort=title' },
    {
      label: 'POST /books/list, nested condition, sorted by title',
      method: 'POST',
      path: '/books/list',
      body: {
        condition: {
          allOf: [
            { anyOf: [{ genre: { operator: 'is', value: 'fantasy' } }, { tag: { operator: 'is', value: 'classic' } }] },
            { readStatus: { operator: 'isNot', value: 'read' } },
            {
              anyOf: [
                { title: { operator: 'beginsWith', value: 'Silent' } },
                { libraryId: { operator: 'is', value: libraries[1].id } },
              ],
            },
          ],
        },
      },
    },
    {
      label: "POST /series/search {query: 'dragon'}",
      method: 'POST',
      path: '/series/search',
      body: { query: 'dragon' },
    },
    { label: 'GET /books/on-deck', method: 'GET', path: '/books/on-deck' },
    { label: 'GET /series?sort=name (page 1 of 50)', method: 'GET', path: '/series?sort=name' },
  ];
}

async function timed(api, token, request) {
  const headers = { Authorization: `Bearer ${token}` };
  if (request.body) headers['Content-Type'] = 'application/json';
  const started = process.hrtime.bigint();
  const res = await fetch(`${api}${request.path}`, {
    method: request.method,
    headers,
    body: request.body ? JSON.stringify(request.body) : undefined,
  });
  const body = await res.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200) throw new Error(`${request.label} answered ${res.status}: ${body}`);
  return { ms, body };
}

async function main() {
  const state = tempStateDir('catalog-queries');
  let worker;
  try {
    // A snapshot of the sources: edits elsewhere in the tree cannot restart the worker mid-measurement.
    const config = snapshotSources(path.join(state, 'sources')).api;
    const data = path.join(state, 'data');
    applyMigrations(config, data);
    // 1. The user and the libraries through the API; 2. the catalog, straight into the D1 file.
    const { database, libraries, seeded, seedSeconds, prepared } = await seedLargeCatalog({
      config,
      persistTo: data,
      state,
      prepare: async (api, token) => {
        const me = await fetchJson(`${api}/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
        const reader = await fetchJson(`${api}/users`, postJson({ ...READER, role: 'reader' }, token));
        if (reader.status !== 201) throw new Error(`reader creation failed: ${JSON.stringify(reader)}`);
        return { adminId: me.body.id, readerId: reader.body.id };
      },
    });
    console.log('seeded', seeded, `in ${seedSeconds} s`);
    const restrictFile = path.join(state, 'restrict.json');
    writeFileSync(restrictFile, JSON.stringify({ ...prepared, libraryIds: libraries.map((l) => l.id) }));
    const restricted = runTsx(['bench/lib/restrict-reader.ts', database, restrictFile]);
    console.log('restricted reader', restricted);

    // 3. Latency through the real worker.
    worker = await startWranglerDev({ config, persistTo: data, readyPath: '/api/v1/health' });
    const api = `${worker.url}/api/v1`;
    const login = await fetchJson(
      `${api}/auth/login`,
      postJson({ username: BENCH_ADMIN.username, password: BENCH_ADMIN.password }),
    );
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login)}`);
    const token = login.body.access_token;
    const readerLogin = await fetchJson(
      `${api}/auth/login`,
      postJson({ username: READER.username, password: READER.password }),
    );
    if (readerLogin.status !== 200) throw new Error(`reader login failed: ${JSON.stringify(readerLogin)}`);
    const readerToken = readerLogin.body.access_token;
    const requests = requestsFor(libraries);
    // Every request as the admin, then (catalog requests) as the restricted reader: one row each.
    const runs = requests.flatMap((request) => [
      { request, token, label: request.label, restricted: false },
      ...(request.reference
        ? []
        : [{ request, token: readerToken, label: `${request.label} — restricted reader`, restricted: true }]),
    ]);
    const totals = [];
    for (const run of runs) {
      const { body } = await timed(api, run.token, run.request);
      totals.push(JSON.parse(body).total ?? '—');
    }
    for (let i = 0; i < WARMUP; i++) for (const run of runs) await timed(api, run.token, run.request);
    const samples = runs.map(() => []);
    // Interleaved rounds, so drift on a shared machine hits every row alike.
    let peakLoad = 0;
    for (let i = 0; i < ROUNDS; i++) {
      for (const [j, run] of runs.entries()) samples[j].push((await timed(api, run.token, run.request)).ms);
      if (i % 20 === 19) peakLoad = Math.max(peakLoad, os.loadavg()[0]);
    }
    // This benchmark keeps about one CPU busy (client + workerd); more than half a CPU beyond that is other work.
    const busy = peakLoad > 1.5 ? peakLoad : 0;
    await worker.stop();
    worker = undefined;

    // 4. Plans: the same app code in Node over a copy of the D1 file, recording its SQL.
    const catalogRequests = requests.filter((r) => !r.reference);
    const plans = capturePlans({ state, database, requests: catalogRequests });
    const readerPlans = capturePlans({
      state,
      database,
      credentials: READER,
      requests: catalogRequests.map((r) => ({ ...r, label: `${r.label} — restricted reader` })),
    });
    const fullScans = [
      ...fullTableScans(plans, CATALOG_TABLES),
      ...fullTableScans(readerPlans, [...CATALOG_TABLES, 'series_sharing_labels']),
    ].map((scan) => `${scan.request}: ${scan.line}`);

    const sqlMs = new Map(
      [...plans.requests, ...readerPlans.requests].map((r) => [
        r.label,
        r.statements.reduce((sum, st) => sum + st.ms, 0),
      ]),
    );
    const p99Of = (j) => percentile(samples[j], 99);
    const rows = runs.map((run, j) => {
      const p50 = percentile(samples[j], 50);
      const p99 = p99Of(j);
      // The restricted row follows its admin row: its ratio to it decides.
      const ratio = run.restricted ? p99 / p99Of(j - 1) : null;
      const verdict = run.request.reference
        ? '—'
        : run.restricted
          ? `${ratio.toFixed(2)}× the admin's: ${ratio <= RESTRICTED_RATIO ? 'meets' : 'MISSES'}`
          : p99 <= TARGET_P99_MS
            ? 'meets'
            : 'MISSES';
      return [
        run.label,
        String(totals[j]),
        sqlMs.has(run.label) ? sqlMs.get(run.label).toFixed(1) : '—',
        p50.toFixed(1),
        percentile(samples[j], 95).toFixed(1),
        p99.toFixed(1),
        Math.max(...samples[j]).toFixed(1),
        String(samples[j].length),
        verdict,
      ];
    });
    const table = markdownTable(
      [
        'request',
        'total matches',
        'its SQL alone ms',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'max ms',
        'n',
        `p99 ≤ ${TARGET_P99_MS} ms (restricted: ≤ ${RESTRICTED_RATIO}× the admin's p99)`,
      ],
      rows,
    );
    writeSection(
      'Catalog queries on 100,000 books',
      [
        `Catalog: ${seeded.books.toLocaleString('en-US')} books (${seeded.deleted.toLocaleString('en-US')} of them soft-deleted) in`,
        `${seeded.series.toLocaleString('en-US')} series over 2 libraries, ${seeded.terms.toLocaleString('en-US')} genre/tag rows, a catalog_search`,
        `row per book and series, and one user with ${seeded.progress.toLocaleString('en-US')} read_progress rows (finished, in-progress`,
        'and single reads, so on-deck has work to do). The user and the libraries are created through the API; the',
        "rest is written by bench/lib/seed-catalog.ts straight into the worker's local D1 file (migrations applied by",
        `wrangler; sort titles, natural sort keys and FTS rowids from the scanner's own functions; ${seedSeconds.toFixed(0)} s).`,
        "No ANALYZE is run (sqlite_stat1 stays empty), so the plans are SQLite's defaults.",
        '',
        'Requests go to the real worker (wrangler.toml, `wrangler dev`, local D1) over loopback, sequentially, with',
        `a session token; timed end to end from Node. ${WARMUP} warm-up rounds, then ${ROUNDS} interleaved rounds of every row.`,
        'Each catalog request runs twice per round: as the admin, then as a **restricted reader** (issue 17) —',
        'granted both libraries by id (not "all libraries", so the library test runs), with an EXCLUDE 18 age',
        `restriction and the sharing label "Mature" denied (${restricted.rated18.toLocaleString('en-US')} series rated 18 and`,
        `${restricted.labelled.toLocaleString('en-US')} labelled: ${restricted.hiddenSeries.toLocaleString('en-US')} series hidden from them), with a copy of the admin's`,
        `${restricted.progress.toLocaleString('en-US')} progress rows so on-deck and read status do the same work (bench/lib/restrict-reader.ts).`,
        `Target: its p99 within ${RESTRICTED_RATIO}× the admin's in the same run.`,
        '',
        'Percentiles by nearest rank. The POST /books/list condition:',
        '`allOf[anyOf[genre is fantasy, tag is classic], readStatus isNot read, anyOf[title beginsWith "Silent",',
        'libraryId is <Manga>]]`. Every list answers one page of 50 plus its total.',
        '',
        table,
        '',
        'Before the rewrite described below (commit c09ffda, same VM, quieter: /health p99 14.9 ms) the three',
        'filtered rows measured p99 255 ms (POST /books/list), 69 ms (POST /series/search) and 131 ms (on-deck),',
        'with 176, 47 and 99 ms of SQL alone.',
        '',
        '**Restricted reader (issue 17), what changed.** Quiet run on main before (19:50, load < 1): GET /books p99',
        '32.0 ms admin / 49.3 restricted (1.54×; SQL alone 7.0 / 22.6 ms), GET /series 18.4 / 23.6 (1.28×; SQL 1.6 /',
        '5.5), POST /books/list 57.4 / 70.8 (1.23×; SQL 32.2 / 40.0). The restricted totals of unfiltered lists tested',
        'every visible series: `SCAN visible_owner` (the whole series table) then a range of the reading-order index',
        'per series (8,750 of them); the series total probed two lists per series. Now (visibility.ts `visibleCount`)',
        "a total is the admin's count less what the viewer may not see: the books of libraries not granted (an index",
        "range per library, none here) and of the 1,250 hidden series (a range each), so it costs the admin's count",
        'plus work in proportion to the hidden part. Hidden series are looked up by id in the new partial covering',
        'index `series_live_catalog_idx` (id, library, title, deleted_at), which also serves the filtered and',
        'searched series lists (candidates by id, as `books_live_catalog_idx` does for books). Filtered lists test',
        "the filter's own terms before visibility's, so the viewer's lists are probed only for the rows the filter",
        "keeps (9,179 of the ~18,700 candidates above). The viewer's access is read with the session in the one",
        "authentication statement (left out below), so a restricted request runs as many statements as the admin's.",
        '',
        'Attempts on a copy of the seeded catalog (libSQL, statements alone, interleaved; the VM was at load 15–18, so',
        "minima and medians of 20–30 runs): a variant without the unary `+` in the old count's subquery did",
        'make it a SEARCH of `series_library_group_idx`, but that index is not covering and the count got slower',
        '(37.5 vs 25.3 ms): dropped. The subtraction: admin count 12.8 / 42 ms (min / median), restricted 11.6 / 59',
        "(of which the 1,250 hidden series' ranges 4.2 / 21), the old restricted count 40.9 / 115. Restricted series",
        "total 0.8–0.9 ms against the admin's 0.1 (before 4.5). A non-partial index on series (id, library_id[,",
        "deleted_at]) made SQLite plan the admin's series page as `SCAN series` with an automatic index on the page",
        'CTE: rejected for the partial one. Compare the table above with the load it states: above ~2 the',
        'tail is the queueing of other processes.',
        '',
        '"its SQL alone": the catalog statements the request runs (listed under Query plans), timed in SQLite',
        'without the worker around them (libSQL in Node on a copy of the same file, median of 7, summed). How each',
        'request is answered, from those plans:',
        '',
        '- **GET /books, GET /series** (no filter): an index serves the order (`books_live_title_idx`,',
        '  `series_live_title_idx`), so the page stops after its 50 rows; a second statement counts the live rows.',
        '- **POST /books/list**: genre/tag tests are lists of book ids read from the covering term index, and',
        '  `anyOf` over such lists is one `id IN (a UNION ALL b)` list (~19,000 candidate books), built once.',
        '  SQLite looks each candidate up in `books_live_catalog_idx`, which holds every column the filters and',
        '  the title sort read (named with INDEXED BY: without statistics SQLite picks the primary-key index and',
        "  reads each wide table row). Tests on the row's own columns run before the per-user list (the user's",
        '  completed books, an index-only read). All matches are visited and sorted anyway, so the page counts',
        '  them in the same pass (`count(*) OVER ()`) rather than a second statement redoing the walk. What is',
        '  left is about half a microsecond per candidate: one index search by its text id, one list probe.',
        "- **GET /books/on-deck**: starts from the user's 5,000 progress rows (index-only), reaches their books",
        '  through the covering index, groups them by series, and for each finished series walks',
        '  `books_live_reading_order_idx` to its first book without progress; counted in the same pass.',
        '- **POST /series/search**: series search rows have negative FTS rowids and book rows positive ones, so',
        '  `rowid < 0` limits the MATCH to the series entries of each doclist. Before, `"dragon"*` also matched',
        "  ~7,200 book rows (a book's row carries its series title) whose entity_type had to be read to drop",
        '  them. Same rows and ranking; counted in the same pass.',
        '',
        fullScans.length === 0
          ? '**No statement below scans a whole table** (every `SCAN` of a catalog table goes through an index).'
          : `**Whole-table scans:** ${fullScans.map((s) => `\`${s}\``).join('; ')}.`,
        '',
        ...(busy
          ? [
              'The machine was busy during the timed rounds (1-minute load average up to',
              `${busy.toFixed(2)} on ${os.availableParallelism()} CPUs, of which this benchmark accounts for about one: other`,
              'work shares the VM), so tails are noisy.',
              '',
            ]
          : []),
        ...environmentLines('npm run bench -- catalog-queries'),
        '',
        '### Query plans',
        '',
        `What every catalog statement of those requests runs, captured by bench/lib/catalog-plans.ts: the same app`,
        '(createApp → routes → services → repositories) in Node over libSQL on a copy of the seeded D1 file, with a',
        `drizzle logger; then \`EXPLAIN QUERY PLAN\` with the bound parameters (SQLite ${plans.sqliteVersion}).`,
        'Authentication statements are left out. In each page query the `page` CTE picks the 50 ids (the part an',
        'index must serve), the outer query enriches them; the total comes from a second statement, or from the',
        'CTE itself (`count(*) OVER ()`) where it visits every match anyway.',
        '',
        planMarkdown(plans),
        '',
        '### Query plans of the restricted reader',
        '',
        'The same requests signed in as the restricted reader: `visibleSeries` adds the library test (one JSON',
        'parameter through `json_each`) and the content rule as `series_id NOT IN (…)` lists read from',
        '`series_age_rating_idx` and `series_sharing_labels_label_idx`, which SQLite builds once per statement',
        "(src/repositories/visibility.ts). The totals of the unfiltered lists are `visibleCount`'s subtraction:",
        "the admin's count, minus the rows of libraries not granted, minus the rows of the hidden series, plus the",
        "hidden series' rows in libraries not granted (subtracted twice).",
        '',
        planMarkdown(readerPlans),
      ].join('\n'),
    );
    console.log(table);
    if (fullScans.length > 0) console.log('Full scans:', fullScans);
  } finally {
    await worker?.stop();
    removeDir(state);
  }
}

await main();
