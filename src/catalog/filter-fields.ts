/**
 * The filterable fields of series and books (API.md §4 Advanced filtering, DECISIONS.md §Lists) and the
 * SQL each operator means. String fields compare case-insensitively (SQLite NOCASE/LIKE fold ASCII);
 * genre and tag are multi-valued (one row per term), so `is` means "has that term" and `isNull` "has
 * none". readStatus is about the requesting user.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { books, series } from '../db/schema';
import { ENUM_OPERATORS, type FilterField, type FilterFields, ID_OPERATORS, STRING_OPERATORS } from './filters';

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

/** Genre/tag of a series or book: owner id IN (the owners having a matching term). */
function termField(kind: 'genre' | 'tag', owner: 'series' | 'book'): FilterField {
  const ownerId = owner === 'series' ? series.id : books.id;
  const owners = (test: SQL) =>
    owner === 'series'
      ? sql`SELECT st.series_id FROM series_terms st WHERE st.kind = ${kind} AND ${test}`
      : sql`SELECT bt.book_id FROM book_terms bt WHERE bt.kind = ${kind} AND ${test}`;
  const value = sql.raw(owner === 'series' ? 'st.value' : 'bt.value');
  return {
    operators: STRING_OPERATORS,
    toSql(operator, text) {
      if (operator === 'isNull') return sql`${ownerId} NOT IN (${owners(sql`1`)})`;
      if (operator === 'isNotNull') return sql`${ownerId} IN (${owners(sql`1`)})`;
      if (operator === 'isNot') return sql`${ownerId} NOT IN (${owners(stringTest(value, 'is', text))})`;
      return sql`${ownerId} IN (${owners(stringTest(value, operator, text))})`;
    },
  };
}

function enumField(values: readonly string[], is: (value: string) => SQL): FilterField {
  return {
    operators: ENUM_OPERATORS,
    values,
    toSql: (operator, value) => (operator === 'is' ? is(value as string) : sql`NOT (${is(value as string)})`),
  };
}

/** Series read state for a user: read = every live book completed; unread = no progress on any. */
export function seriesReadStatusSql(userId: string, status: ReadStatus): SQL {
  const anyProgress = sql`EXISTS (SELECT 1 FROM books b JOIN read_progress rp ON rp.book_id = b.id
    WHERE b.series_id = ${series.id} AND b.deleted_at IS NULL AND rp.user_id = ${userId})`;
  const anyNotRead = sql`EXISTS (SELECT 1 FROM books b WHERE b.series_id = ${series.id} AND b.deleted_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM read_progress rp WHERE rp.book_id = b.id AND rp.user_id = ${userId} AND rp.completed = 1))`;
  if (status === 'unread') return sql`NOT ${anyProgress}`;
  if (status === 'in_progress') return sql`(${anyProgress} AND ${anyNotRead})`;
  return sql`(${anyProgress} AND NOT ${anyNotRead})`;
}

export function bookReadStatusSql(userId: string, status: ReadStatus): SQL {
  const progress = (extra: SQL) =>
    sql`EXISTS (SELECT 1 FROM read_progress rp WHERE rp.book_id = ${books.id} AND rp.user_id = ${userId}${extra})`;
  if (status === 'unread') return sql`NOT ${progress(sql``)}`;
  return progress(status === 'read' ? sql` AND rp.completed = 1` : sql` AND rp.completed = 0`);
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
    readStatus: enumField(READ_STATUSES, (value) => seriesReadStatusSql(userId, value as ReadStatus)),
  };
}

export function bookFilterFields(userId: string): FilterFields {
  return {
    libraryId: idColumn(books.libraryId),
    seriesId: idColumn(books.seriesId),
    genre: termField('genre', 'book'),
    tag: termField('tag', 'book'),
    title: stringColumn(books.title),
    readStatus: enumField(READ_STATUSES, (value) => bookReadStatusSql(userId, value as ReadStatus)),
    hasError: enumField(['true', 'false'], (value) =>
      value === 'true' ? sql`${books.analysisError} IS NOT NULL` : sql`${books.analysisError} IS NULL`,
    ),
  };
}
