/**
 * Deleting a wrong or broken upload (issue 31 point 10; DECISIONS.md §Storage "Deleting files"). Longbox
 * never changes a book file and nothing deletes one on its own: only an administrator's explicit request
 * (the web app asks for confirmation first) removes a book's object, or every object of a series, from the
 * library bucket, with the images made from them (thumbnails, page renditions). The catalog then treats
 * the books as a scan treats files that disappeared: soft-deleted (in the trash, progress kept until the
 * trash is emptied), their series refreshed (and trashed when no book is left), the events published.
 */
import type { EventPublisher } from '../events/events';
import { notFound } from '../lib/errors';
import type { BookFile, DeletableFilesRepository } from '../repositories/deletable-files.repository';
import type { CatalogWriter } from '../repositories/catalog-writer.repository';
import type { Viewer } from '../repositories/visibility';
import { removeCachedImages } from '../storage/cached-images';

export interface FileDeletionServiceDeps {
  files: DeletableFilesRepository;
  writer: CatalogWriter;
  library: R2Bucket;
  cache: R2Bucket;
  events: EventPublisher;
}

/** R2 deletes at most this many keys per call. */
const DELETE_BATCH = 1000;

export class FileDeletionService {
  constructor(private readonly deps: FileDeletionServiceDeps) {}

  /** Deletes the book's object and cached images; the book goes to the trash. */
  async deleteBook(viewer: Viewer, bookId: string): Promise<void> {
    const book = await this.deps.files.book(viewer, bookId);
    if (!book) throw notFound(`Book ${bookId}`);
    await this.remove([book]);
  }

  /** Deletes the objects and cached images of every book of the series; the series goes to the trash. */
  async deleteSeries(viewer: Viewer, seriesId: string): Promise<{ deleted: number }> {
    const books = await this.deps.files.ofSeries(viewer, seriesId);
    if (books.length === 0) throw notFound(`Series ${seriesId}`);
    await this.remove(books);
    return { deleted: books.length };
  }

  private async remove(books: BookFile[]): Promise<void> {
    const { library, cache, writer, events } = this.deps;
    const paths = books.map((book) => book.path);
    // The objects first: should anything after fail, the next scan finds them gone and does the rest.
    for (let index = 0; index < paths.length; index += DELETE_BATCH) {
      await library.delete(paths.slice(index, index + DELETE_BATCH));
    }
    await removeCachedImages(
      cache,
      books.map((book) => book.id),
    );
    const now = new Date().toISOString();
    await writer.softDeleteBooks(
      books.map((book) => book.id),
      now,
    );
    const seriesIds = [...new Set(books.map((book) => book.seriesId))];
    const { deleted } = await writer.refreshSeries(seriesIds, now);
    const libraryOf = new Map(books.map((book) => [book.seriesId, book.libraryId]));
    events.publish(
      ...books.map((book) => ({
        type: 'book_deleted' as const,
        book_id: book.id,
        series_id: book.seriesId,
        library_id: book.libraryId,
      })),
      ...seriesIds.map((id) => ({
        type: deleted.includes(id) ? ('series_deleted' as const) : ('series_updated' as const),
        series_id: id,
        library_id: libraryOf.get(id) ?? '',
      })),
    );
  }
}
