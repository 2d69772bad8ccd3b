/**
 * Background tasks, newest first, kept current by /tasks/stream; running ones can be cancelled. Each is
 * named in words with its library ("Scanning Comics", not `scan_library`), its state and dates as people
 * read them (issue 31 point 11).
 */
import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api/client';
import type { Library, Page, Task, TaskProgressEvent } from '../api/types';
import { AsyncAdminTable } from '../components/admin-table';
import { type AsyncState, ErrorMessage, useAsync } from '../components/async';
import { ProgressBar } from '../components/cards';
import { hasMessage, t } from '../i18n';
import { formatDateTime } from '../i18n/format';

/** "Scanning Comics": the task's kind in words, with the library it works on when it has one. */
export function taskName(task: Pick<Task, 'type' | 'libraryId'>, libraries: Library[] | undefined): string {
  const library = task.libraryId ? libraries?.find((entry) => entry.id === task.libraryId)?.name : undefined;
  const key = library ? `task.${task.type}` : `task.${task.type}.any`;
  return hasMessage(key) ? t(key, { library: library ?? '' }) : task.type;
}

const statusWords = (status: string) =>
  hasMessage(`task.status.${status}`) ? t(`task.status.${status}` as never) : status;
import { subscribe } from '../state/live';

export function TasksSection() {
  const tasks = useAsync((signal) => get<Page<Task>>('/tasks', { query: { pageSize: 100 }, signal }), []);
  const libraries = useAsync((signal) => get<Library[]>('/libraries', { signal }), []);
  // The rows wait for the libraries' names (both asked at once): a row never reads "Scanning a library" first and
  // "Scanning Comics" a moment later. Without the names (their request failed) a row names no library.
  const named: AsyncState<Page<Task>> = libraries.loading && !libraries.data ? { ...tasks, data: undefined } : tasks;
  const [live, setLive] = useState<Record<string, TaskProgressEvent>>({});
  const [error, setError] = useState<unknown>(null);

  useEffect(
    () =>
      subscribe('/tasks/stream', {
        task_progress: (event: TaskProgressEvent) => {
          setLive((current) => ({ ...current, [event.task_id]: event }));
          // A task the list does not show yet: fetch the list again to include it.
          if (!tasks.data?.data.some((task) => task.id === event.task_id)) tasks.reload();
        },
      }),
    [tasks.data],
  );

  return (
    <div class="stack">
      <ErrorMessage error={error} />
      <AsyncAdminTable
        state={named}
        items={(page) => page.data}
        columns={[t('admin.taskType'), t('admin.taskStatus'), t('admin.taskProgress'), t('admin.taskCreated')]}
      >
        {(task) => {
          const update = live[task.id];
          const status = update?.status ?? task.status;
          const progress = update?.progress ?? task.progress;
          return (
            <tr key={task.id} data-task-status={status}>
              <td data-task-type={task.type}>{taskName(task, libraries.data)}</td>
              <td>
                <span
                  class={
                    status === 'failed' ? 'badge badge--bad' : status === 'completed' ? 'badge badge--ok' : 'badge'
                  }
                >
                  {statusWords(status)}
                </span>
                {task.error && <div class="muted">{task.error}</div>}
              </td>
              <td>
                {progress.total > 0 && (
                  <ProgressBar fraction={progress.current / progress.total} label={taskName(task, libraries.data)} />
                )}
                <span class="muted">
                  {progress.current}/{progress.total} {progress.message}
                </span>
              </td>
              <td>{formatDateTime(task.createdAt)}</td>
              <td>
                {(status === 'running' || status === 'pending') && (
                  <button
                    type="button"
                    class="button button--small"
                    onClick={() =>
                      void post(`/tasks/${task.id}/cancel`).then(tasks.reload, (failure) => setError(failure))
                    }
                  >
                    {t('app.cancel')}
                  </button>
                )}
              </td>
            </tr>
          );
        }}
      </AsyncAdminTable>
    </div>
  );
}
