/**
 * Deleting a wrong or broken upload (issue 31 point 10; DECISIONS.md §Storage "Deleting files"). Longbox
 * never changes a book file and nothing deletes one on its own: only an administrator's explicit request
 * (the web app asks for confirmation first) removes a book's object, or every object of a series, from the
 * library bucket, with the images made from them (thumbnails, page renditions). The catalog then treats
 * the books as a scan treats files that disappeared: soft-deleted (in the trash, progress kept until the
 * trash is emptied), their series refreshed (and trashed when no book is left), the events published.
 */
import type { EventPublisher } from '../events/events';
import type { Defer } from '../lib/deferred-work';
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
  defer: Defer;
}

/** R2 deletes at most this many keys per call. */
const DELETE_BATCH = 1000;

/**
 * Round trips (docs/DECISIONS.md §Far readers, "Writes wait for the check"): the books are read beside the
 * credential check (the routes are `checked-writes`); once it succeeded (`checked`), the objects are deleted
 * and the catalog changed at the same time — one far wave — and the cached images go after the answer.
 */
export class FileDeletionService {
  constructor(private readonly deps: FileDeletionServiceDeps) {}

  /** Deletes the book's object and cached images; the book goes to the trash. */
  async deleteBook(viewer: Viewer, bookId: string, checked: () => Promise<void>): Promise<void> {
    const book = await this.deps.files.book(viewer, bookId);
    if (!book) throw notFound(`Book ${bookId}`);
    await checked();
    await this.remove([book]);
  }

  /** Deletes the objects and cached images of every book of the series; the series goes to the trash. */
  async deleteSeries(viewer: Viewer, seriesId: string, checked: () => Promise<void>): Promise<{ deleted: number }> {
    const books = await this.deps.files.ofSeries(viewer, seriesId);
    if (books.length === 0) throw notFound(`Series ${seriesId}`);
    await checked();
    await this.remove(books);
    return { deleted: books.length };
  }

  /**
   * The objects and the catalog change go together. Should deleting an object fail, the books are taken out of
   * the trash again and the error is the answer: nothing reads as deleted that is still stored (a normal scan
   * would not look at an unchanged object again). Should the catalog change fail once the objects are gone,
   * the next scan finds them gone and does the rest.
   */
  private async remove(books: BookFile[]): Promise<void> {
    const { library, cache, writer, events, defer } = this.deps;
    const ids = books.map((book) => book.id);
    const paths = books.map((book) => book.path);
    const seriesIds = [...new Set(books.map((book) => book.seriesId))];
    const now = new Date().toISOString();
    const deletions: Promise<void>[] = [];
    for (let index = 0; index < paths.length; index += DELETE_BATCH) {
      deletions.push(library.delete(paths.slice(index, index + DELETE_BATCH)));
    }
    const [objects, catalog] = await Promise.allSettled([
      Promise.all(deletions),
      writer.setBooksDeleted(ids, seriesIds, now, now),
    ]);
    if (objects.status === 'rejected') {
      if (catalog.status === 'fulfilled') await writer.setBooksDeleted(ids, seriesIds, null, new Date().toISOString());
      throw objects.reason;
    }
    if (catalog.status === 'rejected') throw catalog.reason;
    // Images nobody can ask for any more (the books are in the trash); what this misses the hourly sweep finds.
    defer(() => removeCachedImages(cache, ids));
    const { deleted } = catalog.value;
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
