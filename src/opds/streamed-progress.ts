/**
 * DECISIONS.md §Reader apps, page streaming: a page fetched through a streaming URL moves the user's progress
 * to where the reader is (streamed-position.ts: pages an app fetches ahead do not move it; never backwards; the
 * last page marks the book completed) when the caller may write progress (ProgressWrite or BooksWrite, as
 * PUT /books/{id}/progress) and has not turned it off with the preference `opds.pse_progress`.
 *
 * None of it shapes the page, so it runs after the page is sent (issue 30: one far round trip per page turn):
 * once the burst the fetch belongs to is over, the preference is read and the progress written, tried again
 * if the write fails, and logged if it still does.
 */
import { PROGRESS_WRITE, satisfies } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { withRetries } from '../lib/retry';
import type { BookPaging } from '../repositories/books.repository';
import type { ProgressActor } from '../services/read-progress.service';
import type { Services } from '../composition-root';
import { BURST_MS, notePageFetched } from './streamed-position';

/** How long after a burst's last fetch it is settled: a little more than BURST_MS, for timers that fire early. */
const SETTLE_AFTER_MS = BURST_MS + 50;

export function recordStreamedPage(
  services: Services,
  principal: Principal,
  actor: ProgressActor,
  book: BookPaging,
  page: number,
): void {
  if (!satisfies(principal.permissions, PROGRESS_WRITE)) return;
  const userId = principal.user.id;
  const fetched = { userId, bookId: book.id, userAgent: actor.userAgent, page, now: Date.now() };
  // All of it after the answer, noting the fetch included: work a request hands over runs only for a caller
  // whose credentials were checked.
  services.defer(async () => {
    const noted = notePageFetched(fetched);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_AFTER_MS));
    const position = noted.settle(Date.now());
    if (position === null) return;
    await withRetries(async () => {
      if ((await services.preferences.value(userId, 'opds.pse_progress')) === false) return;
      await services.readProgress.advanceTo(actor, book, position);
    });
  });
}
