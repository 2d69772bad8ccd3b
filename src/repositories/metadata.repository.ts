/**
 * Reads of editable metadata (issue 18): a live series' or book's values, locks and terms, for a viewer
 * (a series the viewer may not see reads exactly like a missing one). Writes go through CatalogWriter.
 */
import { eq } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { books, bookTerms, series, seriesTerms } from '../db/schema';
import type { TermKind } from '../db/tables/metadata-values';
import { TERM_KINDS } from '../db/tables/metadata-values';
import type { Viewer } from './visibility';
import { inIds } from './catalog-sql';
import { liveVisibleBooks, liveVisibleSeries } from './live-visible';

export type SeriesMetadataRow = typeof series.$inferSelect;
export type BookMetadataRow = typeof books.$inferSelect;
export type Terms = Record<TermKind, string[]>;

function groupTerms(rows: Array<{ kind: TermKind; value: string }>): Terms {
  const terms = Object.fromEntries(TERM_KINDS.map((k) => [k, [] as string[]])) as Terms;
  for (const row of rows) terms[row.kind].push(row.value);
  for (const kind of TERM_KINDS) terms[kind].sort((a, b) => a.localeCompare(b));
  return terms;
}

/** The row found (if any) with its terms grouped by kind. */
function withTerms<R>([rows, terms]: [R[], Array<{ kind: TermKind; value: string }>]) {
  const row = rows[0];
  return row ? { row, terms: groupTerms(terms) } : undefined;
}

/** The rows found, in the order of `ids`, each with its own terms grouped by kind. */
function byOwner<R extends { id: string }>(
  ids: readonly string[],
  rows: R[],
  terms: Array<{ owner: string; kind: TermKind; value: string }>,
): Map<string, { row: R; terms: Terms }> {
  const found = new Map(rows.map((row) => [row.id, row]));
  const termsOf = new Map<string, Array<{ kind: TermKind; value: string }>>();
  for (const term of terms) termsOf.set(term.owner, [...(termsOf.get(term.owner) ?? []), term]);
  const result = new Map<string, { row: R; terms: Terms }>();
  for (const id of ids) {
    const row = found.get(id);
    if (row) result.set(id, { row, terms: groupTerms(termsOf.get(id) ?? []) });
  }
  return result;
}

export class MetadataRepository {
  constructor(private readonly db: Database) {}

  /** Of these series, the live ones the viewer may see, each with its terms (one batch, however many). */
  async seriesOfEach(viewer: Viewer, ids: readonly string[]) {
    if (ids.length === 0) return new Map<string, { row: SeriesMetadataRow; terms: Terms }>();
    const rows = this.db.select().from(series).where(liveVisibleSeries(viewer, ids));
    return byOwner(ids, ...(await this.db.batch([rows, this.termsOfEach(seriesTerms, seriesTerms.seriesId, ids)])));
  }

  /** Of these books, the live ones the viewer may see, each with its terms (one batch, however many). */
  async booksOfEach(viewer: Viewer, ids: readonly string[]) {
    if (ids.length === 0) return new Map<string, { row: BookMetadataRow; terms: Terms }>();
    const rows = this.db.select().from(books).where(liveVisibleBooks(viewer, ids));
    return byOwner(ids, ...(await this.db.batch([rows, this.termsOfEach(bookTerms, bookTerms.bookId, ids)])));
  }

  /** A live series the viewer may see, with its terms; undefined otherwise. */
  async series(viewer: Viewer, id: string): Promise<{ row: SeriesMetadataRow; terms: Terms } | undefined> {
    const row = this.db.select().from(series).where(liveVisibleSeries(viewer, id));
    return withTerms(await this.db.batch([row, this.termsOf(seriesTerms, seriesTerms.seriesId, id)]));
  }

  /** A live book the viewer may see, with its terms; undefined otherwise. */
  async book(viewer: Viewer, id: string): Promise<{ row: BookMetadataRow; terms: Terms } | undefined> {
    const row = this.db.select().from(books).where(liveVisibleBooks(viewer, id));
    return withTerms(await this.db.batch([row, this.termsOf(bookTerms, bookTerms.bookId, id)]));
  }

  private termsOfEach(
    table: typeof seriesTerms | typeof bookTerms,
    owner: typeof seriesTerms.seriesId | typeof bookTerms.bookId,
    ids: readonly string[],
  ) {
    return this.db.select({ owner, kind: table.kind, value: table.value }).from(table).where(inIds(owner, ids));
  }

  private termsOf(table: typeof seriesTerms | typeof bookTerms, owner: SQLiteColumn, id: string) {
    return this.db.select({ kind: table.kind, value: table.value }).from(table).where(eq(owner, id));
  }
}
