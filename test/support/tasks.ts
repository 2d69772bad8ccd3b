/** Waiting for background tasks through GET /tasks (API.md §4 Tasks). */
import { api, type Credentials } from './http';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the library has a task of each type in `types` created at or after `since` (a scan's
 * completedAt: a scan reports completed a moment before its follow-up tasks are queued) and none of
 * those types is still pending or running.
 */
export async function waitForTasks(
  auth: Credentials,
  libraryId: string,
  { since = '', types = ['generate_thumbnails', 'hash_files'], timeoutMs = 20_000 } = {},
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const listed = await api(`/tasks?library_id=${libraryId}&pageSize=500`, { auth });
    if (listed.status !== 200) throw new Error(`GET /tasks failed: ${listed.status} ${listed.text}`);
    const tasks = listed.body.data as Array<{ type: string; status: string; createdAt: string }>;
    const settled = types.every(
      (type) =>
        tasks.some((t) => t.type === type && t.createdAt >= since) &&
        tasks.every((t) => t.type !== type || !['pending', 'running'].includes(t.status)),
    );
    if (settled) return tasks;
    if (Date.now() > deadline) throw new Error(`tasks still active: ${JSON.stringify(tasks)}`);
    await sleep(50);
  }
}

/** Waits until one task is no longer pending or running, and returns it. */
export async function waitForTask(auth: Credentials, taskId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await api(`/tasks/${taskId}`, { auth });
    if (task.status !== 200) throw new Error(`GET /tasks/${taskId} failed: ${task.status} ${task.text}`);
    if (!['pending', 'running'].includes(task.body.status)) return task.body;
    if (Date.now() > deadline) throw new Error(`task still active: ${task.text}`);
    await sleep(50);
  }
}
