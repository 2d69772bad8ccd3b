/**
 * Server metrics (API.md §4 Health and metrics, DECISIONS.md §Health and metrics): a JSON inventory of
 * the catalog, users and tasks, also rendered in the Prometheus text format.
 */
import type { Database } from '../db/client';
import { type Inventory, MetricsRepository } from '../repositories/metrics.repository';
import { TASK_STATUSES, type TaskStatus } from '../repositories/tasks.repository';
import { assertSeesEverything, type Viewer } from '../repositories/visibility';

export interface Metrics extends Inventory {
  tasks: Record<TaskStatus, number>;
}

/** Server-wide counts: for a viewer who sees the whole catalog (they would count what restrictions hide). */
export async function collectMetrics(viewer: Viewer, db: Database): Promise<Metrics> {
  assertSeesEverything(viewer, 'read the server-wide metrics');
  const repository = new MetricsRepository(db);
  const inventory = await repository.inventory();
  const tasks = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Metrics['tasks'];
  for (const row of await repository.tasksByStatus()) tasks[row.status] = row.n;
  return { ...inventory, tasks };
}

/** The Prometheus text exposition format (version 0.0.4). */
export function toPrometheus(metrics: Metrics): string {
  const lines: string[] = [];
  const gauge = (name: string, help: string, value: number, labels = '') => {
    if (!lines.some((l) => l.startsWith(`# HELP ${name} `))) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
    }
    lines.push(`${name}${labels} ${value}`);
  };
  gauge('longbox_libraries', 'Libraries', metrics.libraries);
  gauge('longbox_series', 'Live series', metrics.series);
  gauge('longbox_books', 'Live books', metrics.books);
  gauge('longbox_books_with_errors', 'Live books whose analysis failed', metrics.booksWithErrors);
  gauge('longbox_pages', 'Pages of live books', metrics.pages);
  gauge('longbox_bytes', 'Bytes of live book files', metrics.bytes);
  gauge('longbox_users', 'User accounts', metrics.users);
  for (const [status, n] of Object.entries(metrics.tasks)) {
    gauge('longbox_tasks', 'Background tasks by status', n, `{status="${status}"}`);
  }
  return `${lines.join('\n')}\n`;
}
