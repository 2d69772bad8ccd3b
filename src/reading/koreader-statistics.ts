/**
 * KOReader's statistics database (`statistics.sqlite3`, its statistics plugin, koreader/koreader
 * plugins/statistics.koplugin/main.lua, schema 20221111) as sittings of measured reading (docs/DECISIONS.md
 * §Reading statistics, "KOReader's statistics"). The tables read:
 *
 * - `book(id INTEGER PRIMARY KEY, title, authors, …, md5, …)`: `md5` is KOReader's partial MD5 of the file, the
 *   same document hash its progress sync sends, which Longbox keeps as a book's `readerHash`. One file can have
 *   several rows (KOReader keys a book by title, authors and md5, so a metadata edit makes a new row).
 * - `page_stat_data(id_book, page, start_time, duration, total_pages)`: one row per page visit, `start_time` in Unix
 *   seconds, `duration` in seconds (KOReader caps it at its "max seconds per page", 120 by default).
 *
 * A book's visits become sittings the way progress writes do (src/reading/rules.ts MERGE_WINDOW_MS): visits
 * less than the window apart are one sitting. Its measured time is the union of its visits' intervals, so a visit
 * stored twice (KOReader's cloud sync merges the databases of several devices) counts once; its pages are the
 * distinct pages visited. A sitting's client id is the book's md5 and its first second, so reading the same
 * database again names the same sittings (and a sitting that grew since keeps its id).
 */
import { SqliteFile, SqliteFileError, type SqliteValue, tableColumns } from '../lib/sqlite-file';

/** KOReader's statistics schema this reader was written against (`DB_SCHEMA_VERSION`, `PRAGMA user_version`). */
export const KOREADER_STATISTICS_SCHEMA = 20221111;

/** The database is not KOReader's statistics, or not one this reader can read; the message says why. */
export class NotKoreaderStatistics extends Error {
  override name = 'NotKoreaderStatistics';
}

/** A sitting read from the database: one book (by its hash), measured by the device. */
export interface KoreaderSitting {
  /** `koreader:<md5>:<first Unix second>`: the same sitting in a later upload has the same id. */
  clientId: string;
  md5: string;
  startedAt: string;
  endedAt: string;
  measuredMs: number;
  pagesRead: number;
}

/** A book of the database that has reading, as KOReader names it. */
export interface KoreaderBook {
  /** The partial MD5 (lower case), or null when KOReader kept none or it is not one. */
  md5: string | null;
  title: string | null;
  authors: string | null;
  sittings: number;
}

export interface KoreaderStatistics {
  /** `PRAGMA user_version` of the file. */
  schemaVersion: number;
  /** The books with reading, one per md5 (books without a usable md5 each on their own). */
  books: KoreaderBook[];
  /** The sittings of books with an md5, by book and then time. */
  sittings: KoreaderSitting[];
}

const MD5 = /^[0-9a-f]{32}$/;

/**
 * A book's page visits as three columns of numbers rather than an object each: V8 keeps an array of doubles
 * unboxed (8 bytes a value), so 32 MiB of statistics (~600,000 visits) take ~14 MB here instead of ~30.
 */
interface Visits {
  start: number[];
  end: number[];
  page: number[];
}

/** The columns a table of the file must have, by name, to their places in its records. */
function columnsOf(schema: ReturnType<SqliteFile['schema']>, table: string, needed: string[]) {
  const entry = schema.find((e) => e.type === 'table' && e.name.toLowerCase() === table);
  if (!entry) return null;
  if (!entry.sql) throw new NotKoreaderStatistics(`its ${table} table has no definition`);
  if (/\)\s*WITHOUT\s+ROWID\s*;?\s*$/i.test(entry.sql)) {
    throw new NotKoreaderStatistics(`its ${table} table is not the one KOReader makes (WITHOUT ROWID)`);
  }
  const { columns, rowidColumn } = tableColumns(entry.sql);
  const lower = columns.map((c) => c.toLowerCase());
  const places: Record<string, number> = {};
  for (const name of needed) {
    const place = lower.indexOf(name);
    if (place < 0) throw new NotKoreaderStatistics(`its ${table} table has no ${name} column`);
    places[name] = place;
  }
  return { rootPage: entry.rootPage, places, rowidColumn };
}

const numberOf = (value: SqliteValue | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const textOf = (value: SqliteValue | undefined) => (typeof value === 'string' ? value : null);

/**
 * Reads the database's books and page visits, and groups each book's visits into sittings (visits less than
 * `mergeWindowMs` apart). Throws `NotKoreaderStatistics` for a file that is not a SQLite database, is damaged or
 * cut short, or lacks KOReader's tables.
 */
export function readKoreaderStatistics(bytes: Uint8Array, mergeWindowMs: number): KoreaderStatistics {
  try {
    return read(bytes, mergeWindowMs);
  } catch (error) {
    if (error instanceof SqliteFileError) throw new NotKoreaderStatistics(`The file is ${error.message}`);
    throw error;
  }
}

function read(bytes: Uint8Array, mergeWindowMs: number): KoreaderStatistics {
  const file = new SqliteFile(bytes);
  const schema = file.schema();
  const version = file.userVersion;
  const pages = columnsOf(schema, 'page_stat_data', ['id_book', 'page', 'start_time', 'duration']);
  if (!pages) {
    const old = schema.some((e) => e.type === 'table' && e.name.toLowerCase() === 'page_stat');
    throw new NotKoreaderStatistics(
      old
        ? `The file is KOReader's statistics from before 2020 (schema ${version}): open a book in a current KOReader once, which upgrades it, and send it again`
        : "The file is a SQLite database, but not KOReader's statistics (it has no page_stat_data table)",
    );
  }
  const books = columnsOf(schema, 'book', ['id', 'md5', 'title', 'authors']);
  if (!books)
    throw new NotKoreaderStatistics(
      "The file is a SQLite database, but not KOReader's statistics (it has no book table)",
    );

  // Book rows → the md5 (or a key of their own when they have none) their visits are grouped under.
  const keyOfBook = new Map<number, string>();
  const described = new Map<string, { md5: string | null; title: string | null; authors: string | null }>();
  file.forEachRow(books.rootPage, (rowid, values) => {
    const id = books.places.id === books.rowidColumn ? rowid : numberOf(values[books.places.id!]);
    if (id === null) return;
    const raw = textOf(values[books.places.md5!])?.trim().toLowerCase() ?? '';
    const md5 = MD5.test(raw) ? raw : null;
    const key = md5 ?? `book:${id}`;
    keyOfBook.set(id, key);
    if (!described.has(key)) {
      described.set(key, {
        md5,
        title: textOf(values[books.places.title!]),
        authors: textOf(values[books.places.authors!]),
      });
    }
  });

  const visits = new Map<string, Visits>();
  file.forEachRow(pages.rootPage, (_rowid, values) => {
    const book = numberOf(values[pages.places.id_book!]);
    const start = numberOf(values[pages.places.start_time!]);
    const duration = numberOf(values[pages.places.duration!]);
    const page = numberOf(values[pages.places.page!]) ?? 0;
    // A visit of no book, no time or no length says nothing about reading time.
    if (book === null || start === null || duration === null || duration <= 0) return;
    const key = keyOfBook.get(book);
    if (key === undefined) return;
    let list = visits.get(key);
    if (!list) {
      list = { start: [], end: [], page: [] };
      visits.set(key, list);
    }
    list.start.push(start);
    list.end.push(start + duration);
    list.page.push(page);
  });

  const sittings: KoreaderSitting[] = [];
  const bookList: KoreaderBook[] = [];
  const windowSeconds = mergeWindowMs / 1000;
  for (const [key, list] of visits) {
    const book = described.get(key) as { md5: string | null; title: string | null; authors: string | null };
    const ofBook = sittingsOf(list, windowSeconds);
    // Done with this book's visits: they can be collected before the next book's sittings are made.
    visits.delete(key);
    bookList.push({ ...book, sittings: ofBook.length });
    if (!book.md5) continue;
    for (const sitting of ofBook) {
      sittings.push({
        clientId: `koreader:${book.md5}:${sitting.start}`,
        md5: book.md5,
        startedAt: new Date(sitting.start * 1000).toISOString(),
        endedAt: new Date(sitting.end * 1000).toISOString(),
        measuredMs: Math.round(sitting.covered * 1000),
        pagesRead: sitting.pages,
      });
    }
  }
  return { schemaVersion: version, books: bookList, sittings };
}

/** A book's visits as sittings: in time order, a new one where a visit starts a window or more after the last ended. */
function sittingsOf(visits: Visits, windowSeconds: number) {
  const { start, end, page } = visits;
  const order = Array.from(start, (_, i) => i);
  order.sort((a, b) => (start[a] as number) - (start[b] as number) || (end[a] as number) - (end[b] as number));
  const out: Array<{ start: number; end: number; covered: number; pages: number }> = [];
  let current: { start: number; end: number; covered: number; pages: Set<number> } | null = null;
  const close = () => {
    if (current)
      out.push({ start: current.start, end: current.end, covered: current.covered, pages: current.pages.size });
  };
  for (const i of order) {
    const from = start[i] as number;
    const to = end[i] as number;
    if (current && from - current.end < windowSeconds) {
      // The union of the visits: only what reaches past the sitting's end so far adds time.
      if (to > current.end) {
        current.covered += to - Math.max(from, current.end);
        current.end = to;
      }
      current.pages.add(page[i] as number);
      continue;
    }
    close();
    current = { start: from, end: to, covered: to - from, pages: new Set([page[i] as number]) };
  }
  close();
  return out;
}
