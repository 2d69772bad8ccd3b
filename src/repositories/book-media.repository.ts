/**
 * What serving a book's bytes needs (pages, the file, thumbnails): the book's storage columns, its
 * stored page rows, and the cover books and series of series and libraries.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { bookPages, books, libraries, series } from '../db/schema';

const bookColumns = {
  id: books.id,
  libraryId: books.libraryId,
  seriesId: books.seriesId,
  path: books.path,
  fileName: books.fileName,
  fileFormat: books.fileFormat,
  fileSize: books.fileSize,
  etag: books.etag,
  pageCount: books.pageCount,
  epubLayout: books.epubLayout,
  analysisError: books.analysisError,
  containerIndex: books.containerIndex,
  thumbnailKey: books.thumbnailKey,
  deletedAt: books.deletedAt,
};

const pageColumns = {
  number: bookPages.number,
  fileName: bookPages.fileName,
  mediaType: bookPages.mediaType,
  width: bookPages.width,
  height: bookPages.height,
  size: bookPages.size,
  locator: bookPages.locator,
};

export class BookMediaRepository {
  constructor(private readonly db: Database) {}

  book(id: string) {
    return this.db.select(bookColumns).from(books).where(eq(books.id, id)).get();
  }

  /** Which of these ids still have a row, live or in the trash (the cache sweep keeps their images). */
  async existingIds(ids: string[]): Promise<Set<string>> {
    // One JSON parameter: D1 binds at most 100 parameters per statement, and a list page holds up to 1,000 keys.
    const rows = await this.db
      .select({ id: books.id })
      .from(books)
      .where(sql`${books.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
    return new Set(rows.map((row) => row.id));
  }

  /** The full row, for the thumbnail generator. */
  fullBook(id: string) {
    return this.db.select().from(books).where(eq(books.id, id)).get();
  }

  pages(bookId: string) {
    return this.db
      .select(pageColumns)
      .from(bookPages)
      .where(eq(bookPages.bookId, bookId))
      .orderBy(asc(bookPages.number));
  }

  series(id: string) {
    return this.db
      .select({ id: series.id, thumbnailKey: series.thumbnailKey, deletedAt: series.deletedAt })
      .from(series)
      .where(eq(series.id, id))
      .get();
  }

  library(id: string) {
    return this.db.select({ id: libraries.id }).from(libraries).where(eq(libraries.id, id)).get();
  }

  /** The series' cover book: its first live book in reading order. */
  firstBookOfSeries(seriesId: string) {
    return this.db
      .select()
      .from(books)
      .where(and(eq(books.seriesId, seriesId), isNull(books.deletedAt)))
      .orderBy(asc(books.sortKey))
      .limit(1)
      .get();
  }

  /** The library's cover series: its first live series by title. */
  firstSeriesOfLibrary(libraryId: string) {
    return this.db
      .select({ id: series.id, thumbnailKey: series.thumbnailKey, deletedAt: series.deletedAt })
      .from(series)
      .where(and(eq(series.libraryId, libraryId), isNull(series.deletedAt)))
      .orderBy(sql`${series.titleSort} COLLATE NOCASE`, asc(series.id))
      .limit(1)
      .get();
  }
}

export type MediaBook = NonNullable<Awaited<ReturnType<BookMediaRepository['book']>>>;
export type MediaPage = Awaited<ReturnType<BookMediaRepository['pages']>>[number];
export type FullBook = NonNullable<Awaited<ReturnType<BookMediaRepository['fullBook']>>>;
