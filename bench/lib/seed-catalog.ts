/**
 * Seeds a large catalog straight into the local D1 database file of a stopped `wrangler dev`
 * (migrations already applied, the user and the libraries already created through the API):
 *
 *   node --import tsx bench/lib/seed-catalog.ts <d1.sqlite> <config.json>
 *
 * config: { userId, libraries: [{ id, path }], series, booksPerSeries, deletedEvery, progressRows }.
 * Rows look like a scan's: sort titles, natural sort keys and FTS rowids come from the same functions
 * the scanner uses; series aggregates and series terms are derived from their books; every book and
 * live series has its catalog_search row. The user's progress makes on-deck non-trivial: finished
 * series (every progress row completed, more books left), series in progress, and stray reads.
 * Deterministic (fixed PRNG seed), so every run measures the same catalog. Prints counts as JSON.
 */
import { DatabaseSync } from 'node:sqlite';
import { readFileSync } from 'node:fs';
import { naturalSortKey } from '../../src/media/natural-sort';
import { searchRowId } from '../../src/repositories/search-index';
import { sortTitle } from '../../src/scanning/series-grouping';
import { mulberry32 } from './prng';
import { recountSeriesReadProgress } from './series-read-progress.mjs';

interface SeedConfig {
  userId: string;
  libraries: Array<{ id: string; path: string }>;
  series: number;
  booksPerSeries: number;
  /** Every n-th book is soft-deleted (its file vanished), as after real rescans. */
  deletedEvery: number;
  progressRows: number;
}

const ADJECTIVES = [
  'Silent',
  'Crimson',
  'Iron',
  'Hidden',
  'Last',
  'Broken',
  'Golden',
  'Midnight',
  'Wild',
  'Frozen',
  'Burning',
  'Lost',
  'Eternal',
  'Savage',
  'Hollow',
  'Shining',
  'Distant',
  'Fallen',
  'Secret',
  'Rising',
];
const NOUNS = [
  'Dragon',
  'Empire',
  'Knight',
  'City',
  'Blade',
  'Ocean',
  'Star',
  'Kingdom',
  'Shadow',
  'Garden',
  'Storm',
  'Witch',
  'Machine',
  'River',
  'Crown',
  'Wolf',
  'Tower',
  'Planet',
  'Harbor',
  'Academy',
  'Legion',
  'Circus',
  'Oracle',
  'Frontier',
  'Samurai',
];
const ARTICLES = ['', '', '', 'The ', 'A '];
const GENRES = [
  'Action',
  'Adventure',
  'Comedy',
  'Drama',
  'Fantasy',
  'Horror',
  'Mystery',
  'Romance',
  'Sci-Fi',
  'Slice of Life',
  'Sports',
  'Thriller',
];
const TAGS = Array.from(
  { length: 30 },
  (_, i) =>
    [
      'classic',
      'award winner',
      'ongoing',
      'completed',
      'colour',
      'black and white',
      'anthology',
      'reprint',
      'webcomic',
      'omnibus',
    ][i % 10] + (i < 10 ? '' : ` ${Math.floor(i / 10)}`),
);
const PUBLISHERS = [
  'Marvel',
  'DC Comics',
  'Image',
  'Dark Horse',
  'IDW',
  'Shueisha',
  'Kodansha',
  'Shogakukan',
  'Viz Media',
  'Yen Press',
  'Boom! Studios',
  'Oni Press',
];
const WRITERS = Array.from({ length: 200 }, (_, i) => `Writer ${String.fromCharCode(65 + (i % 26))}${i}`);

// Deterministic, so every run seeds the same catalog.
const rand = mulberry32(20261121);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
const day = (base: number, i: number) => new Date(base + i * 60_000).toISOString();

function main() {
  const [file, configFile] = process.argv.slice(2) as [string, string];
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as SeedConfig;
  const db = new DatabaseSync(file);
  db.exec('PRAGMA foreign_keys = ON');
  const insertSeries = db.prepare(`INSERT INTO series (id, library_id, path, group_key, title, title_sort, summary,
    publisher, year, language, status, book_count, page_count, file_size, local_max_volume, volumes_owned,
    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertBook = db.prepare(`INSERT INTO books (id, library_id, series_id, path, file_name, file_format,
    file_size, etag, file_modified_at, file_hash, title, title_sort, summary, number, sort_key, volume, publisher,
    year, authors, language, page_count, analyzed, deleted_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, 'cbz', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`);
  const insertBookTerm = db.prepare('INSERT OR IGNORE INTO book_terms (book_id, kind, value) VALUES (?, ?, ?)');
  const insertSeriesTerm = db.prepare('INSERT OR IGNORE INTO series_terms (series_id, kind, value) VALUES (?, ?, ?)');
  const insertSearch = db.prepare(`INSERT INTO catalog_search (rowid, entity_type, entity_id, library_id, title,
    series_title, summary, authors, publishers) VALUES (CAST(? AS INTEGER), ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertProgress = db.prepare(`INSERT INTO read_progress (id, user_id, book_id, current_page, completed,
    completed_at, progress_percentage, device_id, device_name, started_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'bench-device', 'Bench', ?, ?)`);
  const insertWant = db.prepare('INSERT INTO want_to_read (user_id, book_id, created_at) VALUES (?, ?, ?)');

  const base = Date.parse('2024-01-01T00:00:00Z');
  const seriesBooks: string[][] = [];
  let books = 0;
  let deleted = 0;
  let terms = 0;
  db.exec('BEGIN');
  for (let s = 0; s < config.series; s++) {
    const library = config.libraries[s % config.libraries.length] as { id: string; path: string };
    const title = `${pick(ARTICLES)}${pick(ADJECTIVES)} ${pick(NOUNS)}${s % 3 === 0 ? ` ${pick(NOUNS)}` : ''} ${s + 1}`;
    const seriesId = uuid();
    const folder = `${title} (${1980 + (s % 45)})`;
    const publisher = pick(PUBLISHERS);
    const year = 1980 + (s % 45);
    const seriesGenres = [pick(GENRES), pick(GENRES)];
    const ids: string[] = [];
    let live = 0;
    let pages = 0;
    let size = 0;
    const created = day(base, s);
    insertSeries.run(
      seriesId,
      library.id,
      folder,
      folder,
      title,
      sortTitle(title),
      `The saga of ${title}, told over ${config.booksPerSeries} volumes.`,
      publisher,
      year,
      pick(['en', 'ja', 'fr']),
      pick(['ongoing', 'ended', 'hiatus']),
      0,
      0,
      0,
      null,
      null,
      created,
      created,
    );
    insertSearch.run(
      searchRowId('series', seriesId),
      'series',
      seriesId,
      library.id,
      title,
      '',
      `The saga of ${title}.`,
      pick(WRITERS),
      publisher,
    );
    for (let n = 1; n <= config.booksPerSeries; n++) {
      const bookId = uuid();
      books += 1;
      const isDeleted = books % config.deletedEvery === 0;
      const fileName = `${folder} v${String(n).padStart(2, '0')}.cbz`;
      const bookTitle = rand() < 0.4 ? `${pick(ADJECTIVES)} ${pick(NOUNS)}` : `${title} v${n}`;
      const pageCount = 20 + Math.floor(rand() * 200);
      const fileSize = pageCount * (300_000 + Math.floor(rand() * 400_000));
      const writer = pick(WRITERS);
      const when = day(base, s * config.booksPerSeries + n);
      insertBook.run(
        bookId,
        library.id,
        seriesId,
        `${library.path}/${folder}/${fileName}`,
        fileName,
        fileSize,
        hex(32),
        when,
        hex(64),
        bookTitle,
        sortTitle(bookTitle),
        `Volume ${n} of ${title}.`,
        n,
        naturalSortKey(fileName),
        n,
        publisher,
        year + Math.floor(n / 4),
        JSON.stringify([{ name: writer, role: 'writer' }]),
        'en',
        pageCount,
        isDeleted ? when : null,
        when,
        when,
      );
      insertSearch.run(
        searchRowId('book', bookId),
        'book',
        bookId,
        library.id,
        bookTitle,
        title,
        `Volume ${n} of ${title}.`,
        writer,
        publisher,
      );
      const bookTerms: Array<[string, string]> = [
        ['genre', seriesGenres[0] as string],
        ['genre', rand() < 0.5 ? (seriesGenres[1] as string) : pick(GENRES)],
      ];
      for (let t = Math.floor(rand() * 3); t > 0; t--) bookTerms.push(['tag', pick(TAGS)]);
      for (const [kind, value] of bookTerms) {
        insertBookTerm.run(bookId, kind, value);
        if (!isDeleted) insertSeriesTerm.run(seriesId, kind, value);
        terms += 1;
      }
      if (isDeleted) deleted += 1;
      else {
        ids.push(bookId);
        live += 1;
        pages += pageCount;
        size += fileSize;
      }
    }
    db.prepare(`UPDATE series SET book_count = ?, page_count = ?, file_size = ?, local_max_volume = ?,
      volumes_owned = ? WHERE id = ?`).run(live, pages, size, config.booksPerSeries, live, seriesId);
    seriesBooks.push(ids);
  }

  // Progress: series finished so far (first k books completed), series being read (one book part-way),
  // and single stray reads, until progressRows rows exist. Spread over the series, latest last.
  let progress = 0;
  let minute = 0;
  const stamp = () => day(Date.parse('2025-06-01T00:00:00Z'), minute++);
  for (let s = 0; progress < config.progressRows && s < seriesBooks.length; s += 5) {
    const ids = seriesBooks[s] as string[];
    const kind = s % 3;
    const read = kind === 2 ? 1 : Math.min(ids.length - 1, 1 + Math.floor(rand() * 8));
    for (let i = 0; i < read && progress < config.progressRows; i++) {
      const partWay = kind === 1 && i === read - 1;
      const when = stamp();
      insertProgress.run(
        uuid(),
        config.userId,
        ids[i] as string,
        partWay ? 5 : 100,
        partWay ? 0 : 1,
        partWay ? null : when,
        partWay ? 0.2 : 1,
        when,
        when,
      );
      progress += 1;
    }
  }
  for (let s = 3; s < seriesBooks.length; s += 50) {
    insertWant.run(config.userId, (seriesBooks[s] as string[])[0] as string, stamp());
  }
  recountSeriesReadProgress(db, config.userId);
  db.exec('COMMIT');
  const integrity = db.prepare('PRAGMA foreign_key_check').all();
  if (integrity.length > 0) throw new Error(`foreign key violations: ${JSON.stringify(integrity.slice(0, 5))}`);
  db.close();
  console.log(JSON.stringify({ series: config.series, books, deleted, terms, progress }));
}

main();
