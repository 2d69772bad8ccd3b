/**
 * The book files an administrator asked to delete (src/services/file-deletion.service.ts): the live books of
 * one book or one series the viewer sees, with where each object is in the library bucket.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books, series } from '../db/schema';
import { liveVisibleBooks, liveVisibleSeries } from './live-visible';
import type { Viewer } from './visibility';

export interface BookFile {
  id: string;
  /** The object's key in the library bucket. */
  path: string;
  seriesId: string;
  libraryId: string;
}

const fileColumns = { id: books.id, path: books.path, seriesId: books.seriesId, libraryId: books.libraryId };

export class DeletableFilesRepository {
  constructor(private readonly db: Database) {}

  /** The live book, if the viewer sees it. */
  book(viewer: Viewer, bookId: string): Promise<BookFile | undefined> {
    return this.db.select(fileColumns).from(books).where(liveVisibleBooks(viewer, bookId)).get();
  }

  /** The live books of a live series the viewer sees (none when the series is not one). */
  ofSeries(viewer: Viewer, seriesId: string): Promise<BookFile[]> {
    return this.db
      .select(fileColumns)
      .from(books)
      .innerJoin(series, eq(series.id, books.seriesId))
      .where(and(eq(books.seriesId, seriesId), liveVisibleSeries(viewer, seriesId), liveVisibleBooks(viewer)));
  }
}
