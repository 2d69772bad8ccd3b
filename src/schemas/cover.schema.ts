/** Uploaded covers of series and books (issue 18; Codex-rs's SeriesCoverDto/BookCoverDto shapes). */
import { z } from '@hono/zod-openapi';

const cover = {
  id: z.uuid(),
  isSelected: z.boolean(),
  source: z.literal('custom').openapi({ description: 'Uploaded by a user (generated covers are not listed)' }),
  mediaType: z.string(),
  fileSize: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const SeriesCoverSchema = z.object({ ...cover, seriesId: z.uuid() }).openapi('SeriesCover');
export const BookCoverSchema = z.object({ ...cover, bookId: z.uuid() }).openapi('BookCover');
export const SeriesCoverListSchema = z.object({ covers: z.array(SeriesCoverSchema) }).openapi('SeriesCoverList');
export const BookCoverListSchema = z.object({ covers: z.array(BookCoverSchema) }).openapi('BookCoverList');

export const CoverParamsSchema = z.object({
  id: z.uuid('must be a UUID').openapi({ param: { name: 'id', in: 'path' } }),
  coverId: z.uuid('must be a UUID').openapi({ param: { name: 'coverId', in: 'path' } }),
});

/** The upload form; the parts are read by the handler (http/multipart.ts), which names a missing one. */
const imagePart = (description: string) =>
  z.any().optional().openapi({ type: 'string', format: 'binary', description });
export const CoverUploadFormSchema = z
  .object({
    file: imagePart('The image'),
    cover: imagePart('The image, under the other name Codex-rs accepts'),
    image: imagePart('The image, under the other name Codex-rs accepts'),
  })
  .openapi('CoverUploadForm');
