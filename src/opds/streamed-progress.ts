/**
 * DECISIONS.md §Reader apps, page streaming: a page fetched through a streaming URL advances the user's
 * progress (never backwards; the last page marks the book completed) when the caller may write
 * progress (ProgressWrite or BooksWrite, as PUT /books/{id}/progress) and has not turned it off with
 * the preference `opds.pse_progress` (apps that prefetch whole books).
 */
import { PROGRESS_WRITE, satisfies } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import type { BookPaging } from '../repositories/books.repository';
import type { ProgressActor } from '../services/read-progress.service';
import type { Services } from '../composition-root';

export async function advanceStreamedProgress(
  services: Services,
  principal: Principal,
  actor: ProgressActor,
  book: BookPaging,
  page: number,
): Promise<void> {
  if (!satisfies(principal.permissions, PROGRESS_WRITE)) return;
  if ((await services.preferences.value(principal.user.id, 'opds.pse_progress')) === false) return;
  await services.readProgress.advanceTo(actor, book, page);
}
