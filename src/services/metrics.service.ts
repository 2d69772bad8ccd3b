/**
 * Server metrics (API.md §4 Health and metrics, DECISIONS.md §Health and metrics): a JSON inventory of
 * the catalog, users and tasks, also rendered in the Prometheus text format.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { TASK_STATUSES } from '../db/schema';

export interface Metrics {
  libraries: number;
  series: number;
  books: number;
  booksWithErrors: number;
  pages: number;
  bytes: number;
  users: number;
  tasks: Record<(typeof TASK_STATUSES)[number], number>;
}

export async function collectMetrics(db: Database): Promise<Metrics> {
  const totals = await db.get<{
    libraries: number;
    series: number;
    books: number;
    books_with_errors: number;
    pages: number;
    bytes: number;
    users: number;
  }>(sql`select
      (select count(*) from libraries) as libraries,
      (select count(*) from series where deleted_at is null) as series,
      (select count(*) from books where deleted_at is null) as books,
      (select count(*) from books where deleted_at is null and analysis_error is not null) as books_with_errors,
      (select coalesce(sum(page_count), 0) from books where deleted_at is null) as pages,
      (select coalesce(sum(file_size), 0) from books where deleted_at is null) as bytes,
      (select count(*) from users) as users`);
  const taskRows = await db.all<{ status: (typeof TASK_STATUSES)[number]; n: number }>(
    sql`select status, count(*) as n from tasks group by status`,
  );
  const tasks = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Metrics['tasks'];
  for (const row of taskRows) tasks[row.status] = row.n;
  return {
    libraries: totals.libraries,
    series: totals.series,
    books: totals.books,
    booksWithErrors: totals.books_with_errors,
    pages: totals.pages,
    bytes: totals.bytes,
    users: totals.users,
    tasks,
  };
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
