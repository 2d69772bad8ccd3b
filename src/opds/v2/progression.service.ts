/**
 * The Readium progression API over the user's reading progress (issue 9 point 2): the same record
 * GET/PUT /books/{id}/progress reads and writes, so Thorium, KOReader and the API share one place.
 * Books with image pages move by `position` (1..pageCount, the last completes the book); ebooks by
 * `totalProgression`, with a fragment kept as the locator. An older `modified` than the stored one
 * is a conflict (409), so a device that was offline cannot overwrite newer reading.
 */
import { badRequest, conflict } from '../../lib/errors';
import {
  completesAtFraction,
  completesAtPage,
  isPageInRange,
  isReflowable,
  lastPage,
  pageAtFraction,
} from '../../progress/rules';
import type { ProgressActor, ReadProgressService } from '../../services/read-progress.service';
import type { ProgressionBody } from './progression.schema';

export async function putProgression(
  progress: ReadProgressService,
  actor: ProgressActor,
  bookId: string,
  body: ProgressionBody,
): Promise<void> {
  const book = await progress.bookPaging(actor.viewer, bookId);
  const stored = await progress.find(actor.viewer, book);
  const modified = Date.parse(body.modified);
  if (stored && modified < Date.parse(stored.updatedAt)) {
    throw conflict(`The progression is older (${body.modified}) than the one stored (${stored.updatedAt})`);
  }
  // The client's clock dates the record, but never into the future: that would block every later write.
  const at = new Date(Math.min(modified, Date.now())).toISOString();
  const { position, totalProgression, progression, fragments } = body.locator.locations;
  const pageCount = lastPage(book.pageCount);
  if (!isReflowable(book)) {
    if (position === undefined) {
      throw badRequest('locator.locations.position is required for a book with page images', [
        { path: 'locator.locations.position', message: 'is required' },
      ]);
    }
    if (!isPageInRange(position, pageCount)) {
      throw badRequest(`locator.locations.position must be between 1 and ${pageCount}`, [
        { path: 'locator.locations.position', message: `must be between 1 and ${pageCount}` },
      ]);
    }
    await progress.record(actor, book, { currentPage: position, completed: completesAtPage(position, pageCount), at });
    return;
  }
  const fraction = totalProgression ?? progression;
  if (fraction === undefined) {
    throw badRequest('locator.locations.totalProgression is required for an ebook', [
      { path: 'locator.locations.totalProgression', message: 'is required' },
    ]);
  }
  await progress.record(actor, book, {
    currentPage: pageAtFraction(fraction, pageCount),
    completed: completesAtFraction(fraction),
    percentage: fraction,
    locator: fragments?.[0] ?? null,
    at,
  });
}
