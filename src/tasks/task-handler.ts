/**
 * The contract every background task type implements. A handler advances its task by one bounded
 * slice and says whether work remains; its cursor lives in the task's payload, so the runner can stop
 * between slices (CPU limits, restarts, cancellation) and resume later.
 */
import type { Database } from '../db/client';
import type { EventPublisher } from '../events/events';
import type { TaskRow, TaskType } from '../repositories/tasks.repository';

export interface TaskContext {
  db: Database;
  env: Env;
  events: EventPublisher;
  /** Epoch ms after which a slice should return. */
  deadline: number;
  /** Queues another task (deduplicated by its unique key). */
  enqueue: (task: NewTask) => Promise<void>;
}

export interface SliceResult {
  done: boolean;
  progress: { current: number; total: number; message: string };
  payload?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

export interface TaskHandler {
  /** Higher runs first. */
  priority: number;
  run(task: TaskRow, ctx: TaskContext): Promise<SliceResult>;
}

/** Task types the TaskRunner runs (the others: scan_library, and the queued hash_files/generate_thumbnails). */
export type RunnerTaskType = Exclude<TaskType, 'scan_library' | 'hash_files' | 'generate_thumbnails'>;

export interface NewTask {
  type: RunnerTaskType;
  uniqueKey: string;
  libraryId?: string | null;
  targetId?: string | null;
  payload?: Record<string, unknown>;
  createdBy?: string | null;
}
