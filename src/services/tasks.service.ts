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

  async list(filter: TaskFilter, offset: number, limit: number) {
    const { rows, total } = await this.tasks.list(filter, offset, limit);
    return { data: rows.map(toTaskDto), total };
  }

  async get(id: string): Promise<TaskDto> {
    const task = await this.tasks.get(id);
    if (!task) throw notFound('Task');
    return toTaskDto(task);
  }

  async stats() {
    const rows = await this.tasks.countsByStatusAndType();
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

  async cancel(id: string): Promise<TaskDto> {
    const task = await this.tasks.get(id);
    if (!task) throw notFound('Task');
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

  async enqueue(task: NewTask): Promise<{ task: TaskDto; created: boolean }> {
    const queued = await enqueueTask(this.tasks, this.runner, task);
    return { task: toTaskDto(queued.task), created: queued.created };
  }

  async analyzeBook(bookId: string, createdBy: string) {
    const libraryId = await this.libraries.ofLiveBook(bookId);
    if (!libraryId) throw notFound('Book');
    return this.enqueue({
      type: 'analyze_book',
      uniqueKey: `analyze_book:${bookId}`,
      libraryId,
      targetId: bookId,
      createdBy,
    });
  }

  async analyzeSeries(seriesId: string, createdBy: string) {
    const libraryId = await this.libraries.ofLiveSeries(seriesId);
    if (!libraryId) throw notFound('Series');
    return this.enqueue({
      type: 'analyze_series',
      uniqueKey: `analyze_series:${seriesId}`,
      libraryId,
      targetId: seriesId,
      createdBy,
    });
  }

  async emptyTrash(libraryId: string, createdBy: string) {
    if (!(await this.libraries.getRecord(libraryId))) throw notFound('Library');
    return this.enqueue({
      type: 'purge_deleted',
      uniqueKey: `purge_deleted:${libraryId}`,
      libraryId,
      createdBy,
    });
  }

  /** Dismissing hides the group; the books are never touched. */
  async dismissDuplicate(id: string): Promise<void> {
    if (!(await this.duplicates.dismiss(id, nowIso()))) throw notFound('Duplicate group');
  }
}
