/** ReadProgress (API.md §2) and the PUT /books/{id}/progress body (API.md §4 Reading progress). */
import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { pageEnvelopeSchema } from '../lib/pagination';

/** DECISIONS.md §Reader apps: a locator is a string of at most 4 KiB (counted in UTF-8 bytes). */
export const MAX_LOCATOR_BYTES = 4096;
export const ProgressLocatorSchema = z
  .string()
  .min(1, 'must not be empty')
  .refine((value) => new TextEncoder().encode(value).length <= MAX_LOCATOR_BYTES, {
    message: `must be at most ${MAX_LOCATOR_BYTES} bytes`,
  });

export const ReadProgressSchema = z
  .object({
    id: z.uuid(),
    bookId: z.uuid(),
    userId: z.uuid(),
    currentPage: z.number().int().openapi({ description: '1-indexed' }),
    completed: z.boolean(),
    completedAt: z.string().nullable(),
    progressPercentage: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .openapi({ description: 'epub: the stored reflowable position; other formats: currentPage / pageCount' }),
    locator: z.string().nullable().openapi({
      description: 'Where the reader is in an ebook (an EPUB CFI or a KOReader xpointer), as the last device sent it',
    }),
    startedAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('ReadProgress');
export type ReadProgressDto = z.infer<typeof ReadProgressSchema>;

export const ReadProgressPageSchema = pageEnvelopeSchema(ReadProgressSchema, 'ReadProgressPage');

export const UpdateProgressBodySchema = acceptTwins(
  z.strictObject({
    current_page: z
      .number()
      .int('must be an integer')
      .min(1, 'must be at least 1 (pages are 1-indexed)')
      .openapi({ description: '1-indexed page, at most the book page count', example: 12 }),
    is_completed: z
      .boolean()
      .default(false)
      .openapi({ description: 'Marks the book read (sets completedAt); `completed` (Codex-rs) is accepted too' }),
    progress_percentage: z
      .number()
      .min(0, 'must be between 0 and 1')
      .max(1, 'must be between 0 and 1')
      .optional()
      .openapi({ description: 'Reflowable EPUB position (0..1); ignored for page-based formats' }),
    locator: ProgressLocatorSchema.optional().openapi({
      description:
        'An EPUB CFI or KOReader xpointer (at most 4 KiB), returned by GET so any client reopens the book at the exact place; a PUT without it clears it',
      example: 'epubcfi(/6/4!/4/2/1:0)',
    }),
  }),
  // Codex-rs's body names it `completed` (docs/DECISIONS.md §Reader apps: clients written against Codex-rs).
  { completed: 'is_completed' },
).openapi('UpdateProgress');
export type UpdateProgressBody = z.infer<typeof UpdateProgressBodySchema>;
