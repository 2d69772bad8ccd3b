/**
 * TaskRunner: the one Durable Object that runs queued background tasks (everything but scans, which
 * their library's LibraryScan object runs). It works in alarm-driven slices — resume running tasks
 * first, then pending ones by priority — and sleeps (no alarm, no cost) when the queue is empty.
 */
import { DurableObject } from 'cloudflare:workers';
import { createEventPublisher } from '../src/events/publisher';
import { readConfig } from '../src/config/config';
import { defaultDatabaseFactory } from '../src/middleware/request-context';
import { type TaskRow, TasksRepository } from '../src/repositories/tasks.repository';
import { TASK_HANDLERS } from '../src/tasks/registry';
import type { TaskContext } from '../src/tasks/task-handler';
import { QUEUED_TASK_TYPES } from '../src/ingest/ingest-tasks';
import { enqueueTask, type TaskRunnerRpc } from '../src/tasks/task-queue';
import { toTaskProgressEvent } from '../src/mappers/task.mapper';

/**
 * Scans run in their LibraryScan objects and per-book work on the book-work queue: this runner keeps
 * the few library-wide tasks (duplicates, purge, re-analysis), where one-at-a-time is a feature.
 */
const NOT_RUN_HERE = ['scan_library', ...QUEUED_TASK_TYPES] as const;

export class TaskRunner extends DurableObject<Env> implements TaskRunnerRpc {
  /** Wakes the runner (called after a task is queued). */
  async kick(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + 1);
  }

  override async alarm(): Promise<void> {
    const db = await defaultDatabaseFactory(this.env);
    const repo = new TasksRepository(db);
    const events = createEventPublisher(this.env.EVENT_HUB, (work) => this.ctx.waitUntil(work()));
    const deadline = Date.now() + readConfig(this.env).LONGBOX_TASKS__SLICE_MS;
    const context: TaskContext = {
      db,
      env: this.env,
      events,
      deadline,
      enqueue: async (task) => {
        await enqueueTask(repo, this.env.TASK_RUNNER, task);
      },
    };
    // At least one slice per alarm, however small the budget: progress is guaranteed.
    do {
      const task = await repo.next([...NOT_RUN_HERE]);
      if (!task) return;
      await this.runSlice(repo, context, events, task);
    } while (Date.now() < deadline);
    await this.ctx.storage.setAlarm(Date.now() + 1);
  }

  private async runSlice(repo: TasksRepository, context: TaskContext, events: TaskContext['events'], task: TaskRow) {
    const startedAt = task.startedAt ?? new Date().toISOString();
    // Conditional updates throughout: a task cancelled meanwhile stays cancelled.
    if (task.status === 'pending' && !(await repo.updateIfActive(task.id, { status: 'running', startedAt }))) return;
    const handler = TASK_HANDLERS[task.type as keyof typeof TASK_HANDLERS];
    let update: Partial<TaskRow>;
    try {
      const slice = await handler.run(task, context);
      update = {
        status: slice.done ? 'completed' : 'running',
        progressCurrent: slice.progress.current,
        progressTotal: slice.progress.total,
        progressMessage: slice.progress.message,
        payload: slice.payload ?? task.payload,
        result: slice.result ?? task.result,
        completedAt: slice.done ? new Date().toISOString() : null,
      };
    } catch (error) {
      console.error(
        JSON.stringify({ level: 'error', msg: 'task failed', taskId: task.id, type: task.type, error: String(error) }),
      );
      update = {
        status: 'failed',
        error: 'The task failed with an internal error; see the server log',
        progressMessage: 'failed',
        completedAt: new Date().toISOString(),
      };
    }
    const saved = await repo.updateIfActive(task.id, update);
    if (!saved) return;
    events.publish(toTaskProgressEvent(saved));
  }
}
