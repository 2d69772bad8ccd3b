import { z } from '@hono/zod-openapi';
import type { Permission } from '../../auth/permissions';
import { GetPageQuerySchema, pageEnvelopeSchema } from '../../lib/pagination';
import { DuplicateGroupSchema, TaskListQuerySchema, TaskSchema, TaskStatsSchema } from '../../schemas/task.schema';
import { contractsFor, empty, json } from '../contract';

const tasks = contractsFor('Tasks');
const duplicates = contractsFor('Duplicates');
const IdParams = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) });
const QueuedSchema = z.object({ task: TaskSchema, created: z.boolean() }).openapi('QueuedTask');
const queued = { 202: json(QueuedSchema, 'Queued (or already queued)') };

/** POST …/{id}/<action>: queues a task for one book, series or library. */
const queueFor = <const P extends string>(
  path: P,
  tag: string,
  access: Permission,
  summary: string,
  description?: string,
) =>
  contractsFor(tag).post(path, access, {
    summary,
    description,
    params: IdParams,
    responses: queued,
    errors: [400, 404],
  });

export const listTasks = tasks.get('/tasks', 'TasksRead', {
  summary: 'Background tasks, newest first',
  query: GetPageQuerySchema.extend(TaskListQuerySchema.shape),
  responses: { 200: json(pageEnvelopeSchema(TaskSchema, 'TaskPage'), 'Tasks') },
  errors: [400],
});
export const taskStats = tasks.get('/tasks/stats', 'TasksRead', {
  summary: 'Task counts by status and type',
  responses: { 200: json(TaskStatsSchema, 'Counts') },
});
export const getTask = tasks.get('/tasks/{id}', 'TasksRead', {
  summary: 'One task',
  params: IdParams,
  responses: { 200: json(TaskSchema, 'Task') },
  errors: [400, 404],
});
export const cancelTask = tasks.post('/tasks/{id}/cancel', 'TasksWrite', {
  summary: 'Cancel a pending or running task',
  params: IdParams,
  responses: { 200: json(TaskSchema, 'Cancelled') },
  errors: [400, 404, 409],
});

export const analyzeBook = queueFor(
  '/books/{id}/analyze',
  'Books',
  'BooksWrite',
  'Queue a re-analysis of the book file',
);
export const analyzeSeries = queueFor(
  '/series/{id}/analyze',
  'Series',
  'SeriesWrite',
  'Queue a re-analysis of every book in the series',
);
export const emptyTrash = queueFor(
  '/libraries/{id}/empty-trash',
  'Libraries',
  'LibrariesWrite',
  'Queue purge_deleted: remove the soft-deleted books and series of the library for good',
  'Books whose files left the bucket stay in the catalog, soft-deleted with their reading progress, so a ' +
    'file that comes back is restored. Emptying the trash removes those rows, their progress and their ' +
    'cached thumbnails and page renditions. The files in the bucket are never touched.',
);

export const listDuplicates = duplicates.get('/duplicates', 'BooksRead', {
  summary: 'Groups of books with identical content (same fileHash), dismissed groups hidden',
  query: GetPageQuerySchema,
  responses: { 200: json(pageEnvelopeSchema(DuplicateGroupSchema, 'DuplicateGroupPage'), 'Groups') },
  errors: [400],
});
export const scanDuplicates = duplicates.post('/duplicates/scan', 'TasksWrite', {
  summary: 'Queue a duplicate scan',
  responses: queued,
});
export const dismissDuplicate = duplicates.delete('/duplicates/{id}', 'BooksWrite', {
  summary: 'Dismiss a duplicate group (never deletes books)',
  params: IdParams,
  responses: { 204: empty('Dismissed') },
  errors: [400, 404],
});
