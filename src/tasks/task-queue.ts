/**
 * Queueing a task: one pending task per unique key (a second request for the same work returns the
 * task still waiting; work already running gets a follow-up pass), then a nudge to the TaskRunner so
 * it starts without polling.
 */
import { newId, nowIso } from '../lib/ids';
import type { NamedObjects } from '../lib/named-objects';
import type { TaskRow, TasksRepository } from '../repositories/tasks.repository';
import { TASK_HANDLERS } from './registry';
import type { NewTask } from './task-handler';

export const TASK_RUNNER_NAME = 'global';

/** The TaskRunner Durable Object as queueing sees it (durable-objects/task-runner.ts implements it). */
export interface TaskRunnerRpc {
  kick(): Promise<void>;
}

export async function enqueueTask(
  tasks: TasksRepository,
  runner: NamedObjects<TaskRunnerRpc>,
  task: NewTask,
): Promise<{ task: TaskRow; created: boolean }> {
  // The pending task may start between a refused insert and the lookup; then the key is free again.
  for (let attempt = 1; ; attempt++) {
    const row = await tasks.createUnlessPending({
      id: newId(),
      type: task.type,
      status: 'pending',
      uniqueKey: task.uniqueKey,
      libraryId: task.libraryId ?? null,
      targetId: task.targetId ?? null,
      payload: task.payload ?? {},
      priority: TASK_HANDLERS[task.type].priority,
      createdBy: task.createdBy ?? null,
      createdAt: nowIso(),
    });
    if (row) {
      await runner.get(runner.idFromName(TASK_RUNNER_NAME)).kick();
      return { task: row, created: true };
    }
    const pending = await tasks.pendingByKey(task.uniqueKey);
    if (pending) return { task: pending, created: false };
    if (attempt === 3) throw new Error(`could not queue ${task.uniqueKey}: its key keeps changing hands`);
  }
}
