/**
 * KOReader statistics databases (`statistics.sqlite3`) written by a real SQLite — Node's `node:sqlite` — with
 * KOReader's own schema (test/vendor/koreader/statistics-schema.sql) and its own inserts, so the server's reader
 * is tested against genuine files. Node only: the workers tests receive these files as bindings
 * (vitest.config.ts `koreaderFixtureBindings`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { KOREADER_LIBRARY, KOREADER_MATRIX } from './koreader-statistics-spec.mjs';

const SCHEMA = readFileSync(path.resolve(import.meta.dirname, '../vendor/koreader/statistics-schema.sql'), 'utf8');

/** KOReader's DB_SCHEMA_VERSION (plugins/statistics.koplugin/main.lua). */
const SCHEMA_VERSION = 20221111;

/** The bytes of a database made by `build` on a fresh file with the options' pragmas, closed (checkpointed). */
export function sqliteFile(build, options = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'koreader-stats-'));
  const file = path.join(dir, 'statistics.sqlite3');
  try {
    const db = new DatabaseSync(file);
    if (options.pageSize) db.exec(`PRAGMA page_size = ${options.pageSize}`);
    if (options.encoding) db.exec(`PRAGMA encoding = '${options.encoding}'`);
    if (options.autoVacuum) db.exec('PRAGMA auto_vacuum = FULL');
    db.exec(`PRAGMA journal_mode = ${options.wal === false ? 'TRUNCATE' : 'WAL'}`);
    build(db);
    // Closing the last connection checkpoints the write-ahead log into the file, as KOReader's conn:close() does.
    db.close();
    return new Uint8Array(readFileSync(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** KOReader's statistics database holding `books` and their page visits, as its statistics plugin writes them. */
export function koreaderStatisticsFile(books, options = {}) {
  return sqliteFile((db) => {
    db.exec(SCHEMA);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    const addBook = db.prepare(
      'INSERT INTO book (title, authors, notes, last_open, highlights, pages, md5, total_read_time, total_read_pages) VALUES (?, ?, 0, ?, 0, ?, ?, ?, ?)',
    );
    // insertDB's own statement.
    const addVisit = db.prepare('INSERT OR IGNORE INTO page_stat_data VALUES(?, ?, ?, ?, ?)');
    db.exec('BEGIN');
    for (const book of books) {
      const lastOpen = book.visits.reduce((last, v) => Math.max(last, v.start + v.duration), 0);
      const time = book.visits.reduce((sum, v) => sum + v.duration, 0);
      const pages = book.totalPages ?? 100;
      const { lastInsertRowid } = addBook.run(
        book.title,
        book.authors ?? 'N/A',
        lastOpen,
        pages,
        book.md5,
        time,
        new Set(book.visits.map((v) => v.page)).size,
      );
      for (const visit of book.visits) addVisit.run(lastInsertRowid, visit.page, visit.start, visit.duration, pages);
    }
    db.exec('COMMIT');
  }, options);
}

/**
 * The files the workers tests upload (binding `KOREADER_FIXTURES`, name → base64): `library` (KOREADER_LIBRARY, at a
 * 1024-byte page size so a long title spills into an overflow page), `matrix` (KOREADER_MATRIX), `other` (a SQLite database that is not
 * KOReader's statistics) and `old` (KOReader's statistics from before schema 20201010, whose page table was
 * `page_stat`).
 */
export function koreaderFixtureBindings() {
  const base64 = (bytes) => Buffer.from(bytes).toString('base64');
  return {
    KOREADER_FIXTURES: {
      library: base64(koreaderStatisticsFile(KOREADER_LIBRARY, { pageSize: 1024 })),
      matrix: base64(koreaderStatisticsFile(KOREADER_MATRIX)),
      other: base64(
        sqliteFile((db) => {
          db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
          db.exec("INSERT INTO notes (body) VALUES ('not reading statistics')");
        }),
      ),
      old: base64(
        sqliteFile((db) => {
          db.exec('CREATE TABLE book (id integer PRIMARY KEY autoincrement, title text, authors text, md5 text)');
          db.exec('CREATE TABLE page_stat (id_book integer, page integer, start_time integer, period integer)');
        }),
      ),
    },
  };
}
