/**
 * analyze_book and analyze_series (POST /books/{id}/analyze, POST /series/{id}/analyze): re-read the
 * file(s) from R2 as a deep scan would, then complete the deferred details at once.
 */
import { queueBookWork } from '../../ingest/book-work';
import { BookWorkRepository } from '../../repositories/book-work.repository';
import { type BookRow, CatalogWriter } from '../../repositories/catalog-writer.repository';
import { LibrariesRepository } from '../../repositories/libraries.repository';
import { completeBookDetails } from '../../scanning/book-details';
import { importBook } from '../../scanning/book-importer';
import { formatOfKey } from '../../scanning/book-keys';
import type { TaskContext, TaskHandler } from '../task-handler';

async function reanalyze(book: BookRow, { db, env, events }: TaskContext): Promise<void> {
  const library = await new LibrariesRepository(db).forSystem(book.libraryId);
  const head = await env.LIBRARY.head(book.path);
  if (!library || !head) return; // gone since: the next scan soft-deletes it
  const now = new Date().toISOString();
  const writer = new CatalogWriter(db);
  const imported = await importBook(
    env.LIBRARY,
    library,
    { key: book.path, size: head.size, etag: head.etag, uploaded: head.uploaded.toISOString() },
    formatOfKey(book.path) ?? book.fileFormat,
    book,
    now,
  );
  // A re-analysis keeps the book in its series; regrouping is the scanner's job.
  await writer.run(
    writer.bookStatements(
      { ...imported.row, seriesId: book.seriesId },
      imported.pages,
      imported.terms,
      false,
      imported.storyArcs,
    ),
  );
  const fresh = await new BookWorkRepository(db).book(book.id);
  if (fresh && !fresh.analysisError) {
    await completeBookDetails(db, env.LIBRARY, fresh);
    // A replaced file lost its thumbnail: the book-work queue makes the new one.
    if (!fresh.thumbnailKey) {
      await queueBookWork(db, env.BOOK_WORK, [{ bookId: fresh.id, etag: fresh.etag, thumbnailsSince: null }]);
    }
  }
  await writer.refreshSeries([book.seriesId], now);
  events.publish({ type: 'book_updated', book_id: book.id, series_id: book.seriesId, library_id: book.libraryId });
}

export const analyzeBook: TaskHandler = {
  priority: 20,
  async run(task, ctx) {
    const book = await new BookWorkRepository(ctx.db).book(task.targetId ?? '');
    if (!book || book.deletedAt) {
      return { done: true, progress: { current: 0, total: 0, message: 'The book no longer exists' } };
    }
    await reanalyze(book, ctx);
    return { done: true, progress: { current: 1, total: 1, message: `Analysed ${book.fileName}` } };
  },
};

export const analyzeSeries: TaskHandler = {
  priority: 15,
  async run(task, ctx) {
    const seriesId = task.targetId ?? '';
    const work = new BookWorkRepository(ctx.db);
    let after = String(task.payload.after ?? '');
    let processed = Number(task.payload.processed ?? 0);
    // Counted once, at the first slice, so progress has a denominator.
    const total =
      typeof task.payload.total === 'number' ? task.payload.total : await work.countLiveBooksOfSeries(seriesId);
    for (let first = true; first || Date.now() < ctx.deadline; first = false) {
      const book = await work.nextLiveBookOfSeries(seriesId, after);
      if (!book)
        return {
          done: true,
          progress: { current: processed, total: processed, message: `${processed} books analysed` },
        };
      await reanalyze(book, ctx);
      after = book.id;
      processed += 1;
    }
    return {
      done: false,
      progress: {
        current: processed,
        total: Math.max(total, processed),
        message: `${processed} of ${Math.max(total, processed)} books analysed`,
      },
      payload: { ...task.payload, after, processed, total },
    };
  },
};
