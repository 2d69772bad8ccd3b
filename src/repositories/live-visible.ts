/**
 * The catalog as a viewer reads it: live (not soft-deleted) rows of what the viewer may see — of one id or
 * of some ids when given. Most reads by id, by ids or inside a list want exactly these conditions;
 * `visibleSeries` and `visibleBooks` (visibility.ts) stay the one access rule, this only puts the
 * soft-delete check (and the id) beside it. With them, the join lists use to reach books and their series.
 */
import { and, eq, is, isNull, SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { books, series } from '../db/schema';
import { inIds } from './catalog-sql';
import { type Viewer, visibleBooks, visibleSeries } from './visibility';

/** One id, some ids, or a subquery naming them (read in the same statement). */
export type Ids = string | readonly string[] | SQL;

const ofIds = (column: SQLWrapper, ids: Ids | undefined) => {
  if (ids === undefined) return undefined;
  if (typeof ids === 'string') return eq(column as never, ids);
  return is(ids, SQL) ? sql`${column} IN (${ids})` : inIds(column, ids as readonly string[]);
};

/** Ids named by a subquery, with how many it names at most (a page's size). */
export interface IdsQuery {
  query: SQL;
  limit: number;
}

/** Live series the viewer may see (of these ids, when given). */
export const liveVisibleSeries = (viewer: Viewer, ids?: Ids): SQL =>
  and(ofIds(series.id, ids), isNull(series.deletedAt), visibleSeries(viewer, series)) as SQL;

/** Live books the viewer may see (of these ids, when given). */
export const liveVisibleBooks = (viewer: Viewer, ids?: Ids): SQL =>
  and(ofIds(books.id, ids), isNull(books.deletedAt), visibleBooks(viewer, books)) as SQL;

/**
 * A list whose rows name books (`bookId`: read-list entries, progress rows) joined to those books and their
 * series, where the live-visible conditions and the orders by series title can reach them.
 */
export const booksAndSeriesOf = (bookId: SQLiteColumn) => [
  { table: books, on: eq(books.id, bookId) },
  { table: series, on: eq(series.id, books.seriesId) },
];
