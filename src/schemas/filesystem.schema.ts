/**
 * Filesystem browsing (API.md §4 Filesystem, DECISIONS.md §Storage): the library bucket stands in for
 * the server's disks, its common prefixes for directories. R2 lists with cursors and cannot count a
 * prefix without walking it, so browse pages with `cursor` rather than the paginated envelope.
 */
import { z } from '@hono/zod-openapi';

export const MAX_BROWSE_LIMIT = 1000;

export const BrowseQuerySchema = z.object({
  path: z.string().max(2048).optional().openapi({ description: "Folder to list; '' or '/' is the bucket root" }),
  cursor: z.string().max(4096).optional().openapi({ description: 'The `cursor` of the previous page' }),
  limit: z
    .string()
    .regex(/^[1-9]\d*$/, 'limit must be a positive integer')
    .optional()
    .openapi({ description: `Entries per page, 1..${MAX_BROWSE_LIMIT} (default ${MAX_BROWSE_LIMIT})` }),
});

export const FolderEntrySchema = z
  .object({ name: z.string(), path: z.string().openapi({ description: 'Use as ?path= to open it' }) })
  .openapi('FolderEntry');

export const FileEntrySchema = z
  .object({
    key: z.string(),
    name: z.string(),
    size: z.number().int(),
    uploaded: z.string().openapi({ description: 'Upload time (ISO 8601)' }),
  })
  .openapi('FileEntry');

export const BrowseResultSchema = z
  .object({
    path: z.string(),
    parent: z.string().nullable().openapi({ description: 'Path of the enclosing folder; null at the root' }),
    folders: z.array(FolderEntrySchema),
    files: z.array(FileEntrySchema),
    truncated: z.boolean(),
    cursor: z.string().nullable().openapi({ description: 'Pass as ?cursor= for the next page; null on the last' }),
  })
  .openapi('BrowseResult');
export type BrowseResult = z.infer<typeof BrowseResultSchema>;

export const DriveSchema = z
  .object({
    name: z.string().openapi({ description: 'Bucket name', example: 'longbox-library' }),
    binding: z.string().openapi({ example: 'LIBRARY' }),
    path: z.string().openapi({ description: 'Browse path of the bucket root' }),
  })
  .openapi('Drive');
export type Drive = z.infer<typeof DriveSchema>;
