import { z } from '@hono/zod-openapi';

export const ScanModeSchema = z.enum(['normal', 'deep']).openapi('ScanMode');

export const ScanStatusSchema = z
  .object({
    libraryId: z.uuid(),
    taskId: z.uuid().nullable(),
    status: z.enum(['idle', 'running', 'completed', 'cancelled', 'failed']),
    cancelRequested: z.boolean(),
    mode: ScanModeSchema.nullable(),
    phase: z.enum(['listing', 'analyzing', 'finalizing', 'done']).nullable(),
    filesTotal: z.number().int(),
    filesProcessed: z.number().int(),
    seriesFound: z.number().int(),
    booksFound: z.number().int(),
    booksAdded: z.number().int(),
    booksUpdated: z.number().int(),
    booksDeleted: z.number().int(),
    errors: z.number().int(),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    message: z.string().nullable(),
  })
  .openapi('ScanStatus');
export type ScanStatusDto = z.infer<typeof ScanStatusSchema>;

export const StartScanQuerySchema = z.object({
  mode: ScanModeSchema.optional().openapi({
    param: { name: 'mode', in: 'query' },
    description:
      "normal: only new or changed files; deep: re-analyze all. Default: the library's scanning_config.default_mode",
  }),
});
