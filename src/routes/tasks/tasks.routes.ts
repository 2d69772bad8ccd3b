import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonContent, SECURITY } from '../../lib/openapi-responses';
import { GetPageQuerySchema, pageEnvelopeSchema } from '../../lib/pagination';
import { authenticate } from '../../middleware/authenticate';
import { DuplicateGroupSchema, TaskListQuerySchema, TaskSchema, TaskStatsSchema } from '../../schemas/task.schema';

const security = SECURITY;
const IdParams = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) });
const QueuedSchema = z.object({ task: TaskSchema, created: z.boolean() }).openapi('QueuedTask');

export const listTasks = createRoute({
  method: 'get',
  path: '/tasks',
  tags: ['Tasks'],
  security,
  summary: 'Background tasks, newest first',
  middleware: [authenticate('TasksRead')] as const,
  request: { query: GetPageQuerySchema.extend(TaskListQuerySchema.shape) },
  responses: {
    200: jsonContent(pageEnvelopeSchema(TaskSchema, 'TaskPage'), 'Tasks'),
    ...errorResponses(400, 401, 403),
  },
});

export const taskStats = createRoute({
  method: 'get',
  path: '/tasks/stats',
  tags: ['Tasks'],
  security,
  summary: 'Task counts by status and type',
  middleware: [authenticate('TasksRead')] as const,
  responses: { 200: jsonContent(TaskStatsSchema, 'Counts'), ...errorResponses(401, 403) },
});

export const getTask = createRoute({
  method: 'get',
  path: '/tasks/{id}',
  tags: ['Tasks'],
  security,
  summary: 'One task',
  middleware: [authenticate('TasksRead')] as const,
  request: { params: IdParams },
  responses: { 200: jsonContent(TaskSchema, 'Task'), ...errorResponses(400, 401, 403, 404) },
});

export const cancelTask = createRoute({
  method: 'post',
  path: '/tasks/{id}/cancel',
  tags: ['Tasks'],
  security,
  summary: 'Cancel a pending or running task',
  middleware: [authenticate('TasksWrite')] as const,
  request: { params: IdParams },
  responses: { 200: jsonContent(TaskSchema, 'Cancelled'), ...errorResponses(400, 401, 403, 404, 409) },
});

export const analyzeBook = createRoute({
  method: 'post',
  path: '/books/{id}/analyze',
  tags: ['Books'],
  security,
  summary: 'Queue a re-analysis of the book file',
  middleware: [authenticate('BooksWrite')] as const,
  request: { params: IdParams },
  responses: { 202: jsonContent(QueuedSchema, 'Queued (or already queued)'), ...errorResponses(400, 401, 403, 404) },
});

export const analyzeSeries = createRoute({
  method: 'post',
  path: '/series/{id}/analyze',
  tags: ['Series'],
  security,
  summary: 'Queue a re-analysis of every book in the series',
  middleware: [authenticate('SeriesWrite')] as const,
  request: { params: IdParams },
  responses: { 202: jsonContent(QueuedSchema, 'Queued (or already queued)'), ...errorResponses(400, 401, 403, 404) },
});

export const emptyTrash = createRoute({
  method: 'post',
  path: '/libraries/{id}/empty-trash',
  tags: ['Libraries'],
  security,
  summary: 'Queue purge_deleted: remove the soft-deleted books and series of the library for good',
  description:
    'Books whose files left the bucket stay in the catalog, soft-deleted with their reading progress, so a ' +
    'file that comes back is restored. Emptying the trash removes those rows, their progress and their ' +
    'cached thumbnails and page renditions. The files in the bucket are never touched.',
  middleware: [authenticate('LibrariesWrite')] as const,
  request: { params: IdParams },
  responses: { 202: jsonContent(QueuedSchema, 'Queued (or already queued)'), ...errorResponses(400, 401, 403, 404) },
});

export const listDuplicates = createRoute({
  method: 'get',
  path: '/duplicates',
  tags: ['Duplicates'],
  security,
  summary: 'Groups of books with identical content (same fileHash), dismissed groups hidden',
  middleware: [authenticate('BooksRead')] as const,
  request: { query: GetPageQuerySchema },
  responses: {
    200: jsonContent(pageEnvelopeSchema(DuplicateGroupSchema, 'DuplicateGroupPage'), 'Groups'),
    ...errorResponses(400, 401, 403),
  },
});

export const scanDuplicates = createRoute({
  method: 'post',
  path: '/duplicates/scan',
  tags: ['Duplicates'],
  security,
  summary: 'Queue a duplicate scan',
  middleware: [authenticate('TasksWrite')] as const,
  responses: { 202: jsonContent(QueuedSchema, 'Queued (or already queued)'), ...errorResponses(401, 403) },
});

export const dismissDuplicate = createRoute({
  method: 'delete',
  path: '/duplicates/{id}',
  tags: ['Duplicates'],
  security,
  summary: 'Dismiss a duplicate group (never deletes books)',
  middleware: [authenticate('BooksWrite')] as const,
  request: { params: IdParams },
  responses: { 204: { description: 'Dismissed' }, ...errorResponses(400, 401, 403, 404) },
});
