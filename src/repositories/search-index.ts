/**
 * The FTS5 table `catalog_search` (migrations/0002_search.sql): one row per book and per series, written
 * in the same D1 batch as the row it mirrors, and the MATCH side used by POST /series/search and the
 * `fullTextSearch` of the list endpoints (API.md §4, DECISIONS.md §Lists: prefix- and
 * diacritic-insensitive, ranked by relevance).
 *
 * Each entity's FTS rowid is derived from a hash of (entity type, id): the UNINDEXED columns cannot be
 * looked up, so replacing or deleting by rowid is what keeps a write O(log n) instead of a table scan.
 * Series rows have negative rowids and book rows positive ones, so a search for one type restricts the
 * MATCH to its rowid range (FTS5 skips the other part of each doclist) instead of reading every matching
 * row's entity_type.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';

export type SearchEntityType = 'book' | 'series';
type Statement = BatchItem<'sqlite'>;

/** What a search row holds; a series row carries the authors/publishers gathered from its books. */
export interface SearchDocument {
  entityType: SearchEntityType;
  entityId: string;
  libraryId: string;
  title: string;
  /** For a book: its series' title (so "batman 12" finds issue 12 of Batman); for a series: null. */
  seriesTitle: string | null;
  summary: string | null;
  authors: readonly string[];
  publishers: readonly string[];
  /** Genres, tags, characters, teams, locations, the ISBN (absent: none). */
  terms?: readonly string[];
}

/**
 * A 63-bit rowid from SHA-256 of `type:id`, as a decimal string (SQLite CASTs it exactly; JS numbers
 * would lose bits): h ≥ 0 for a book, -h - 1 < 0 for a series (migration 0006 moved existing series rows
 * the same way). Collisions are ~n²/2⁶⁴: negligible for any real catalog.
 */
export function searchRowId(entityType: SearchEntityType, entityId: string): string {
  const digest = sha256(new TextEncoder().encode(`${entityType}:${entityId}`));
  let value = 0n;
  for (let i = 0; i < 8; i++) value = (value << 8n) | BigInt(digest[i] as number);
  const hash = value & 0x7fff_ffff_ffff_ffffn;
  return (entityType === 'series' ? -hash - 1n : hash).toString();
}

/** The rowid range of a type's search rows (see searchRowId). */
const ROWID_RANGE: Record<SearchEntityType, SQL> = {
  book: sql.raw('rowid >= 0'),
  series: sql.raw('rowid < 0'),
};

/**
 * The virtual table as drizzle sees it (the migration creates it; drizzle-kit never reads this file).
 * Writes go through the query builder because drizzle's D1 batch cannot run raw statements with
 * parameters.
 */
const catalogSearch = sqliteTable('catalog_search', {
  rowid: integer('rowid'),
  entityType: text('entity_type'),
  entityId: text('entity_id'),
  libraryId: text('library_id'),
  title: text('title'),
  seriesTitle: text('series_title'),
  summary: text('summary'),
  authors: text('authors'),
  publishers: text('publishers'),
  terms: text('terms'),
});

const rowIdSql = (entityType: SearchEntityType, entityId: string) =>
  sql`CAST(${searchRowId(entityType, entityId)} AS INTEGER)`;

/** Statements that replace an entity's search row; run them in the batch that writes the entity. */
export function upsertSearchRow(db: Database, doc: SearchDocument): Statement[] {
  return [deleteSearchRow(db, doc.entityType, doc.entityId), insertSearchRow(db, doc)];
}

/** The statement that adds the search row of an entity that has none yet (a newly created one). */
export function insertSearchRow(db: Database, doc: SearchDocument): Statement {
  return db.insert(catalogSearch).values({
    rowid: rowIdSql(doc.entityType, doc.entityId),
    entityType: doc.entityType,
    entityId: doc.entityId,
    libraryId: doc.libraryId,
    title: doc.title,
    seriesTitle: doc.seriesTitle ?? '',
    summary: doc.summary ?? '',
    authors: doc.authors.join(' ; '),
    publishers: doc.publishers.join(' ; '),
    terms: (doc.terms ?? []).join(' ; '),
  });
}

/**
 * The statements that (re)write a book's search row from what is stored — the book row, its series' title,
 * its terms — so that a row written with locked fields kept indexes the kept values, whatever the caller
 * computed. `isNew`: the book has no search row yet (nothing to delete first).
 */
export function bookSearchRowStatements(db: Database, bookId: string, isNew = false): Statement[] {
  const insert = db.insert(catalogSearch).select(
    sql`SELECT ${rowIdSql('book', bookId)}, 'book', b.id, b.library_id, b.title, s.title, coalesce(b.summary, ''),
      coalesce((SELECT group_concat(json_extract(a.value, '$.name'), ' ; ') FROM json_each(b.authors) a), ''),
      coalesce(b.publisher, '') || ' ; ' || coalesce(b.imprint, ''),
      coalesce((SELECT group_concat(t.value, ' ; ') FROM book_terms t WHERE t.book_id = b.id), '') || ' ; ' ||
        coalesce(b.isbn, '')
      FROM books b JOIN series s ON s.id = b.series_id WHERE b.id = ${bookId}`,
  );
  return isNew ? [insert] : [deleteSearchRow(db, 'book', bookId), insert];
}

/**
 * The statements that rewrite a live series' search row from what is stored: its title and alternate titles,
 * summary, credits, publishers (its own and its live books'), and terms; a deleted series has none.
 */
export function seriesSearchRowStatements(db: Database, seriesId: string): Statement[] {
  return [
    deleteSearchRow(db, 'series', seriesId),
    db.insert(catalogSearch).select(
      sql`SELECT ${rowIdSql('series', seriesId)}, 'series', s.id, s.library_id,
        s.title || ' ; ' ||
          coalesce((SELECT group_concat(json_extract(t.value, '$.title'), ' ; ') FROM json_each(s.alternate_titles) t), ''),
        '', coalesce(s.summary, ''),
        coalesce((SELECT group_concat(json_extract(a.value, '$.name'), ' ; ') FROM json_each(s.authors) a), ''),
        coalesce(s.publisher, '') || ' ; ' || coalesce(s.imprint, '') || ' ; ' ||
          coalesce((SELECT group_concat(DISTINCT b.publisher) FROM books b
            WHERE b.series_id = s.id AND b.deleted_at IS NULL AND b.publisher IS NOT s.publisher), ''),
        coalesce((SELECT group_concat(t.value, ' ; ') FROM series_terms t WHERE t.series_id = s.id), '')
        FROM series s WHERE s.id = ${seriesId} AND s.deleted_at IS NULL`,
    ),
  ];
}

export function deleteSearchRow(db: Database, entityType: SearchEntityType, entityId: string): Statement {
  return db.delete(catalogSearch).where(sql`${catalogSearch.rowid} = ${rowIdSql(entityType, entityId)}`);
}

/** Removes the search rows of a whole library (library deletion); a scan of the index, which is rare. */
export function deleteLibrarySearchRows(db: Database, libraryId: string): Statement {
  return db.delete(catalogSearch).where(sql`${catalogSearch.libraryId} = ${libraryId}`);
}

/** Lower-cased, accents removed: the same folding the `unicode61 remove_diacritics 2` tokenizer applies. */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

const MAX_TERMS = 16;
const MAX_TERM_LENGTH = 64;

/**
 * Builds a safe FTS5 MATCH expression from user text: folded, split where the tokenizer splits (anything
 * but letters, digits and private-use characters), each token double-quoted (so `OR`, `NEAR`, `*`, `"`,
 * `:` and `-` are plain text, never syntax) and made a prefix query. Tokens are ANDed.
 * Returns null when the text holds nothing searchable.
 */
export function toMatchExpression(text: string): string | null {
  const tokens = foldForSearch(text)
    .split(/[^\p{L}\p{N}\p{Co}]+/u)
    .filter((token) => token.length > 0)
    .slice(0, MAX_TERMS)
    .map((token) => `"${token.slice(0, MAX_TERM_LENGTH)}"*`);
  return tokens.length > 0 ? tokens.join(' ') : null;
}

/**
 * bm25 weights per column in table order: entity_type, entity_id, library_id (unindexed), then title,
 * series_title, summary, authors, publishers, terms. A title hit outranks a summary hit.
 */
const RANK = sql.raw('bm25(catalog_search, 0, 0, 0, 10.0, 4.0, 1.0, 3.0, 2.0, 2.0)');

/** `SELECT entity_id, rank` of the rows of one type matching `match`: join it to rank results. */
export function rankedMatches(entityType: SearchEntityType, match: string): SQL {
  return sql`SELECT entity_id, ${RANK} AS rank FROM catalog_search
    WHERE catalog_search MATCH ${match} AND ${ROWID_RANGE[entityType]} AND entity_type = ${entityType}`;
}
