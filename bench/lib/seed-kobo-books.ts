/**
 * Seeds a library a Kobo syncs straight into the local D1 file of a `wrangler dev` not running (migrations
 * applied): the library `Kobo` at prefix `kobo` with id <libraryId>, and its books.
 *
 *   node --import tsx bench/lib/seed-kobo-books.ts <d1.sqlite> <libraryId> <books>
 *
 * Books in series of 10, EPUBs, CBZs and CBRs in turn, analysed as a scan leaves them: an EPUB is reflowable,
 * a comic has 20 JPEG pages in its page index (what the sync reads to give the EPUB's exact size). No search
 * rows: a sync searches nothing. Deterministic ids. Prints `{books, series, pages}` as JSON.
 */
import { DatabaseSync } from 'node:sqlite';

const PAGES = 20;
const FORMATS = ['epub', 'cbz', 'cbr'] as const;
const uuid = (kind: number, n: number) =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function main() {
  const [file, libraryId, count] = process.argv.slice(2) as [string, string, string];
  const books = Number(count);
  const db = new DatabaseSync(file);
  db.exec('PRAGMA foreign_keys = ON');
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const insertSeries = db.prepare(`INSERT INTO series (id, library_id, path, group_key, title, title_sort, book_count,
    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertBook = db.prepare(`INSERT INTO books (id, library_id, series_id, path, file_name, file_format, file_size,
    etag, file_modified_at, file_hash, title, title_sort, number, number_sort, sort_key, authors, language, summary,
    page_count, epub_layout, analyzed, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'en', ?, ?, ?, 1, ?, ?)`);
  const insertPage = db.prepare(`INSERT INTO book_pages (book_id, number, file_name, media_type, width, height, size,
    locator) VALUES (?, ?, ?, 'image/jpeg', 1264, 1680, ?, ?)`);
  let pages = 0;
  db.exec('BEGIN');
  db.prepare(`INSERT INTO libraries (id, name, path, scanning_config, created_at, updated_at)
    VALUES (?, 'Kobo', 'kobo', ?, ?, ?)`).run(
    libraryId,
    JSON.stringify({ enabled: false, cron_schedule: null, default_mode: 'normal', scan_on_start: false }),
    at(0),
    at(0),
  );
  for (let i = 0; i < books; i++) {
    const s = Math.floor(i / 10);
    const seriesId = uuid(1, s);
    const seriesTitle = `Kobo Series ${String(s + 1).padStart(4, '0')}`;
    if (i % 10 === 0) {
      insertSeries.run(
        seriesId,
        libraryId,
        `kobo/${seriesTitle}`,
        `group-${s}`,
        seriesTitle,
        seriesTitle,
        Math.min(10, books - i),
        at(i),
        at(i),
      );
    }
    const id = uuid(2, i);
    const format = FORMATS[i % 3] as (typeof FORMATS)[number];
    const number = (i % 10) + 1;
    const title = `${seriesTitle} #${number}`;
    const authors = JSON.stringify([{ name: `Writer ${s % 97}`, role: 'writer' }]);
    const summary = `Issue ${number} of ${seriesTitle}, seeded for the Kobo benchmark.`;
    insertBook.run(
      id,
      libraryId,
      seriesId,
      `kobo/${seriesTitle}/${title}.${format}`,
      `${title}.${format}`,
      format,
      20_000_000 + i,
      `etag-${i}`,
      at(i),
      `hash-${i}`,
      title,
      title,
      number,
      number,
      String(number).padStart(4, '0'),
      authors,
      summary,
      format === 'epub' ? 400 : PAGES,
      format === 'epub' ? 'reflowable' : null,
      at(i),
      at(i),
    );
    if (format === 'epub') continue;
    for (let p = 1; p <= PAGES; p++) {
      const size = 600_000 + p;
      const locator =
        format === 'cbz'
          ? {
              kind: 'zip',
              name: `${p}.jpg`,
              offset: p * 700_000,
              method: 0,
              compressedSize: size,
              size,
              crc32: p,
              headerHint: 36,
            }
          : {
              kind: 'rar',
              name: `${p}.jpg`,
              format: 4,
              offset: p * 700_000,
              packedSize: size,
              size,
              crc32: p,
              method: 0,
              unpackVersion: 29,
              dictionarySize: 0,
              solid: false,
              hostOs: 2,
              chain: null,
            };
      insertPage.run(id, p, `${p}.jpg`, size, JSON.stringify(locator));
      pages += 1;
    }
  }
  db.exec('COMMIT');
  db.close();
  console.log(JSON.stringify({ books, series: Math.ceil(books / 10), pages }));
}

main();
