import { z } from '@hono/zod-openapi';
import { TASK_STATUSES, TASK_TYPES } from '../repositories/tasks.repository';

export const TaskTypeSchema = z.enum(TASK_TYPES).openapi('TaskType');
export const TaskStatusSchema = z.enum(TASK_STATUSES).openapi('TaskStatus');

export const TaskSchema = z
  .object({
    id: z.uuid(),
    type: TaskTypeSchema,
    status: TaskStatusSchema,
    libraryId: z.uuid().nullable(),
    targetId: z.uuid().nullable(),
    progress: z.object({ current: z.number().int(), total: z.number().int(), message: z.string() }),
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
    createdBy: z.uuid().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
  })
  .openapi('Task');
export type TaskDto = z.infer<typeof TaskSchema>;

export const TaskStatsSchema = z
  .object({
    total: z.number().int(),
    byStatus: z.record(TaskStatusSchema, z.number().int()),
    byType: z.record(TaskTypeSchema, z.record(TaskStatusSchema, z.number().int())),
  })
  .openapi('TaskStats');

export const TaskListQuerySchema = z.object({
  status: TaskStatusSchema.optional().openapi({ param: { name: 'status', in: 'query' } }),
  type: TaskTypeSchema.optional().openapi({ param: { name: 'type', in: 'query' } }),
  library_id: z
    .uuid()
    .optional()
    .openapi({ param: { name: 'library_id', in: 'query' } }),
});

export const DuplicateGroupSchema = z
  .object({
    id: z.uuid(),
    fileHash: z.string(),
    fileSize: z.number().int(),
    bookIds: z.array(z.uuid()),
    books: z.array(
      z.object({ id: z.uuid(), title: z.string(), path: z.string(), libraryId: z.uuid(), seriesId: z.uuid() }),
    ),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('DuplicateGroup');
export type DuplicateGroupDto = z.infer<typeof DuplicateGroupSchema>;
