/**
 * What serving a book's bytes needs (pages, the file, thumbnails): the book's storage columns, its
 * stored page rows, and the cover books and series of series and libraries — each for a viewer, who
 * gets nothing of a book or series visibility.ts hides (the services answer 404).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { bookPages, books, covers, libraries, series } from '../db/schema';
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
  fileModifiedAt: books.fileModifiedAt,
  pageCount: books.pageCount,
  epubLayout: books.epubLayout,
  analysisError: books.analysisError,
  analyzed: books.analyzed,
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

/**
 * What serving a book's cover needs, in the statement that finds the book: its generated thumbnail, the
 * uploaded cover selected for it (a scalar subquery over covers_book_idx; at most one is selected), and
 * the facts that decide whether one can be generated. The full row (large JSON indexes) is read only then.
 */
const coverColumns = {
  id: books.id,
  libraryId: books.libraryId,
  seriesId: books.seriesId,
  thumbnailKey: books.thumbnailKey,
  thumbnailUpdatedAt: books.thumbnailUpdatedAt,
  analysisError: books.analysisError,
  deletedAt: books.deletedAt,
  // "books"."id" written out: drizzle leaves a selected column of the query's own table unqualified, which
  // inside this subquery would name the cover's id.
  selectedCoverId: sql<string | null>`(SELECT c.id FROM ${covers} AS c
    WHERE c.book_id = "books"."id" AND c.selected = 1 LIMIT 1)`,
};

/** The book `id`, if the viewer may see it. */
const visibleBook = (viewer: Viewer, id: string) => and(eq(books.id, id), visibleBooks(viewer, books));

const mediaBookQuery = (db: Database, viewer: Viewer, id: string) =>
  db.select(bookColumns).from(books).where(visibleBook(viewer, id));

/**
 * A book's pages in reading order. Only read beside the book's own visibility test (pageTable): its pages are
 * kept only when the book row comes back, so they need no test of their own.
 */
const pagesQuery = (db: Database, bookId: string) =>
  db.select(pageColumns).from(bookPages).where(eq(bookPages.bookId, bookId)).orderBy(asc(bookPages.number));

const seriesColumns = { id: series.id, thumbnailKey: series.thumbnailKey, deletedAt: series.deletedAt };

/**
 * When the image a series' stored cover key names was last written: a book's generated thumbnail is rewritten
 * in place under its key (`bookThumbnailsRoot` + the book's id), the book row records when; any other key (an
 * uploaded cover) names bytes that never change, and the series row records when it was pointed at them.
 */
const seriesCoverWrittenAt = (bookThumbnailsRoot: string) =>
  // "series"."…" written out: drizzle leaves a selected column of the query's own table unqualified, which
  // inside the subquery would name the book's column of the same name.
  sql<string | null>`coalesce((SELECT b.thumbnail_updated_at FROM ${books} AS b
    WHERE b.id = substr("series"."thumbnail_key", ${bookThumbnailsRoot.length + 1})
      AND "series"."thumbnail_key" = ${bookThumbnailsRoot} || b.id), "series"."thumbnail_updated_at")`;

export class BookMediaRepository {
  constructor(private readonly db: Database) {}

  /** Whether the viewer may see the book (a cached page table is served only then). */
  async isVisible(viewer: Viewer, id: string): Promise<boolean> {
    return (await this.db.select({ id: books.id }).from(books).where(visibleBook(viewer, id)).get()) !== undefined;
  }

  /** The book and its pages in reading order, in one round trip (a batch); null when the viewer cannot see it. */
  async pageTable(viewer: Viewer, id: string): Promise<{ book: MediaBook; pages: MediaPage[] } | null> {
    const [rows, pages] = await this.db.batch([mediaBookQuery(this.db, viewer, id), pagesQuery(this.db, id)]);
    const book = rows[0];
    return book ? { book, pages } : null;
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

  /** What serving the book's cover needs (coverColumns). */
  coverBook(viewer: Viewer, id: string) {
    return this.db.select(coverColumns).from(books).where(visibleBook(viewer, id)).get();
  }

  /** The full row, for the thumbnail generator. */
  fullBook(viewer: Viewer, id: string) {
    return this.db.select().from(books).where(visibleBook(viewer, id)).get();
  }

  /** The series and when the image its stored cover key names was written (the cover's version). */
  series(viewer: Viewer, id: string, bookThumbnailsRoot: string) {
    return this.db
      .select({ ...seriesColumns, coverWrittenAt: seriesCoverWrittenAt(bookThumbnailsRoot) })
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

  /** The series' cover book (coverColumns): its first live book in reading order (catalog-sql.ts firstBookOf). */
  firstBookOfSeries(viewer: Viewer, seriesId: string) {
    return this.db
      .select(coverColumns)
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

export type MediaBook = Awaited<ReturnType<typeof mediaBookQuery>>[number];
export type MediaPage = Awaited<ReturnType<typeof pagesQuery>>[number];
export type CoverBook = NonNullable<Awaited<ReturnType<BookMediaRepository['coverBook']>>>;
export type FullBook = NonNullable<Awaited<ReturnType<BookMediaRepository['fullBook']>>>;
