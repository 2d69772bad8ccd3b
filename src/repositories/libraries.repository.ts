import { and, asc, count, eq, inArray, isNull, or } from 'drizzle-orm';
import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import {
  bookAuthors,
  bookPages,
  bookStoryArcs,
  books,
  bookTerms,
  covers,
  collectionSeries,
  libraries,
  readListBooks,
  readProgress,
  series,
  seriesAuthors,
  seriesTerms,
  seriesTracking,
  wantToRead,
} from '../db/schema';

/**
 * The columns of the FTS5 table `catalog_search` (migrations/0002_search.sql) this repository needs.
 * Declared here, outside the schema drizzle-kit reads, because a raw `sql` statement with parameters
 * cannot join a D1 batch in drizzle 0.45 (its raw query has no prepared statement to bind).
 */
const catalogSearch = sqliteTable('catalog_search', { libraryId: text('library_id') });

export type { ScanningConfig } from '../db/tables/libraries';
export type LibraryRecord = typeof libraries.$inferSelect;
export type LibraryChanges = Partial<
  Pick<
    LibraryRecord,
    'name' | 'path' | 'scanningConfig' | 'defaultReadingDirection' | 'importStoryArcReadLists' | 'updatedAt'
  >
>;

/** A library row with its live (not soft-deleted) series and book counts. */
export type LibraryWithCounts = LibraryRecord & { seriesCount: number; bookCount: number };

export class LibrariesRepository {
  constructor(private readonly db: Database) {}

  async list(): Promise<LibraryWithCounts[]> {
    const rows = await this.db.select().from(libraries).orderBy(asc(libraries.name));
    return this.withCounts(rows);
  }

  async get(id: string): Promise<LibraryWithCounts | undefined> {
    const row = await this.db.select().from(libraries).where(eq(libraries.id, id)).get();
    return row ? (await this.withCounts([row]))[0] : undefined;
  }

  async getRecord(id: string): Promise<LibraryRecord | undefined> {
    return this.db.select().from(libraries).where(eq(libraries.id, id)).get();
  }

  /** Every library's id, name and path: few rows, used for the overlap and name checks. */
  async listPaths(): Promise<Array<Pick<LibraryRecord, 'id' | 'name' | 'path'>>> {
    return this.db.select({ id: libraries.id, name: libraries.name, path: libraries.path }).from(libraries);
  }

  async create(record: LibraryRecord): Promise<void> {
    await this.db.insert(libraries).values(record);
  }

  async update(id: string, changes: LibraryChanges): Promise<void> {
    await this.db.update(libraries).set(changes).where(eq(libraries.id, id));
  }

  /** A scan of the library completed at `at`. */
  async markScanned(id: string, at: string): Promise<void> {
    await this.db.update(libraries).set({ lastScannedAt: at }).where(eq(libraries.id, id));
  }

  /** The library of a live (not soft-deleted) book; undefined when there is no such book. */
  async ofLiveBook(bookId: string): Promise<string | undefined> {
    const row = await this.db
      .select({ libraryId: books.libraryId })
      .from(books)
      .where(and(eq(books.id, bookId), isNull(books.deletedAt)))
      .get();
    return row?.libraryId;
  }

  /** The library of a live (not soft-deleted) series; undefined when there is no such series. */
  async ofLiveSeries(seriesId: string): Promise<string | undefined> {
    const row = await this.db
      .select({ libraryId: series.libraryId })
      .from(series)
      .where(and(eq(series.id, seriesId), isNull(series.deletedAt)))
      .get();
    return row?.libraryId;
  }

  /**
   * Removes the library's catalog rows. The foreign keys cascade, but the children are deleted
   * explicitly too (leaves first, one batch) so a libSQL connection without `foreign_keys` enforcement
   * leaves no orphans; the search index is a virtual table no cascade reaches.
   */
  async delete(id: string): Promise<boolean> {
    const bookIds = this.db.select({ id: books.id }).from(books).where(eq(books.libraryId, id));
    const seriesIds = this.db.select({ id: series.id }).from(series).where(eq(series.libraryId, id));
    // 17 statements; the last one's returned rows say whether the library existed.
    const [, , , , , , , , , , , , , , , , deleted] = await this.db.batch([
      this.db.delete(bookPages).where(inArray(bookPages.bookId, bookIds)),
      this.db.delete(bookTerms).where(inArray(bookTerms.bookId, bookIds)),
      this.db.delete(bookAuthors).where(inArray(bookAuthors.bookId, bookIds)),
      // Their images in the CACHE bucket go with the hourly sweep (storage/cached-images.ts).
      this.db.delete(covers).where(or(inArray(covers.bookId, bookIds), inArray(covers.seriesId, seriesIds))),
      this.db.delete(bookStoryArcs).where(inArray(bookStoryArcs.bookId, bookIds)),
      this.db.delete(readListBooks).where(inArray(readListBooks.bookId, bookIds)),
      this.db.delete(readProgress).where(inArray(readProgress.bookId, bookIds)),
      this.db.delete(wantToRead).where(inArray(wantToRead.bookId, bookIds)),
      this.db.delete(books).where(eq(books.libraryId, id)),
      this.db.delete(collectionSeries).where(inArray(collectionSeries.seriesId, seriesIds)),
      this.db.delete(wantToRead).where(inArray(wantToRead.seriesId, seriesIds)),
      this.db.delete(seriesTerms).where(inArray(seriesTerms.seriesId, seriesIds)),
      this.db.delete(seriesAuthors).where(inArray(seriesAuthors.seriesId, seriesIds)),
      this.db.delete(seriesTracking).where(inArray(seriesTracking.seriesId, seriesIds)),
      this.db.delete(series).where(eq(series.libraryId, id)),
      this.db.delete(catalogSearch).where(eq(catalogSearch.libraryId, id)),
      this.db.delete(libraries).where(eq(libraries.id, id)).returning({ id: libraries.id }),
    ]);
    return deleted.length > 0;
  }

  private async withCounts(rows: LibraryRecord[]): Promise<LibraryWithCounts[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [seriesCounts, bookCounts] = await Promise.all([
      this.db
        .select({ libraryId: series.libraryId, total: count() })
        .from(series)
        .where(and(inArray(series.libraryId, ids), isNull(series.deletedAt)))
        .groupBy(series.libraryId),
      this.db
        .select({ libraryId: books.libraryId, total: count() })
        .from(books)
        .where(and(inArray(books.libraryId, ids), isNull(books.deletedAt)))
        .groupBy(books.libraryId),
    ]);
    const seriesBy = new Map(seriesCounts.map((row) => [row.libraryId, row.total]));
    const booksBy = new Map(bookCounts.map((row) => [row.libraryId, row.total]));
    return rows.map((row) => ({
      ...row,
      seriesCount: seriesBy.get(row.id) ?? 0,
      bookCount: booksBy.get(row.id) ?? 0,
    }));
  }
}
