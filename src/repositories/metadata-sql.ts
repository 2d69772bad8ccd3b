/**
 * The lock rules of editable metadata in SQL (DECISIONS.md §Organise and share): which columns a scan
 * writes only while unlocked, how a lock guards a value, the locks of the multi-valued terms, and the
 * credit indexes (`book_authors`, `series_authors`) rebuilt from the JSON columns they index. The guards
 * are evaluated by SQLite in the statement that writes, so an edit made while a scan is running is never
 * overwritten by that scan.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { bookAuthors, books, series, seriesAuthors } from '../db/schema';
import type { TermKind } from '../db/tables/metadata-values';

/** Book columns that hold metadata a scan writes only while their lock is off. */
export const BOOK_LOCKED_COLUMNS = {
  title: books.titleLock,
  // The sort title follows an edited title: a scan keeps it while either is locked.
  titleSort: sql`(${books.titleSortLock} OR ${books.titleLock})`,
  summary: books.summaryLock,
  number: books.numberLock,
  numberSort: books.numberSortLock,
  volume: books.volumeLock,
  chapter: books.chapterLock,
  year: books.yearLock,
  month: books.monthLock,
  day: books.dayLock,
  publisher: books.publisherLock,
  imprint: books.imprintLock,
  language: books.languageLock,
  authors: books.authorsLock,
  isbn: books.isbnLock,
  format: books.formatLock,
  count: books.countLock,
  links: books.linksLock,
} as const;
export type BookLockedColumn = keyof typeof BOOK_LOCKED_COLUMNS;

/** The lock of each kind of book term. */
const BOOK_TERM_LOCKS: Record<TermKind, SQLiteColumn> = {
  genre: books.genresLock,
  tag: books.tagsLock,
  character: books.charactersLock,
  team: books.teamsLock,
  location: books.locationsLock,
};

/** Series genres and tags are editable; characters, teams and locations are always their books'. */
const SERIES_TERM_LOCKS: Partial<Record<TermKind, SQLiteColumn>> = {
  genre: series.genresLock,
  tag: series.tagsLock,
};

/** `CASE WHEN lock THEN column ELSE value END`: the stored value while locked, else the new one. */
export function unlessLocked(lock: SQLWrapper, column: SQLiteColumn, value: unknown): SQL {
  return sql`CASE WHEN ${lock} THEN ${column} ELSE ${sql.param(value, column)} END`;
}

/** `CASE kind WHEN 'genre' THEN <its lock> … ELSE 0 END` over the owner's lock columns. */
function termLock(locks: Partial<Record<TermKind, SQLiteColumn>>, kind: SQL): SQL {
  const cases = Object.entries(locks).map(([k, column]) => sql`WHEN ${k} THEN ${column}`);
  return sql`CASE ${kind} ${sql.join(cases, sql` `)} ELSE 0 END`;
}

/** The term kind `kind` (an SQL expression) is locked on the book `bookId`. */
export const bookTermLocked = (kind: SQL, bookId: SQLWrapper | string) =>
  sql`(SELECT ${termLock(BOOK_TERM_LOCKS, kind)} FROM ${books} WHERE ${books.id} = ${bookId})`;

/** The term kind `kind` is locked on the series `seriesId`. */
export const seriesTermLocked = (kind: SQL, seriesId: SQLWrapper) =>
  sql`(SELECT ${termLock(SERIES_TERM_LOCKS, kind)} FROM ${series} WHERE ${series.id} = ${seriesId})`;

/** A role's place when credits are listed by role: writers first, as comics credit them. */
export const ROLE_ORDER = sql.raw(`CASE role WHEN 'writer' THEN 0 WHEN 'penciller' THEN 1 WHEN 'inker' THEN 2
  WHEN 'colorist' THEN 3 WHEN 'letterer' THEN 4 WHEN 'cover' THEN 5 WHEN 'editor' THEN 6 WHEN 'translator' THEN 7
  ELSE 8 END`);

/** Statements that make `book_authors` hold exactly the credits of `books.authors` for one book. */
export function reindexBookAuthors(db: Database, bookId: string, isNew = false) {
  const insert = db
    .insert(bookAuthors)
    .select(
      sql`SELECT b.id, json_extract(a.value, '$.name'), coalesce(nullif(json_extract(a.value, '$.role'), ''), 'writer')
        FROM books b, json_each(b.authors) a
        WHERE b.id = ${bookId} AND coalesce(json_extract(a.value, '$.name'), '') <> ''`,
    )
    .onConflictDoNothing();
  return isNew ? [insert] : [db.delete(bookAuthors).where(sql`${bookAuthors.bookId} = ${bookId}`), insert];
}

/** Statements that make `series_authors` hold exactly the credits of `series.authors` for some series. */
export function reindexSeriesAuthors(db: Database, seriesIds: SQL) {
  return [
    db.delete(seriesAuthors).where(sql`${seriesAuthors.seriesId} IN ${seriesIds}`),
    db
      .insert(seriesAuthors)
      .select(
        sql`SELECT s.id, json_extract(a.value, '$.name'), json_extract(a.value, '$.role')
          FROM series s, json_each(s.authors) a WHERE s.id IN ${seriesIds}`,
      )
      .onConflictDoNothing(),
  ];
}

/**
 * The credits of a series derived from its live books: each person once per role (names compared without
 * case), writers first, then by name. A JSON array, as `series.authors` stores it.
 */
export function derivedSeriesAuthors(seriesId: SQLWrapper): SQL {
  return sql`coalesce((SELECT json_group_array(json_object('name', name, 'role', role)) FROM (
    SELECT ba.name AS name, ba.role AS role FROM book_authors ba JOIN books b ON b.id = ba.book_id
    WHERE b.series_id = ${seriesId} AND b.deleted_at IS NULL
    GROUP BY ba.name COLLATE NOCASE, ba.role ORDER BY ${ROLE_ORDER}, role, name COLLATE NOCASE)), '[]')`;
}
