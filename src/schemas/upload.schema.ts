/**
 * File uploads into a library (DECISIONS.md §Storage, beyond API.md): the raw bytes of one book file,
 * or R2 multipart for files larger than one request allows.
 */
import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';

/** R2 multipart allows part numbers 1..10000. */
export const MAX_PART_NUMBER = 10_000;

export const UploadedFileSchema = z
  .object({
    path: z.string().openapi({ description: 'Full object key in the library bucket (as Book.path)' }),
    size: z.number().int(),
    etag: z.string(),
  })
  .openapi('UploadedFile');
export type UploadedFile = z.infer<typeof UploadedFileSchema>;

export const MultipartUploadSchema = z.object({ uploadId: z.string(), path: z.string() }).openapi('MultipartUpload');

const PartNumberSchema = z.number().int().min(1).max(MAX_PART_NUMBER);

export const UploadedPartSchema = z.object({ partNumber: PartNumberSchema, etag: z.string() }).openapi('UploadedPart');
export type UploadedPart = z.infer<typeof UploadedPartSchema>;

export const CompleteMultipartBodySchema = acceptTwins(
  z.strictObject({
    parts: z
      .array(acceptTwins(z.strictObject({ partNumber: PartNumberSchema, etag: z.string().min(1).max(256) })))
      .min(1, 'at least one part is required')
      .max(MAX_PART_NUMBER),
  }),
).openapi('CompleteMultipartRequest');

export const UploadQuerySchema = z.object({
  overwrite: z.enum(['true', 'false']).optional().openapi({ description: 'Replace an existing object' }),
  uploads: z.string().optional().openapi({ description: 'Present (no value) on POST: start a multipart upload' }),
  uploadId: z.string().optional().openapi({ description: 'Multipart upload id (part, complete, abort)' }),
  partNumber: z.string().optional().openapi({ description: '1..10000, with uploadId on PUT' }),
});
