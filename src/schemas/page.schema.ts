/**
 * Pages of a book (API.md §4 Pages): the page list and the page image's path and query parameters.
 * Numbers in the path and query are validated as plain digit strings, so `1.5`, `1e3`, ` 5` or `0x10`
 * are refused instead of being coerced into something the client did not ask for.
 */
import { z } from '@hono/zod-openapi';
import { OUTPUT_FORMATS } from '../media/image-renderer';

/** The renderer refuses larger sides (renderer/src/pipeline/geometry.ts MAX_OUTPUT_SIDE). */
export const MAX_PAGE_SIDE = 8192;

const wholeNumber = (what: string, min: number, max?: number) => {
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  return z
    .string()
    .regex(/^[0-9]+$/, `must be a whole number ${range}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, `must be a whole number ${range}`)
        .max(max ?? Number.MAX_SAFE_INTEGER, `must be a whole number ${range}`),
    )
    .openapi({ type: 'integer', description: what });
};

export const PageParamsSchema = z.object({
  book_id: z
    .uuid('must be a UUID')
    .openapi({ param: { name: 'book_id', in: 'path' }, example: '0b9a6c1e-5f4d-4c1e-9a39-3f1c2b7d8e90' }),
  page_number: wholeNumber('1-based page number', 1).openapi({
    param: { name: 'page_number', in: 'path' },
    example: '1',
  }),
});

export const PageImageQuerySchema = z.object({
  width: wholeNumber(`Maximum width in pixels (1–${MAX_PAGE_SIDE}); the page is never enlarged`, 1, MAX_PAGE_SIDE)
    .optional()
    .openapi({ param: { name: 'width', in: 'query' }, example: '800' }),
  height: wholeNumber(`Maximum height in pixels (1–${MAX_PAGE_SIDE}); the page is never enlarged`, 1, MAX_PAGE_SIDE)
    .optional()
    .openapi({ param: { name: 'height', in: 'query' } }),
  format: z
    .enum(OUTPUT_FORMATS, { error: `must be one of ${OUTPUT_FORMATS.join(', ')}` })
    .optional()
    .openapi({ param: { name: 'format', in: 'query' }, description: 'Output format; default: the page’s own' }),
});
export type PageImageQuery = z.infer<typeof PageImageQuerySchema>;

export const BookPageEntrySchema = z
  .object({
    number: z.number().int().openapi({ description: '1-based position in reading order' }),
    fileName: z.string().openapi({ description: 'Entry name in the archive (PDF: page-0001[.jpg])' }),
    mediaType: z.string().openapi({ description: 'Type of the image served without parameters' }),
    width: z.number().int().nullable().openapi({ description: 'Pixels; null until the book is analyzed' }),
    height: z.number().int().nullable(),
    size: z.number().int().openapi({ description: 'Bytes of the original image; 0 for PDF pages that are rendered' }),
  })
  .openapi('BookPageEntry');
export type BookPageEntry = z.infer<typeof BookPageEntrySchema>;

export const BookPageListSchema = z.array(BookPageEntrySchema).openapi('BookPageList');

/** Binary bodies in the OpenAPI document. */
export const BinarySchema = z.string().openapi({ type: 'string', format: 'binary' });
