// OPDS acquisition feed on a large catalog (issue 9, Performance): a 100-entry OPDS 1.2 acquisition
// feed and the same page as OPDS 2.0 JSON, on the 100,000-book catalog of bench/lib/seed-catalog.ts
// (the one catalog-queries uses), through the real worker over loopback with HTTP Basic `api:<key>` as
// reader apps send it. Reference rows in the same run: GET /health, and the API's own list of the same
// 100 books (GET /books?library_id=…&sort=title&pageSize=100), which a feed page builds on. Target:
// p50/p99 ≤ 50 ms. Query plans of every catalog statement a feed runs (bench/lib/catalog-plans.ts).
import os from 'node:os';
import { capturePlans, fullTableScans, planMarkdown, seedCatalogWithKey } from './lib/large-catalog.mjs';
import { interleavedRounds } from './lib/loopback-rounds.mjs';
import { environmentLines, markdownTable, percentile, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';
import { removeDir, tempStateDir } from './lib/wrangler-dev.mjs';

/** Page rows for the books the measured feeds show (a seeded book has none; a feed reads their types). */
const PAGES_PER_BOOK = 24;
const WARMUP = sized(20, 1);
const ROUNDS = sized(200, 3);
const TARGET_MS = 50;
const CATALOG_TABLES = ['books', 'series', 'read_progress', 'book_terms', 'book_pages', 'libraries'];

/** Gives the books of the measured pages their page rows, as a scan would have (JPEG pages). */
async function addPages(database, libraryId) {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(database);
  const ids = db
    .prepare(
      `SELECT id FROM books WHERE library_id = ? AND deleted_at IS NULL ORDER BY title_sort COLLATE NOCASE, id LIMIT 200`,
    )
    .all(libraryId)
    .map((row) => row.id);
  const insert = db.prepare(
    `INSERT OR IGNORE INTO book_pages (book_id, number, file_name, media_type, width, height, size, locator)
     VALUES (?, ?, ?, 'image/jpeg', 1600, 2400, 900000, '{}')`,
  );
  db.exec('BEGIN');
  for (const id of ids) for (let n = 1; n <= PAGES_PER_BOOK; n++) insert.run(id, n, `${n}.jpg`);
  db.exec('COMMIT');
  db.close();
  return ids.length;
}

async function main() {
  const state = tempStateDir('opds-feed');
  let worker;
  try {
    // Reader apps sign in with an API key (HTTP Basic `api:<key>`).
    const { database, libraries, key, seeded, startWorker } = await seedCatalogWithKey(state, 'Panels');
    const withPages = await addPages(database, libraries[0].id);
    console.log('seeded', seeded, 'pages for', withPages, 'books');

    worker = await startWorker();
    const base = worker.url;
    const basic = { Authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}` };
    const library = libraries[0].id;
    const requests = [
      { label: 'GET /health (reference: no catalog)', path: '/api/v1/health', headers: {}, reference: true },
      {
        label: 'GET /api/v1/books?library_id=…&sort=title&pageSize=100 (reference: the same 100 books as JSON)',
        path: `/api/v1/books?library_id=${library}&sort=title&pageSize=100`,
        headers: basic,
        reference: true,
      },
      {
        label: 'GET /opds/v1.2/libraries/{id}/books?pageSize=100 (Atom + PSE, 100 entries)',
        path: `/opds/v1.2/libraries/${library}/books?pageSize=100`,
        headers: basic,
      },
      {
        label: 'GET /opds/v2.0/libraries/{id}/books?pageSize=100 (OPDS 2 JSON, 100 publications)',
        path: `/opds/v2.0/libraries/${library}/books?pageSize=100`,
        headers: basic,
      },
    ];
    const { counts, samples, peakLoad } = await interleavedRounds(base, requests, { warmup: WARMUP, rounds: ROUNDS });
    await worker.stop();
    worker = undefined;

    const plans = capturePlans({
      state,
      database,
      requests: requests
        .filter((r) => !r.reference)
        .slice(0, 1)
        .map((r) => ({ label: r.label, method: 'GET', path: r.path })),
    });
    const fullScans = fullTableScans(plans, CATALOG_TABLES).map((scan) => scan.line);
    const sqlMs = plans.requests[0].statements.reduce((sum, st) => sum + st.ms, 0);
    const rows = requests.map((r, j) => {
      const p50 = percentile(samples[j], 50);
      const p99 = percentile(samples[j], 99);
      return [
        r.label,
        String(counts[j]),
        p50.toFixed(1),
        percentile(samples[j], 95).toFixed(1),
        p99.toFixed(1),
        Math.max(...samples[j]).toFixed(1),
        String(samples[j].length),
        r.reference ? '—' : p50 <= TARGET_MS && p99 <= TARGET_MS ? 'meets' : 'MISSES',
      ];
    });
    const table = markdownTable(
      ['request', 'entries', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'n', `p50/p99 ≤ ${TARGET_MS} ms`],
      rows,
    );
    writeSection(
      'OPDS acquisition feed on 100,000 books',
      [
        `Catalog: ${seeded.books.toLocaleString('en-US')} books in ${seeded.series.toLocaleString('en-US')} series (bench/lib/seed-catalog.ts, as for`,
        `the catalog queries), plus ${PAGES_PER_BOOK} JPEG page rows for each of the ${withPages} books first in title order`,
        'of the library, so every entry of the measured page has page rows to read (its PSE link type comes from them).',
        'A reader app asks for 100 entries of one library (title order) with HTTP Basic `api:<key>` (one D1 read per',
        'request for the key). Real worker (`wrangler dev`, local D1) over loopback, sequential; timed from Node.',
        `${WARMUP} warm-up rounds, then ${ROUNDS} interleaved rounds. Percentiles by nearest rank.`,
        '',
        table,
        '',
        `The Atom feed's catalog statements take ${sqlMs.toFixed(1)} ms in SQLite on their own (plans below): the`,
        "API's book page (one statement: the page CTE over `books_live_library_title_idx`, enriched) and its",
        'count, the library row, and one statement for the extras of the 100 books (authors, language, year,',
        "publisher, EPUB layout, and their pages' distinct media types through the `book_pages` primary key).",
        fullScans.length === 0
          ? '**No statement scans a whole table.**'
          : `**Whole-table scans:** ${fullScans.map((s) => `\`${s}\``).join('; ')}.`,
        '',
        `Load: 1-minute load average up to ${peakLoad.toFixed(2)} during the timed rounds on ${os.availableParallelism()} CPUs`,
        '(the benchmark itself keeps about one busy; the machine was shared with other work).',
        '',
        ...environmentLines('npm run bench -- opds-feed'),
        '',
        '### Query plans (OPDS 1.2 library feed, 100 entries)',
        '',
        planMarkdown(plans, { maxParamChars: 80 }),
      ].join('\n'),
    );
    console.log(table);
  } finally {
    await worker?.stop();
    removeDir(state);
  }
}

await main();
