import type { TaskRow } from '../repositories/tasks.repository';
import type { TaskDto } from '../schemas/task.schema';
import type { DomainEvent } from '../events/events';

export function toTaskDto(task: TaskRow): TaskDto {
  return {
    id: task.id,
    type: task.type,
    status: task.status,
    libraryId: task.libraryId,
    targetId: task.targetId,
    progress: { current: task.progressCurrent, total: task.progressTotal, message: task.progressMessage },
    result: task.result ?? null,
    error: task.error,
    createdBy: task.createdBy,
    createdAt: task.createdAt,
    startedAt: task.startedAt,
    completedAt: task.completedAt,
  };
}

/** The `task_progress` event announcing a task row's state (API.md §6). */
export function toTaskProgressEvent(task: TaskRow): Extract<DomainEvent, { type: 'task_progress' }> {
  return {
    type: 'task_progress',
    task_id: task.id,
    task_type: task.type,
    status: task.status,
    progress: { current: task.progressCurrent, total: task.progressTotal, message: task.progressMessage },
  };
}
