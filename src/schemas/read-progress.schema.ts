/** ReadProgress (API.md §2) and the PUT /books/{id}/progress body (API.md §4 Reading progress). */
import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { pageEnvelopeSchema } from '../lib/pagination';

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
    is_completed: z.boolean().default(false).openapi({ description: 'Marks the book read (sets completedAt)' }),
    progress_percentage: z
      .number()
      .min(0, 'must be between 0 and 1')
      .max(1, 'must be between 0 and 1')
      .optional()
      .openapi({ description: 'Reflowable EPUB position (0..1); ignored for page-based formats' }),
  }),
).openapi('UpdateProgress');
export type UpdateProgressBody = z.infer<typeof UpdateProgressBodySchema>;
