/**
 * Library contract (API.md §2 "Library (as sent on creation)", DECISIONS.md §Storage and §Names):
 * `path` is a key prefix in the library bucket; `scanning_config` keeps its snake_case name and fields
 * in responses, and bodies also accept the camelCase twins.
 */
import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { parseCron } from '../lib/cron';
import { normalizeKeyPath } from '../storage/key-paths';

export const READING_DIRECTIONS = ['ltr', 'rtl', 'ttb', 'webtoon'] as const;
export const ReadingDirectionSchema = z.enum(READING_DIRECTIONS).openapi('ReadingDirection');

export const SCAN_MODES = ['normal', 'deep'] as const;

const CronScheduleSchema = z
  .string()
  .max(200)
  .superRefine((value, ctx) => {
    const result = parseCron(value);
    if (!result.ok) ctx.addIssue({ code: 'custom', message: `invalid cron expression: ${result.error}` });
  })
  .openapi({ description: 'Five-field cron expression (or @daily-style macro)', example: '0 3 * * *' });

/** Library `path`: normalised to a key prefix (no leading/trailing slash); '' or '/' is the whole bucket. */
export const LibraryPathSchema = z
  .string()
  .max(2048)
  .transform((value, ctx) => {
    const result = normalizeKeyPath(value);
    if (result.ok) return result.path;
    ctx.addIssue({ code: 'custom', message: result.reason });
    return z.NEVER;
  })
  .openapi({ description: 'Key prefix in the library bucket, e.g. comics/manga', example: 'comics/manga' });

export const ScanningConfigSchema = z
  .object({
    enabled: z.boolean(),
    cron_schedule: z.string().nullable(),
    default_mode: z.enum(SCAN_MODES),
    scan_on_start: z.boolean(),
  })
  .openapi('ScanningConfig');
export type ScanningConfigDto = z.infer<typeof ScanningConfigSchema>;

const ScanningConfigInputSchema = acceptTwins(
  z.strictObject({
    enabled: z.boolean().optional(),
    cron_schedule: CronScheduleSchema.nullable().optional(),
    default_mode: z.enum(SCAN_MODES).optional(),
    scan_on_start: z.boolean().optional(),
  }),
).openapi('ScanningConfigInput');
export type ScanningConfigInput = z.infer<typeof ScanningConfigInputSchema>;

const LibraryNameSchema = z.string().trim().min(1, 'must not be empty').max(200).openapi({ example: 'Manga' });

const ImportStoryArcsSchema = z.boolean().openapi({
  description:
    'Scans make read lists of the story arcs (ComicInfo StoryArc/StoryArcNumber) the books name; off by default',
});

export const CreateLibraryBodySchema = acceptTwins(
  z.strictObject({
    name: LibraryNameSchema,
    // Without one, a folder named after the library (DECISIONS.md §Storage); '' or '/' is the whole bucket.
    path: LibraryPathSchema.optional().openapi({
      description:
        "Key prefix in the library bucket, e.g. comics/manga. Left out: a folder named after the library. '' or '/': the whole bucket",
    }),
    scanning_config: ScanningConfigInputSchema.optional(),
    defaultReadingDirection: ReadingDirectionSchema.optional(),
    importStoryArcReadLists: ImportStoryArcsSchema.optional(),
  }),
).openapi('CreateLibraryRequest');
export type CreateLibraryBody = z.infer<typeof CreateLibraryBodySchema>;

/** Partial update: omitted fields keep their value; `scanning_config` merges field by field. */
export const UpdateLibraryBodySchema = acceptTwins(
  z
    .strictObject({
      name: LibraryNameSchema.optional(),
      path: LibraryPathSchema.optional(),
      scanning_config: ScanningConfigInputSchema.optional(),
      defaultReadingDirection: ReadingDirectionSchema.optional(),
      importStoryArcReadLists: ImportStoryArcsSchema.optional(),
    })
    .refine((body) => Object.values(body).some((value) => value !== undefined), {
      message:
        'at least one of name, path, scanning_config, defaultReadingDirection, importStoryArcReadLists is required',
    }),
).openapi('UpdateLibraryRequest');
export type UpdateLibraryBody = z.infer<typeof UpdateLibraryBodySchema>;

export const LibrarySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    path: z.string().openapi({ description: "Key prefix in the library bucket ('' = whole bucket)" }),
    scanning_config: ScanningConfigSchema,
    defaultReadingDirection: ReadingDirectionSchema,
    importStoryArcReadLists: ImportStoryArcsSchema,
    seriesCount: z.number().int().openapi({ description: 'Series in the library, excluding deleted ones' }),
    bookCount: z.number().int().openapi({ description: 'Books in the library, excluding deleted ones' }),
    lastScannedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Library');
export type LibraryDto = z.infer<typeof LibrarySchema>;

export const LibraryListSchema = z.array(LibrarySchema).openapi('LibraryList');
