/**
 * The worker's read-only SQLite reader (src/lib/sqlite-file.ts) and KOReader's statistics read through it
 * (src/reading/koreader-statistics.ts; issue 35 point 2), against files a real SQLite wrote (node:sqlite): every
 * row of tables spread over interior pages and overflow pages, at each page size, text encoding and with
 * auto-vacuum, read exactly as SQLite itself reads them; KOReader's schema turned into sittings; and damaged files
 * (fuzzed with the readers' mutations, test/support/fuzz.ts) ending in a clean error, never a crash or a hang.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SqliteFile, SqliteFileError, type SqliteValue, tableColumns } from '../../src/lib/sqlite-file';
import { NotKoreaderStatistics, readKoreaderStatistics } from '../../src/reading/koreader-statistics';
import { MERGE_WINDOW_MS } from '../../src/reading/rules';
import { FUZZ_RUNS, fuzzCase } from '../support/fuzz';
import { koreaderStatisticsFile, sqliteFile } from '../support/koreader-statistics-db.mjs';
import {
  KOREADER_BASE,
  KOREADER_HASHES,
  KOREADER_LIBRARY,
  pagesRead,
  SAGA_SITTINGS_MS,
} from '../support/koreader-statistics-spec.mjs';

/** A table of every kind of value SQLite stores, with text long enough to spill over several overflow pages. */
function everyKindOfValue(db: DatabaseSync, rows: number) {
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, small INT, big INT, real REAL, words TEXT, raw BLOB, maybe)');
  const insert = db.prepare('INSERT INTO t (small, big, real, words, raw, maybe) VALUES (?, ?, ?, ?, ?, ?)');
  db.exec('BEGIN');
  for (let i = 0; i < rows; i++) {
    const words = i % 97 === 0 ? `long ${'é漢字🙂 '.repeat(3000 + i)}` : `row ${i} — ${'ü'.repeat(i % 50)}`;
    insert.run(
      (i % 3) - 1,
      [0, 1, 127, -128, 32_767, -8_388_608, 2_147_483_647, -(2 ** 40) - i, 2 ** 52 + i][i % 9]!,
      i / 7,
      words,
      i % 5 === 0 ? new Uint8Array([i & 255, 0, 255]) : null,
      i % 4 === 0 ? null : i % 4 === 1 ? 'text' : i,
    );
  }
  db.exec('COMMIT');
  // A column added later: the rows written before it have no value for it in their records.
  db.exec("ALTER TABLE t ADD COLUMN later TEXT DEFAULT 'x'");
  db.exec("INSERT INTO t (small, later) VALUES (1, 'added')");
}

/** The rows as SQLite itself reads them (node:sqlite 22 opens files only: the bytes go through a temporary one). */
function rowsBySqlite(bytes: Uint8Array): SqliteValue[][] {
  const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-file-'));
  try {
    const file = path.join(dir, 'copy.sqlite');
    writeFileSync(file, bytes);
    const db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare('SELECT id, small, big, real, words, raw, maybe, later FROM t ORDER BY id').all();
    db.close();
    return rows.map(
      (row) => Object.values(row).map((v) => (v instanceof Uint8Array ? new Uint8Array(v) : v)) as SqliteValue[],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows as the worker's reader reads them: the rowid in place of the INTEGER PRIMARY KEY, absent values NULL. */
function rowsByReader(bytes: Uint8Array, defaults: SqliteValue[]): SqliteValue[][] {
  const file = new SqliteFile(bytes);
  const table = file.schema().find((e) => e.name === 't');
  expect(table?.sql).toBeTruthy();
  const { columns, rowidColumn } = tableColumns(table?.sql as string);
  expect(columns).toEqual(['id', 'small', 'big', 'real', 'words', 'raw', 'maybe', 'later']);
  expect(rowidColumn).toBe(0);
  const rows: SqliteValue[][] = [];
  file.forEachRow(table?.rootPage as number, (rowid, values) => {
    rows.push(
      columns.map((_, i) => (i === rowidColumn ? rowid : i < values.length ? (values[i] ?? null) : defaults[i]!)),
    );
  });
  return rows;
}

describe('the read-only SQLite reader reads what SQLite wrote', () => {
  const layouts = [
    { pageSize: 512 },
    { pageSize: 1024, encoding: 'UTF-16le' as const },
    { pageSize: 4096, encoding: 'UTF-16be' as const, autoVacuum: true },
    { pageSize: 65_536, wal: false },
  ];
  for (const layout of layouts) {
    it(`every row and value at ${JSON.stringify(layout)}`, () => {
      const bytes = sqliteFile((db) => everyKindOfValue(db, 1500), layout);
      expect(new SqliteFile(bytes).pageSize).toBe(layout.pageSize);
      const expected = rowsBySqlite(bytes);
      expect(expected).toHaveLength(1501);
      // ALTER TABLE's default: what SQLite answers for a row written before the column existed.
      expect(rowsByReader(bytes, [null, null, null, null, null, null, null, 'x'])).toEqual(expected);
    });
  }

  it('names the columns of a CREATE TABLE as SQLite stored it, quoted names and table constraints included', () => {
    expect(
      tableColumns('CREATE TABLE "odd" ("a ""b""" text, [c d] INTEGER NOT NULL, `e` REAL, f, PRIMARY KEY (f))'),
    ).toEqual({ columns: ['a "b"', 'c d', 'e', 'f'], rowidColumn: null });
    expect(tableColumns('CREATE TABLE x (n int CHECK (n IN (1, 2)), id integer PRIMARY KEY autoincrement)')).toEqual({
      columns: ['n', 'id'],
      rowidColumn: 1,
    });
  });

  it('refuses what is not a whole SQLite database, saying why', () => {
    const bytes = sqliteFile((db) => everyKindOfValue(db, 300), { pageSize: 1024 });
    const error = (b: Uint8Array) => {
      try {
        new SqliteFile(b).forEachRow(2, () => {});
        return null;
      } catch (e) {
        return e as Error;
      }
    };
    expect(error(new TextEncoder().encode('hello, this is not a database at all'))?.message).toMatch(/not a SQLite/);
    expect(error(bytes.slice(0, bytes.length - 100))).toBeInstanceOf(SqliteFileError);
    expect(error(bytes.slice(0, 4 * 1024))?.message).toMatch(/cut short/);
  });
});

describe("KOReader's statistics as sittings (issue 35 point 2)", () => {
  it('groups each book’s page visits into sittings, one per md5, its repeated visits counted once', () => {
    const read = readKoreaderStatistics(koreaderStatisticsFile(KOREADER_LIBRARY, { pageSize: 1024 }), MERGE_WINDOW_MS);
    expect(read.schemaVersion).toBe(20221111);
    const saga = read.sittings.filter((s) => s.md5 === KOREADER_HASHES.saga);
    expect(saga.map((s) => s.measuredMs)).toEqual([expect.any(Number), ...SAGA_SITTINGS_MS]);
    const [unset, first, second] = saga;
    expect(unset?.startedAt).toBe('1970-02-10T00:00:00.000Z');
    expect(first).toMatchObject({
      clientId: `koreader:${KOREADER_HASHES.saga}:${KOREADER_BASE}`,
      startedAt: new Date(KOREADER_BASE * 1000).toISOString(),
      endedAt: new Date((KOREADER_BASE + 600) * 1000).toISOString(),
      pagesRead: 10,
    });
    expect(second).toMatchObject({ pagesRead: 5, startedAt: new Date((KOREADER_BASE + 7200) * 1000).toISOString() });
    const books = Object.fromEntries(read.books.map((b) => [b.md5 ?? b.title, b]));
    expect(books[KOREADER_HASHES.saga]?.title).toMatch(/^Saga 001 — a long subtitle/);
    expect(books[KOREADER_HASHES.saga]?.sittings).toBe(3);
    expect(books['A book without a hash']).toMatchObject({ md5: null, sittings: 1 });
    expect(read.sittings.some((s) => s.md5 === KOREADER_HASHES.elsewhere)).toBe(true);
  });

  it('visits less than the merge window apart are one sitting; a window or more apart, two', () => {
    const gap = MERGE_WINDOW_MS / 1000;
    const file = koreaderStatisticsFile([
      {
        title: 'Gaps',
        md5: KOREADER_HASHES.saga,
        visits: [
          { page: 1, start: KOREADER_BASE, duration: 60 },
          { page: 2, start: KOREADER_BASE + 60 + gap - 1, duration: 60 },
          { page: 3, start: KOREADER_BASE + 120 + 2 * gap - 1, duration: 60 },
          { page: 3, start: KOREADER_BASE + 120 + 2 * gap + 10, duration: 0 },
        ],
      },
    ]);
    const sittings = readKoreaderStatistics(file, MERGE_WINDOW_MS).sittings;
    expect(sittings.map((s) => [s.measuredMs, s.pagesRead])).toEqual([
      [120_000, 2],
      [60_000, 1],
    ]);
  });

  it('another SQLite database, and KOReader’s from before 2020, are not read as statistics', () => {
    const other = sqliteFile((db) => db.exec('CREATE TABLE notes (body TEXT)'));
    expect(() => readKoreaderStatistics(other, MERGE_WINDOW_MS)).toThrow(/not KOReader's statistics/);
    const old = sqliteFile((db) => {
      db.exec('CREATE TABLE book (id integer PRIMARY KEY, title text, authors text, md5 text)');
      db.exec('CREATE TABLE page_stat (id_book integer, page integer, start_time integer, period integer)');
    });
    expect(() => readKoreaderStatistics(old, MERGE_WINDOW_MS)).toThrow(/before 2020/);
  });

  it('a damaged or cut database ends in NotKoreaderStatistics or a result, never another error', () => {
    const seeds = [
      koreaderStatisticsFile(KOREADER_LIBRARY, { pageSize: 1024 }),
      koreaderStatisticsFile(
        [{ title: 'Many', md5: KOREADER_HASHES.diary, visits: pagesRead(1, 400, KOREADER_BASE, 30) }],
        { pageSize: 512 },
      ),
    ];
    let errors = 0;
    fc.assert(
      fc.property(fuzzCase(seeds), (bytes) => {
        try {
          readKoreaderStatistics(bytes, MERGE_WINDOW_MS);
        } catch (error) {
          if (!(error instanceof NotKoreaderStatistics)) throw error;
          errors++;
        }
      }),
      { numRuns: FUZZ_RUNS },
    );
    expect(errors).toBeGreaterThan(0);
  }, 120_000);
});
