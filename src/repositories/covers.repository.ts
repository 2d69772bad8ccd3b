/**
 * Cover bookkeeping (issue 3 point 7): which page a book's thumbnail is made from, and which thumbnail
 * a book, its series and its library point at. A series' cover is its first live book's in reading
 * order (catalog-sql.ts firstBookOf), the same book on-deck starts from and the reader opens first.
 * Written by the thumbnail generator and the book-work consumers, for every viewer alike; a book's own
 * thumbnail is recorded by CatalogWriter#thumbnailRecorded, the one writer of book rows.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { bookPages, books, libraries, series } from '../db/schema';
import { firstBookOf } from './catalog-sql';

export class CoversRepository {
  constructor(private readonly db: Database) {}

  /** The book's first page (what a thumbnail is made from when the file names no cover). */
  firstPage(bookId: string) {
    return this.db
      .select()
      .from(bookPages)
      .where(eq(bookPages.bookId, bookId))
      .orderBy(asc(bookPages.number))
      .limit(1)
      .get();
  }

  /** The thumbnail and library of the series' first live book in reading order, if it has one. */
  seriesCoverBook(seriesId: string) {
    return this.db
      .select({ key: books.thumbnailKey, libraryId: books.libraryId })
      .from(books)
      .where(eq(books.id, firstBookOf(sql`${seriesId}`)))
      .get();
  }

  series(seriesId: string) {
    return this.db.select().from(series).where(eq(series.id, seriesId)).get();
  }

  async pointSeriesAt(seriesId: string, key: string, at: string): Promise<void> {
    await this.db.update(series).set({ thumbnailKey: key, thumbnailUpdatedAt: at }).where(eq(series.id, seriesId));
  }

  /** Points a library without a cover at `key`; true when it had none. */
  async pointLibraryWithoutCoverAt(libraryId: string, key: string, at: string): Promise<boolean> {
    const updated = await this.db
      .update(libraries)
      .set({ thumbnailKey: key, thumbnailUpdatedAt: at })
      .where(and(eq(libraries.id, libraryId), isNull(libraries.thumbnailKey)))
      .returning({ id: libraries.id });
    return updated.length > 0;
  }
}
