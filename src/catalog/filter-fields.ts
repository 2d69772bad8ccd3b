/**
 * The filterable fields of series and books (API.md §4 Advanced filtering, DECISIONS.md §Lists) and the
 * SQL each operator means. String fields compare case-insensitively (SQLite NOCASE/LIKE fold ASCII);
 * genre and tag are multi-valued (one row per term), so `is` means "has that term" and `isNull` "has
 * none". readStatus is about the requesting user.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { books, series } from '../db/schema';
import { BOOKS_LIVE_CATALOG_INDEX } from '../db/tables/books';
import {
  asPredicate,
  ENUM_OPERATORS,
  type FieldTest,
  type FilterField,
  type FilterFields,
  ID_OPERATORS,
  IdSet,
  STRING_OPERATORS,
} from './filters';

export const READ_STATUSES = ['unread', 'in_progress', 'read'] as const;
export type ReadStatus = (typeof READ_STATUSES)[number];

/** `%`, `_` and the escape character itself are literal in the user's text. */
function likePattern(value: string, mode: 'contains' | 'beginsWith'): string {
  const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
  return mode === 'contains' ? `%${escaped}%` : `${escaped}%`;
}

/** The SQL for a string operator applied to `target` (a column, or `value` of a term row). */
function stringTest(target: SQLWrapper, operator: string, value: string | undefined): SQL {
  switch (operator) {
    case 'is':
      return sql`${target} = ${value} COLLATE NOCASE`;
    case 'contains':
      return sql`${target} LIKE ${likePattern(value ?? '', 'contains')} ESCAPE '\\'`;
    case 'beginsWith':
      return sql`${target} LIKE ${likePattern(value ?? '', 'beginsWith')} ESCAPE '\\'`;
    default:
      throw new Error(`stringTest does not handle ${operator}`);
  }
}

/** A nullable text column; an empty string counts as null, and `isNot` keeps rows without a value. */
function stringColumn(column: SQLWrapper): FilterField {
  return {
    operators: STRING_OPERATORS,
    toSql(operator, value) {
      if (operator === 'isNull') return sql`(${column} IS NULL OR ${column} = '')`;
      if (operator === 'isNotNull') return sql`(${column} IS NOT NULL AND ${column} <> '')`;
      if (operator === 'isNot') return sql`(${column} IS NULL OR ${column} <> ${value} COLLATE NOCASE)`;
      return stringTest(column, operator, value);
    },
  };
}

function idColumn(column: SQLWrapper): FilterField {
  return {
    operators: ID_OPERATORS,
    toSql: (operator, value) => (operator === 'is' ? sql`${column} = ${value}` : sql`${column} <> ${value}`),
  };
}

/** Genre/tag of a series or book: the owners having a matching term (or, negated, the others). */
function termField(kind: 'genre' | 'tag', owner: 'series' | 'book'): FilterField {
  const ownerId = owner === 'series' ? series.id : books.id;
  const owners = (test: SQL) =>
    owner === 'series'
      ? sql`SELECT st.series_id FROM series_terms st WHERE st.kind = ${kind} AND ${test}`
      : sql`SELECT bt.book_id FROM book_terms bt WHERE bt.kind = ${kind} AND ${test}`;
  const value = sql.raw(owner === 'series' ? 'st.value' : 'bt.value');
  return {
    operators: STRING_OPERATORS,
    readsOtherTables: true,
    toSql(operator, text) {
      if (operator === 'isNull') return sql`${ownerId} NOT IN (${owners(sql`1`)})`;
      if (operator === 'isNotNull') return new IdSet(ownerId, owners(sql`1`));
      if (operator === 'isNot') return sql`${ownerId} NOT IN (${owners(stringTest(value, 'is', text))})`;
      return new IdSet(ownerId, owners(stringTest(value, operator, text)));
    },
  };
}

function enumField(values: readonly string[], is: (value: string) => FieldTest, readsOtherTables = false): FilterField {
  return {
    operators: ENUM_OPERATORS,
    values,
    readsOtherTables,
    toSql: (operator, value) =>
      operator === 'is' ? is(value as string) : sql`NOT (${asPredicate(is(value as string))})`,
  };
}

/**
 * Read state is computed from the user's own progress rows, not per catalog row: SQLite builds each list
 * once (an index-only read of the user's rows) and tests membership, instead of probing read_progress
 * for every book or series. The user's rows reach their books through the covering live-books index.
 */
const liveBooksIndex = sql.raw(`INDEXED BY ${BOOKS_LIVE_CATALOG_INDEX}`);

/** Series with progress (any state) on a live book. */
const seriesWithProgress = (userId: string) =>
  sql`SELECT b.series_id FROM read_progress rp CROSS JOIN books b ${liveBooksIndex} ON b.id = rp.book_id
    WHERE rp.user_id = ${userId} AND b.deleted_at IS NULL`;

/** Series whose live books are all completed (and that have one). */
const seriesRead = (userId: string) =>
  sql`SELECT b.series_id FROM read_progress rp CROSS JOIN books b ${liveBooksIndex} ON b.id = rp.book_id
    WHERE rp.user_id = ${userId} AND rp.completed = 1 AND b.deleted_at IS NULL GROUP BY b.series_id
    HAVING count(*) = (SELECT count(*) FROM books lb WHERE lb.series_id = b.series_id AND lb.deleted_at IS NULL)`;

/** Series read state for a user: read = every live book completed; unread = no progress on any. */
export function seriesReadStatusSql(userId: string, status: ReadStatus): FieldTest {
  if (status === 'unread') return sql`${series.id} NOT IN (${seriesWithProgress(userId)})`;
  if (status === 'read') return new IdSet(series.id, seriesRead(userId));
  return sql`(${series.id} IN (${seriesWithProgress(userId)}) AND ${series.id} NOT IN (${seriesRead(userId)}))`;
}

/** Book read state for a user: read = completed, in_progress = progress not completed, unread = none. */
export function bookReadStatusSql(userId: string, status: ReadStatus): FieldTest {
  const progress = sql`SELECT rp.book_id FROM read_progress rp WHERE rp.user_id = ${userId}`;
  if (status === 'unread') return sql`${books.id} NOT IN (${progress})`;
  return new IdSet(books.id, sql`${progress} AND rp.completed = ${status === 'read' ? 1 : 0}`);
}

export function seriesFilterFields(userId: string): FilterFields {
  return {
    libraryId: idColumn(series.libraryId),
    genre: termField('genre', 'series'),
    tag: termField('tag', 'series'),
    status: stringColumn(series.status),
    publisher: stringColumn(series.publisher),
    language: stringColumn(series.language),
    name: stringColumn(series.title),
    readStatus: enumField(READ_STATUSES, (value) => seriesReadStatusSql(userId, value as ReadStatus), true),
  };
}

export function bookFilterFields(userId: string): FilterFields {
  return {
    libraryId: idColumn(books.libraryId),
    seriesId: idColumn(books.seriesId),
    genre: termField('genre', 'book'),
    tag: termField('tag', 'book'),
    title: stringColumn(books.title),
    readStatus: enumField(READ_STATUSES, (value) => bookReadStatusSql(userId, value as ReadStatus), true),
    hasError: enumField(['true', 'false'], (value) =>
      value === 'true' ? sql`${books.analysisError} IS NOT NULL` : sql`${books.analysisError} IS NULL`,
    ),
  };
}
