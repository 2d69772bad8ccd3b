/** Background task rows (DECISIONS.md §Tasks). */
import { and, asc, count, desc, eq, inArray, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { type TASK_STATUSES, type TASK_TYPES, tasks } from '../db/schema';
import { type Viewer, visibleLibraries } from './visibility';

/** The task vocabulary (defined with the table), for the layers that may not import tables. */
export { TASK_STATUSES, TASK_TYPES } from '../db/schema';

export type TaskRow = typeof tasks.$inferSelect;
export type NewTaskRow = typeof tasks.$inferInsert;
export type TaskType = (typeof TASK_TYPES)[number];
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const ACTIVE_STATUSES: TaskStatus[] = ['pending', 'running'];

export interface TaskFilter {
  status?: TaskStatus;
  type?: TaskType;
  libraryId?: string;
}

export class TasksRepository {
  constructor(private readonly db: Database) {}

  async create(row: NewTaskRow): Promise<TaskRow> {
    const [created] = await this.db.insert(tasks).values(row).returning();
    return created as TaskRow;
  }

  async get(id: string): Promise<TaskRow | undefined> {
    return this.db.select().from(tasks).where(eq(tasks.id, id)).get();
  }

  /**
   * Inserts a pending task unless a task with its unique key is pending — one statement, so requests
   * arriving together cannot both queue the same work (there is no unique index to lean on: finished
   * tasks keep their key). A running task does not count: it may already be past what the new request
   * is about (a hash pass past a book a later scan added), so the request waits behind it as its own.
   * Returns the new task, or undefined when the key was taken.
   */
  async createUnlessPending(row: NewTaskRow & { id: string }): Promise<TaskRow | undefined> {
    await this.db.run(sql`insert into tasks
        (id, type, status, unique_key, library_id, target_id, payload, priority, created_by, created_at)
      select ${row.id}, ${row.type}, 'pending', ${row.uniqueKey}, ${row.libraryId ?? null}, ${row.targetId ?? null},
        ${JSON.stringify(row.payload ?? {})}, ${row.priority ?? 0}, ${row.createdBy ?? null}, ${row.createdAt}
      where not exists (select 1 from tasks where unique_key = ${row.uniqueKey} and status = 'pending')`);
    return this.get(row.id);
  }

  /** The pending task with this dedupe key, if any. */
  async pendingByKey(uniqueKey: string): Promise<TaskRow | undefined> {
    return this.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.uniqueKey, uniqueKey), eq(tasks.status, 'pending')))
      .get();
  }

  /** The task, if it belongs to a library the viewer sees (tasks of no library: only to a viewer seeing them all). */
  async visible(viewer: Viewer, id: string): Promise<TaskRow | undefined> {
    return this.db.select().from(tasks).where(this.where(viewer, { id })).get();
  }

  /** The viewer's tasks (of the libraries they see), narrowed by the filter (or to one task). */
  private where(viewer: Viewer, filter: TaskFilter & { id?: string }): SQL | undefined {
    return and(
      filter.id === undefined ? undefined : eq(tasks.id, filter.id),
      visibleLibraries(viewer, tasks.libraryId),
      filter.status ? eq(tasks.status, filter.status) : undefined,
      filter.type ? eq(tasks.type, filter.type) : undefined,
      filter.libraryId ? eq(tasks.libraryId, filter.libraryId) : undefined,
    );
  }

  /** The viewer's tasks (those of the libraries they see), newest first. */
  async list(
    viewer: Viewer,
    filter: TaskFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: TaskRow[]; total: number }> {
    const where = this.where(viewer, filter);
    const [rows, totalRow] = await Promise.all([
      this.db
        .select()
        .from(tasks)
        .where(where)
        .orderBy(desc(tasks.createdAt), desc(tasks.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: count() }).from(tasks).where(where).get(),
    ]);
    return { rows, total: totalRow?.n ?? 0 };
  }

  async pending(limit: number): Promise<TaskRow[]> {
    return this.db
      .select()
      .from(tasks)
      .where(eq(tasks.status, 'pending'))
      .orderBy(desc(tasks.priority), tasks.createdAt)
      .limit(limit);
  }

  /** Running tasks of these types (of some libraries, or all). */
  async running(types: TaskType[], libraryIds?: string[]): Promise<TaskRow[]> {
    return this.db
      .select()
      .from(tasks)
      .where(
        and(
          eq(tasks.status, 'running'),
          inArray(tasks.type, types),
          libraryIds ? inArray(tasks.libraryId, libraryIds) : undefined,
        ),
      );
  }

  /**
   * The task to work on next, of any type but `excluded`: a running one first (resume what was started),
   * then the pending one of highest priority, oldest first.
   */
  async next(excluded: TaskType[]): Promise<TaskRow | undefined> {
    return this.db
      .select()
      .from(tasks)
      .where(and(inArray(tasks.status, ['running', 'pending']), notInArray(tasks.type, excluded)))
      .orderBy(desc(eq(tasks.status, 'running')), desc(tasks.priority), asc(tasks.createdAt))
      .limit(1)
      .get();
  }

  async update(id: string, changes: Partial<NewTaskRow>): Promise<TaskRow | undefined> {
    const [row] = await this.db.update(tasks).set(changes).where(eq(tasks.id, id)).returning();
    return row;
  }

  /**
   * Updates a task only while it is still pending or running, so a cancellation (or completion) that
   * lands in between is never overwritten. Returns undefined when the task was no longer active.
   */
  async updateIfActive(id: string, changes: Partial<NewTaskRow>): Promise<TaskRow | undefined> {
    const [row] = await this.db
      .update(tasks)
      .set(changes)
      .where(and(eq(tasks.id, id), inArray(tasks.status, ACTIVE_STATUSES)))
      .returning();
    return row;
  }

  async countsByStatusAndType(viewer: Viewer): Promise<Array<{ status: TaskStatus; type: TaskType; n: number }>> {
    return this.db
      .select({ status: tasks.status, type: tasks.type, n: count() })
      .from(tasks)
      .where(visibleLibraries(viewer, tasks.libraryId))
      .groupBy(tasks.status, tasks.type);
  }
}
