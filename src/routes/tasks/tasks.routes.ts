import { z } from '@hono/zod-openapi';
import type { Permission } from '../../auth/permissions';
import { GetPageQuerySchema, pageEnvelopeSchema } from '../../lib/pagination';
import { DuplicateGroupSchema, TaskListQuerySchema, TaskSchema, TaskStatsSchema } from '../../schemas/task.schema';
import { contractsFor, empty, json } from '../contract';

const tasks = contractsFor('Tasks');
const duplicates = contractsFor('Duplicates');
const IdParams = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) });
const QueuedSchema = z.object({ task: TaskSchema, created: z.boolean() }).openapi('QueuedTask');
const queued = json(QueuedSchema, 'Queued (or already queued)');
const EMPTY_TRASH =
  'Books whose files left the bucket stay in the catalog, soft-deleted with their reading progress, so a ' +
  'file that comes back is restored. Emptying the trash removes those rows, their progress and their ' +
  'cached thumbnails and page renditions. The files in the bucket are never touched.';

/** POST …/{id}/<action>: queues a task for one book, series or library. */
const queueFor = <const P extends string>(
  path: P,
  tag: string,
  access: Permission,
  summary: string,
  description?: string,
) => contractsFor(tag).post(path, access, { summary, description, params: IdParams, 202: queued, errors: [400, 404] });

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listTasks: tasks.get('/tasks', 'TasksRead', { summary: 'Background tasks, newest first', query: GetPageQuerySchema.extend(TaskListQuerySchema.shape), 200: json(pageEnvelopeSchema(TaskSchema, 'TaskPage'), 'Tasks'), errors: [400] }),
  taskStats: tasks.get('/tasks/stats', 'TasksRead', { summary: 'Task counts by status and type', 200: json(TaskStatsSchema, 'Counts') }),
  getTask: tasks.get('/tasks/{id}', 'TasksRead', { summary: 'One task', params: IdParams, 200: json(TaskSchema, 'Task'), errors: [400, 404] }),
  cancelTask: tasks.post('/tasks/{id}/cancel', 'TasksWrite', { summary: 'Cancel a pending or running task', params: IdParams, 200: json(TaskSchema, 'Cancelled'), errors: [400, 404, 409] }),
  analyzeBook: queueFor('/books/{id}/analyze', 'Books', 'BooksWrite', 'Queue a re-analysis of the book file'),
  analyzeSeries: queueFor('/series/{id}/analyze', 'Series', 'SeriesWrite', 'Queue a re-analysis of every book in the series'),
  emptyTrash: queueFor('/libraries/{id}/empty-trash', 'Libraries', 'LibrariesWrite', 'Queue purge_deleted: remove the soft-deleted books and series of the library for good', EMPTY_TRASH),
  listDuplicates: duplicates.get('/duplicates', 'BooksRead', { summary: 'Groups of books with identical content (same fileHash), dismissed groups hidden', query: GetPageQuerySchema, 200: json(pageEnvelopeSchema(DuplicateGroupSchema, 'DuplicateGroupPage'), 'Groups'), errors: [400] }),
  scanDuplicates: duplicates.post('/duplicates/scan', 'TasksWrite', { summary: 'Queue a duplicate scan', 202: queued }),
  dismissDuplicate: duplicates.delete('/duplicates/{id}', 'BooksWrite', { summary: 'Dismiss a duplicate group (never deletes books)', params: IdParams, 204: empty('Dismissed'), errors: [400, 404] }),
};
