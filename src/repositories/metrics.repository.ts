/** The counts behind /metrics (API.md §4 Health and metrics): catalog, users and tasks, each in one query. */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { TaskStatus } from './tasks.repository';

export interface Inventory {
  libraries: number;
  series: number;
  books: number;
  booksWithErrors: number;
  pages: number;
  bytes: number;
  users: number;
}

export class MetricsRepository {
  constructor(private readonly db: Database) {}

  /** Live series and books (soft-deleted ones are in the trash, not the catalog), libraries and users. */
  async inventory(): Promise<Inventory> {
    const row = await this.db.get<{
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
    return {
      libraries: row.libraries,
      series: row.series,
      books: row.books,
      booksWithErrors: row.books_with_errors,
      pages: row.pages,
      bytes: row.bytes,
      users: row.users,
    };
  }

  /** Task rows by status (statuses without a row are absent). */
  async tasksByStatus(): Promise<Array<{ status: TaskStatus; n: number }>> {
    return this.db.all<{ status: TaskStatus; n: number }>(sql`select status, count(*) as n from tasks group by status`);
  }
}
