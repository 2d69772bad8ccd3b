/**
 * generate_thumbnails: renders missing book thumbnails of a library (all of them when `force`, as a
 * deep scan asks), then points each touched series at its first book's.
 */
import { and, asc, count, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { books, settings } from '../../db/schema';
import { createRendererClient, type ImageRendererRpc } from '../../media/image-renderer';
import { generateBookThumbnail, refreshSeriesThumbnail } from '../../thumbnails/thumbnail-generator';
import type { TaskHandler } from '../task-handler';

const PAGE = 10;
const DEFAULT_MAX_SIDE = 400;

export const generateThumbnails: TaskHandler = {
  priority: 6,
  async run(task, { db, env, events, deadline }) {
    // The native-image worker does the image work; without its binding there is nothing to render with.
    const binding = (env as Partial<{ RENDERER: ImageRendererRpc }>).RENDERER;
    if (!binding) return { done: true, progress: { current: 0, total: 0, message: 'No image renderer is configured' } };
    const renderer = createRendererClient(binding);
    const force = task.payload.force === true;
    const startedAt = String(task.payload.startedAt ?? new Date().toISOString());
    const stored = await db.select().from(settings).where(eq(settings.key, 'thumbnails.max_size')).get();
    const maxSide = typeof stored?.value === 'number' ? stored.value : DEFAULT_MAX_SIDE;
    let after = String(task.payload.after ?? '');
    let done = Number(task.payload.done ?? 0);
    let failed = Number(task.payload.failed ?? 0);
    const touchedSeries = new Set<string>();
    let finished = false;
    const pendingAfter = (cursor: string) =>
      and(
        task.libraryId ? eq(books.libraryId, task.libraryId) : undefined,
        isNull(books.deletedAt),
        isNull(books.analysisError),
        force
          ? or(isNull(books.thumbnailUpdatedAt), lt(books.thumbnailUpdatedAt, startedAt))
          : isNull(books.thumbnailKey),
        gt(books.id, cursor),
      );
    // At least one round per slice, however small the budget.
    for (let first = true; first || Date.now() < deadline; first = false) {
      const batch = await db.select().from(books).where(pendingAfter(after)).orderBy(asc(books.id)).limit(PAGE);
      if (batch.length === 0) {
        finished = true;
        break;
      }
      for (const book of batch) {
        after = book.id;
        try {
          if (await generateBookThumbnail(db, env, renderer, book, maxSide)) {
            done += 1;
            touchedSeries.add(book.seriesId);
            events.publish({
              type: 'cover_updated',
              entity_type: 'book',
              entity_id: book.id,
              library_id: book.libraryId,
            });
          }
        } catch (error) {
          failed += 1;
          console.warn(
            JSON.stringify({ level: 'warn', msg: 'thumbnail failed', bookId: book.id, error: String(error) }),
          );
        }
        if (Date.now() >= deadline) break;
      }
    }
    for (const seriesId of touchedSeries) await refreshSeriesThumbnail(db, events, seriesId);
    const message = `${done} thumbnails generated${failed ? `, ${failed} failed` : ''}`;
    if (finished)
      return {
        done: true,
        progress: { current: done + failed, total: done + failed, message },
        result: { generated: done, failed },
      };
    const remaining = (await db.select({ n: count() }).from(books).where(pendingAfter(after)).get())?.n ?? 0;
    return {
      done: false,
      progress: { current: done + failed, total: done + failed + remaining, message },
      payload: { ...task.payload, startedAt, after, done, failed },
    };
  },
};
