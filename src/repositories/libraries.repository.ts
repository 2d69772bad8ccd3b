import { and, asc, count, eq, inArray, or, sql } from 'drizzle-orm';
import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import {
  apiKeyLibraries,
  bookAuthors,
  bookPages,
  bookStoryArcs,
  books,
  bookTerms,
  covers,
  collectionSeries,
  libraries,
  readListBooks,
  readingSessions,
  readProgress,
  series,
  seriesAuthors,
  seriesSharingLabels,
  seriesTerms,
  userLibraryAccess,
  wantToRead,
} from '../db/schema';
import { inIds } from './catalog-sql';
import { forgetTrackingStatements } from './series-tracking.repository';
import { forgetSeriesProgress } from './series-read-progress';
import { type Viewer, visibleLibraries } from './visibility';
import { liveVisibleBooks, liveVisibleSeries } from './live-visible';

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

  /** The libraries the viewer sees, by name, with the series and books in them the viewer sees. */
  async list(viewer: Viewer): Promise<LibraryWithCounts[]> {
    const rows = await this.db
      .select()
      .from(libraries)
      .where(visibleLibraries(viewer, libraries.id))
      .orderBy(asc(libraries.name));
    return this.withCounts(viewer, rows);
  }

  async get(viewer: Viewer, id: string): Promise<LibraryWithCounts | undefined> {
    const row = await this.getRecord(viewer, id);
    return row ? (await this.withCounts(viewer, [row]))[0] : undefined;
  }

  /** The library's row, if the viewer sees it. */
  async getRecord(viewer: Viewer, id: string): Promise<LibraryRecord | undefined> {
    return this.db
      .select()
      .from(libraries)
      .where(and(eq(libraries.id, id), visibleLibraries(viewer, libraries.id)))
      .get();
  }

  /** The library's row for the system's own work on it (a scan, a re-analysis): no viewer. */
  async forSystem(id: string): Promise<LibraryRecord | undefined> {
    return this.db.select().from(libraries).where(eq(libraries.id, id)).get();
  }

  /** Every library, for the system's own work (scheduled scans): no viewer. */
  async allForSystem(): Promise<LibraryRecord[]> {
    return this.db.select().from(libraries).orderBy(asc(libraries.name));
  }

  /** Those of `ids` naming a library the viewer sees. */
  async visibleIds(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: libraries.id })
      .from(libraries)
      .where(and(inIds(libraries.id, ids), visibleLibraries(viewer, libraries.id)));
    return new Set(rows.map((row) => row.id));
  }

  /** Libraries by id or by name (case-insensitive), for single sign-on group mappings: id → its id. */
  async resolve(references: readonly string[]): Promise<Map<string, string>> {
    const rows = references.length
      ? await this.db
          .select({ id: libraries.id, name: libraries.name })
          .from(libraries)
          .where(
            or(
              inIds(libraries.id, references),
              sql`lower(${libraries.name}) IN (SELECT lower(value) FROM json_each(${JSON.stringify(references)}))`,
            ),
          )
      : [];
    const found = new Map<string, string>();
    for (const reference of references) {
      const match = rows.find((r) => r.id === reference || r.name.toLowerCase() === reference.toLowerCase());
      if (match) found.set(reference, match.id);
    }
    return found;
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

  /** The library of a live (not soft-deleted) book or series the viewer sees; undefined when there is none. */
  async ofLive(viewer: Viewer, kind: 'book' | 'series', id: string): Promise<string | undefined> {
    const row =
      kind === 'book'
        ? await this.db.select({ libraryId: books.libraryId }).from(books).where(liveVisibleBooks(viewer, id)).get()
        : await this.db.select({ libraryId: series.libraryId }).from(series).where(liveVisibleSeries(viewer, id)).get();
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
    const results = await this.db.batch([
      this.db.delete(bookPages).where(inArray(bookPages.bookId, bookIds)),
      this.db.delete(bookTerms).where(inArray(bookTerms.bookId, bookIds)),
      this.db.delete(bookAuthors).where(inArray(bookAuthors.bookId, bookIds)),
      // Their images in the CACHE bucket go with the hourly sweep (storage/cached-images.ts).
      this.db.delete(covers).where(or(inArray(covers.bookId, bookIds), inArray(covers.seriesId, seriesIds))),
      this.db.delete(bookStoryArcs).where(inArray(bookStoryArcs.bookId, bookIds)),
      this.db.delete(readListBooks).where(inArray(readListBooks.bookId, bookIds)),
      this.db.delete(readProgress).where(inArray(readProgress.bookId, bookIds)),
      this.db.delete(readingSessions).where(inArray(readingSessions.bookId, bookIds)),
      forgetSeriesProgress(this.db, seriesIds),
      this.db.delete(wantToRead).where(inArray(wantToRead.bookId, bookIds)),
      this.db.delete(books).where(eq(books.libraryId, id)),
      this.db.delete(collectionSeries).where(inArray(collectionSeries.seriesId, seriesIds)),
      this.db.delete(wantToRead).where(inArray(wantToRead.seriesId, seriesIds)),
      this.db.delete(seriesTerms).where(inArray(seriesTerms.seriesId, seriesIds)),
      this.db.delete(seriesAuthors).where(inArray(seriesAuthors.seriesId, seriesIds)),
      ...forgetTrackingStatements(this.db, seriesIds),
      this.db.delete(seriesSharingLabels).where(inArray(seriesSharingLabels.seriesId, seriesIds)),
      this.db.delete(series).where(eq(series.libraryId, id)),
      this.db.delete(catalogSearch).where(eq(catalogSearch.libraryId, id)),
      // The library leaves every grant: users and keys narrowed to it simply see one library fewer.
      this.db.delete(userLibraryAccess).where(eq(userLibraryAccess.libraryId, id)),
      this.db.delete(apiKeyLibraries).where(eq(apiKeyLibraries.libraryId, id)),
      this.db.delete(libraries).where(eq(libraries.id, id)).returning({ id: libraries.id }),
    ]);
    return (results.at(-1) as unknown[]).length > 0;
  }

  /** The live series and books of each library that the viewer sees (hidden ones are not counted). */
  private async withCounts(viewer: Viewer, rows: LibraryRecord[]): Promise<LibraryWithCounts[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [seriesCounts, bookCounts] = await Promise.all([
      this.db
        .select({ libraryId: series.libraryId, total: count() })
        .from(series)
        .where(and(inIds(series.libraryId, ids), liveVisibleSeries(viewer)))
        .groupBy(series.libraryId),
      this.db
        .select({ libraryId: books.libraryId, total: count() })
        .from(books)
        .where(and(inIds(books.libraryId, ids), liveVisibleBooks(viewer)))
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
