/**
 * What serving a book's bytes needs (pages, the file, thumbnails): the book's storage columns, its
 * stored page rows, and the cover books and series of series and libraries — each for a viewer, who
 * gets nothing of a book or series visibility.ts hides (the services answer 404).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { bookPages, books, libraries, series } from '../db/schema';
import { firstBookOf, inIds } from './catalog-sql';
import { type Viewer, visibleBooks, visibleLibraries, visibleSeries } from './visibility';
import { liveVisibleSeries } from './live-visible';

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

/** The book `id`, if the viewer may see it. */
const visibleBook = (viewer: Viewer, id: string) => and(eq(books.id, id), visibleBooks(viewer, books));

const seriesColumns = { id: series.id, thumbnailKey: series.thumbnailKey, deletedAt: series.deletedAt };

export class BookMediaRepository {
  constructor(private readonly db: Database) {}

  book(viewer: Viewer, id: string) {
    return this.db.select(bookColumns).from(books).where(visibleBook(viewer, id)).get();
  }

  /** What the Readium endpoints need of a book: its storage columns, layout and stored EPUB index. */
  readiumBook(viewer: Viewer, id: string) {
    return this.db
      .select({
        ...bookColumns,
        readiumIndex: books.readiumIndex,
        updatedAt: books.updatedAt,
      })
      .from(books)
      .where(visibleBook(viewer, id))
      .get();
  }

  /** Which of these ids still have a row, live or in the trash (the cache sweep keeps their images). */
  async existingIds(ids: string[]): Promise<Set<string>> {
    const rows = await this.db.select({ id: books.id }).from(books).where(inIds(books.id, ids));
    return new Set(rows.map((row) => row.id));
  }

  /** The full row, for the thumbnail generator. */
  fullBook(viewer: Viewer, id: string) {
    return this.db.select().from(books).where(visibleBook(viewer, id)).get();
  }

  pages(viewer: Viewer, bookId: string) {
    const owner = sql`(SELECT b.series_id FROM books b WHERE b.id = ${bookPages.bookId})`;
    return this.db
      .select(pageColumns)
      .from(bookPages)
      .where(and(eq(bookPages.bookId, bookId), visibleBooks(viewer, { seriesId: owner })))
      .orderBy(asc(bookPages.number));
  }

  series(viewer: Viewer, id: string) {
    return this.db
      .select(seriesColumns)
      .from(series)
      .where(and(eq(series.id, id), visibleSeries(viewer, series)))
      .get();
  }

  /** The library, if the viewer sees it. */
  library(viewer: Viewer, id: string) {
    return this.db
      .select({ id: libraries.id })
      .from(libraries)
      .where(and(eq(libraries.id, id), visibleLibraries(viewer, libraries.id)))
      .get();
  }

  /** The series' cover book: its first live book in reading order (catalog-sql.ts firstBookOf). */
  firstBookOfSeries(viewer: Viewer, seriesId: string) {
    return this.db
      .select()
      .from(books)
      .where(and(eq(books.id, firstBookOf(sql`${seriesId}`)), visibleBooks(viewer, books)))
      .get();
  }

  /** The library's cover series: its first live series by title among those the viewer sees. */
  firstSeriesOfLibrary(viewer: Viewer, libraryId: string) {
    return this.db
      .select(seriesColumns)
      .from(series)
      .where(and(eq(series.libraryId, libraryId), liveVisibleSeries(viewer)))
      .orderBy(sql`${series.titleSort} COLLATE NOCASE`, asc(series.id))
      .limit(1)
      .get();
  }
}

export type MediaBook = NonNullable<Awaited<ReturnType<BookMediaRepository['book']>>>;
export type MediaPage = Awaited<ReturnType<BookMediaRepository['pages']>>[number];
export type FullBook = NonNullable<Awaited<ReturnType<BookMediaRepository['fullBook']>>>;
