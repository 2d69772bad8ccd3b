import { z } from '@hono/zod-openapi';

export const ScanModeSchema = z.enum(['normal', 'deep']).openapi('ScanMode');

export const SkippedFilesSchema = z
  .object({
    extension: z
      .string()
      .openapi({ description: "Lower-case extension with its dot; '' without one, '*' for the rest" }),
    reason: z.string(),
    count: z.number().int(),
    message: z.string().openapi({ example: '3 .cb7 files skipped: 7z is not supported, repack as CBZ' }),
  })
  .openapi('SkippedFiles');
export type SkippedFilesDto = z.infer<typeof SkippedFilesSchema>;

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
    filesSkipped: z.number().int().openapi({ description: 'Objects the scan did not read (see skipped)' }),
    skipped: z.array(SkippedFilesSchema).openapi({ description: 'Why objects were not read, by extension and reason' }),
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
