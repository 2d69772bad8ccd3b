import type { TaskRow } from '../repositories/tasks.repository';
import type { TaskDto } from '../schemas/task.schema';

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
