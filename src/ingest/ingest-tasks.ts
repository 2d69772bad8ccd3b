/**
 * The task rows of queued per-book work (API.md §4 Tasks): when a scan ends, one `hash_files` row
 * (dimensions and hashes) and one `generate_thumbnails` row per scan report the books it queued, as
 * before the work moved to Queues. Progress is never counted message by message (delivery is at least
 * once): it is read from D1 — queued books minus books still incomplete — after each consumer batch and
 * each cron tick, and a row completes when its library has nothing left to do.
 */
import type { Database } from '../db/client';
import type { EventPublisher } from '../events/events';
import { newId } from '../lib/ids';
import { toTaskProgressEvent } from '../mappers/task.mapper';
import { type BookWork, BookWorkRepository } from '../repositories/book-work.repository';
import { type TaskRow, TasksRepository } from '../repositories/tasks.repository';

/** Task types whose work runs on the book-work queue, never on the TaskRunner. */
export const QUEUED_TASK_TYPES = ['hash_files', 'generate_thumbnails'] as const;
type QueuedTaskType = (typeof QUEUED_TASK_TYPES)[number];

interface RoundPayload {
  /** When the scan that queued the round started: books it queued were stamped after it. */
  queuedSince?: string;
  /** Deep scans: thumbnails made before this instant count as missing. */
  thumbnailsSince?: string | null;
}

/** What each queued task type reports on: the details of the one read, or the thumbnail. */
const WORK_OF: Record<QueuedTaskType, BookWork> = { hash_files: 'details', generate_thumbnails: 'thumbnail' };

/** Opens the rows of a finished scan's queued work and brings them up to date at once. */
export async function openIngestTasks(
  db: Database,
  events: EventPublisher,
  round: { libraryId: string; booksQueued: number; queuedSince: string; thumbnailsSince: string | null },
): Promise<void> {
  const repo = new TasksRepository(db);
  const now = new Date().toISOString();
  for (const type of QUEUED_TASK_TYPES) {
    await repo.create({
      id: newId(),
      type,
      status: 'running',
      uniqueKey: `${type}:${round.libraryId}`,
      libraryId: round.libraryId,
      payload: { queuedSince: round.queuedSince, thumbnailsSince: round.thumbnailsSince } satisfies RoundPayload,
      priority: type === 'generate_thumbnails' ? 6 : 5,
      progressTotal: round.booksQueued,
      progressMessage: 'queued',
      createdAt: now,
      startedAt: now,
    });
  }
  await refreshIngestTasks(db, events, [round.libraryId]);
}

/** Recomputes the progress of running queued-work rows (of some libraries, or all) from D1. */
export async function refreshIngestTasks(db: Database, events: EventPublisher, libraryIds?: string[]): Promise<void> {
  const repo = new TasksRepository(db);
  const work = new BookWorkRepository(db);
  for (const row of await repo.running([...QUEUED_TASK_TYPES], libraryIds)) {
    const saved = await refreshRow(work, repo, row);
    if (!saved) continue;
    events.publish(toTaskProgressEvent(saved));
  }
}

async function refreshRow(work: BookWorkRepository, repo: TasksRepository, row: TaskRow): Promise<TaskRow | undefined> {
  if (!row.libraryId)
    return repo.updateIfActive(row.id, { status: 'completed', completedAt: new Date().toISOString() });
  const type = row.type as QueuedTaskType;
  const payload = row.payload as RoundPayload;
  const since = payload.thumbnailsSince ?? null;
  const remaining = await work.countIncomplete(WORK_OF[type], row.libraryId, since);
  const total = row.progressTotal;
  const current = Math.max(0, total - remaining);
  const done = remaining === 0;
  if (!done && current === row.progressCurrent) return undefined; // nothing new to say
  // The library's books left without a thumbnail because it could not be made (no image, gave up).
  const failed = type === 'generate_thumbnails' && done ? await work.countThumbnailFailures(row.libraryId) : 0;
  const message =
    type === 'hash_files'
      ? done
        ? `${total} books analysed`
        : `${current} of ${total} books analysed`
      : `${current} of ${total} thumbnails generated`;
  return repo.updateIfActive(row.id, {
    status: done ? 'completed' : 'running',
    progressCurrent: done ? total : current,
    progressMessage: message,
    completedAt: done ? new Date().toISOString() : null,
    result: done ? (type === 'hash_files' ? { processed: total } : { generated: total - failed, failed }) : null,
  });
}
