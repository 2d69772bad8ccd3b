/**
 * Background tasks seen from the API (API.md §4 Tasks, Duplicates; DECISIONS.md §Tasks): listing,
 * stats, cancellation, and queueing analysis, duplicate and purge work.
 */
import type { EventPublisher } from '../events/events';
import { conflict, notFound } from '../lib/errors';
import type { NamedObjects } from '../lib/named-objects';
import { nowIso } from '../lib/ids';
import { toTaskDto, toTaskProgressEvent } from '../mappers/task.mapper';
import type { LibrariesRepository } from '../repositories/libraries.repository';
import type { DuplicatesRepository } from '../repositories/duplicates.repository';
import {
  TASK_STATUSES,
  TASK_TYPES,
  type TaskFilter,
  type TasksRepository,
  type TaskStatus,
  type TaskType,
} from '../repositories/tasks.repository';
import type { TaskDto } from '../schemas/task.schema';
import { assertSeesAllContent, assertSeesEverything, type Viewer } from '../repositories/visibility';
import type { NewTask } from '../tasks/task-handler';
import { enqueueTask, type TaskRunnerRpc } from '../tasks/task-queue';
import type { LibraryScanRpc } from '../scanning/scan-store';

export class TasksService {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly libraries: LibrariesRepository,
    private readonly duplicates: DuplicatesRepository,
    private readonly runner: NamedObjects<TaskRunnerRpc>,
    private readonly scans: NamedObjects<LibraryScanRpc>,
    private readonly events: EventPublisher,
  ) {}

  /**
   * Tasks report on whole libraries (scans count every file): a viewer sees those of the libraries they
   * see, and none when content restrictions hide part of those (403, docs/DECISIONS.md §Organise and share).
   */
  async list(viewer: Viewer, filter: TaskFilter, offset: number, limit: number) {
    assertSeesAllContent(viewer, 'see background tasks');
    const { rows, total } = await this.tasks.list(viewer, filter, offset, limit);
    return { data: rows.map(toTaskDto), total };
  }

  async get(viewer: Viewer, id: string): Promise<TaskDto> {
    return toTaskDto(await this.visibleTask(viewer, id));
  }

  private async visibleTask(viewer: Viewer, id: string) {
    assertSeesAllContent(viewer, 'see background tasks');
    const task = await this.tasks.visible(viewer, id);
    if (!task) throw notFound('Task');
    return task;
  }

  async stats(viewer: Viewer) {
    assertSeesAllContent(viewer, 'see background tasks');
    const rows = await this.tasks.countsByStatusAndType(viewer);
    const zero = () => Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
    const byStatus = zero();
    const byType = Object.fromEntries(TASK_TYPES.map((t) => [t, zero()])) as Record<
      TaskType,
      Record<TaskStatus, number>
    >;
    let total = 0;
    for (const row of rows) {
      byStatus[row.status] += row.n;
      byType[row.type][row.status] += row.n;
      total += row.n;
    }
    return { total, byStatus, byType };
  }

  async cancel(viewer: Viewer, id: string): Promise<TaskDto> {
    const task = await this.visibleTask(viewer, id);
    if (task.status !== 'pending' && task.status !== 'running') {
      throw conflict(`The task is already ${task.status}`);
    }
    if (task.type === 'scan_library' && task.libraryId) {
      await this.scans.get(this.scans.idFromName(task.libraryId)).cancel();
    }
    const updated = await this.tasks.updateIfActive(id, {
      status: 'cancelled',
      completedAt: nowIso(),
      progressMessage: 'cancelled',
    });
    // It finished while we looked.
    if (!updated) throw conflict(`The task is already ${(await this.tasks.get(id))?.status ?? 'gone'}`);
    // A scan announces its own end (scan and task streams) once its Durable Object stops.
    if (updated.type !== 'scan_library') {
      this.events.publish(toTaskProgressEvent(updated));
    }
    return toTaskDto(updated);
  }

  /** A duplicate scan compares every library's files: for a viewer who sees them all. */
  async scanDuplicates(viewer: Viewer) {
    assertSeesEverything(viewer, 'scan every library for duplicates');
    return this.enqueue({ type: 'find_duplicates', uniqueKey: 'find_duplicates', createdBy: viewer.userId });
  }

  async enqueue(task: NewTask): Promise<{ task: TaskDto; created: boolean }> {
    const queued = await enqueueTask(this.tasks, this.runner, task);
    return { task: toTaskDto(queued.task), created: queued.created };
  }

  /** A re-analysis of a book or of a series' books, when the viewer sees it (404 otherwise, as for a missing one). */
  async analyze(viewer: Viewer, kind: 'book' | 'series', id: string) {
    const libraryId = await this.libraries.ofLive(viewer, kind, id);
    if (!libraryId) throw notFound(kind === 'book' ? 'Book' : 'Series');
    const type = kind === 'book' ? 'analyze_book' : 'analyze_series';
    return this.enqueue({ type, uniqueKey: `${type}:${id}`, libraryId, targetId: id, createdBy: viewer.userId });
  }

  /** Purging a library's trash removes series the viewer might not see: a viewer who sees all of the library. */
  async emptyTrash(viewer: Viewer, libraryId: string) {
    if (!(await this.libraries.getRecord(viewer, libraryId))) throw notFound('Library');
    assertSeesAllContent(viewer, "empty a library's trash");
    return this.enqueue({
      type: 'purge_deleted',
      uniqueKey: `purge_deleted:${libraryId}`,
      libraryId,
      createdBy: viewer.userId,
    });
  }

  /** Dismissing hides the group; the books are never touched. Only a group the viewer is shown (else 404). */
  async dismissDuplicate(viewer: Viewer, id: string): Promise<void> {
    if (!(await this.duplicates.dismiss(viewer, id, nowIso()))) throw notFound('Duplicate group');
  }
}
