/**
 * SQL fragments every catalog read shares (docs/ARCHITECTURE.md, "Catalog query layer"), so a rule is
 * written once: the reading order of a series' books (and so its first book), the viewer's progress on
 * a book, a series' book counts for the viewer, a book's authors, and id lists of any length.
 * Fragments take the columns of the table they apply to (the table itself or a drizzle alias of it),
 * so raw statements (`FROM books b` with `alias(books, 'b')`) and query builders use the same code.
 */
import { and, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { books, readProgress } from '../db/schema';
import { nullsLast, type SortKey } from './catalog-page';
import type { Viewer } from './visibility';

/**
 * `column IN (ids)` for any number of ids with ONE bound parameter (a JSON array read by json_each):
 * D1 binds at most 100 parameters per statement, and a page can hold 1,000 ids. SQLite builds the list
 * once and looks each id up through the column's index, as it does for a literal list.
 */
export function inIds(column: SQLWrapper, ids: readonly string[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}

/** The columns of a book row the shared fragments read. */
export interface BookColumns {
  id: SQLWrapper;
  seriesId: SQLWrapper;
  numberSort: SQLWrapper;
  sortKey: SQLWrapper;
}

/**
 * Reading order within a series: the issue number with its fraction (2, 2.5, 3; books without one last,
 * in either direction), then the natural order of the file names. It is the order of `books_live_reading_order_idx`, so a walk in
 * this order over one series' live books reads the index and stops at the first row wanted.
 */
export function readingOrderKeys(b: BookColumns, direction: SortKey['direction']): SortKey[] {
  return [...nullsLast(sql`${b.numberSort}`, direction), { expr: sql`${b.sortKey}`, direction }];
}

/** Reading order ascending, the id last: where a series starts, and what comes next. */
export function readingOrder(b: BookColumns): SQL[] {
  return [...readingOrderKeys(b, 'asc').map((key) => key.expr), sql`${b.id}`];
}

/** `ORDER BY` in reading order. */
export const orderByReading = (b: BookColumns): SQL => sql`ORDER BY ${sql.join(readingOrder(b), sql`, `)}`;

/** The books whose place in reading order firstBookOf finds (aliased: it runs inside other statements). */
const first = alias(books, 'first_book');

/**
 * The first live book of a series in reading order (its cover, where on-deck starts, the book before
 * which there is no previous one), among the books `where` lets through (over the alias `first_book`):
 * a scalar subquery of its id, read from the reading-order index.
 */
export function firstBookOf(seriesId: SQLWrapper, where?: (b: typeof first) => SQL): SQL<string | null> {
  return sql<string | null>`(SELECT ${first.id} FROM ${books} AS ${sql.raw('first_book')}
    WHERE ${first.seriesId} = ${seriesId} AND ${first.deletedAt} IS NULL${where ? sql` AND ${where(first)}` : sql``}
    ${orderByReading(first)} LIMIT 1)`;
}

/** The viewer's read_progress row of a book (at most one: unique per user and book), as a join or WHERE condition. */
export function progressOf(viewer: Viewer, bookId: SQLWrapper | string): SQL {
  return and(eq(readProgress.bookId, bookId), eq(readProgress.userId, viewer.userId)) as SQL;
}

/** The columns of the viewer's progress row (null when there is none), as a Book response shows them. */
export const progressColumns = {
  id: readProgress.id,
  userId: readProgress.userId,
  currentPage: readProgress.currentPage,
  completed: readProgress.completed,
  completedAt: readProgress.completedAt,
  progressPercentage: readProgress.progressPercentage,
  locator: readProgress.locator,
  deviceId: readProgress.deviceId,
  deviceName: readProgress.deviceName,
  readerDeviceId: readProgress.readerDeviceId,
  readerDeviceName: readProgress.readerDeviceName,
  startedAt: readProgress.startedAt,
  updatedAt: readProgress.updatedAt,
};

/** A series' live books as the viewer stands with them. */
export interface ReadCounts {
  books: number;
  /** Completed by the viewer. */
  read: number;
  /** Started and not completed. */
  inProgress: number;
}

/**
 * The viewer's counts over a series' live books: its live book count with their read and started counts.
 * Unread = books − read − in progress; the API's `unreadCount` counts the books not completed (books − read). A series the
 * viewer may see shows all its books (visibility is decided per series).
 */
export function readCountsOf(viewer: Viewer, seriesId: SQLWrapper, bookCount: SQLWrapper): SQL<ReadCounts> {
  // The viewer's per-series counts (docs/ARCHITECTURE.md §Series read state), the ones readStatus filters
  // test, so a row's counts and the filter agree; one key lookup instead of a probe per book.
  return sql<ReadCounts>`(SELECT json_array(${bookCount}, coalesce(max(srp.read_count), 0),
      coalesce(max(srp.read_count + srp.in_progress_count), 0))
    FROM series_read_progress srp WHERE srp.user_id = ${viewer.userId} AND srp.series_id = ${seriesId})`.mapWith(
    toReadCounts,
  );
}

function toReadCounts(value: unknown): ReadCounts {
  const [total = 0, read = 0, started = 0] = typeof value === 'string' ? (JSON.parse(value) as number[]) : [];
  return { books: Number(total), read: Number(read), inProgress: Number(started) - Number(read) };
}

/** A person credited on a book (books.authors: a JSON array of {name, role}). */
export interface Author {
  name: string;
  role: string;
}

/** Komga and OPDS call an author without a role a writer. */
const DEFAULT_ROLE = 'writer';

/**
 * The authors of a book or series from their stored JSON (a string, or an array drizzle already
 * parsed): entries without a name are dropped, a missing role is a writer; malformed JSON is no authors.
 */
export function parseAuthors(json: unknown): Author[] {
  let value = json;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: { name?: unknown; role?: unknown } | null) =>
    entry && typeof entry.name === 'string' && entry.name !== ''
      ? [{ name: entry.name, role: typeof entry.role === 'string' && entry.role !== '' ? entry.role : DEFAULT_ROLE }]
      : [],
  );
}

/** An author's name and role as a `json_each(books.authors) a` row holds them. */
export const AUTHOR_NAME = sql.raw(`json_extract(a.value, '$.name')`);
export const AUTHOR_ROLE = sql.raw(`json_extract(a.value, '$.role')`);
