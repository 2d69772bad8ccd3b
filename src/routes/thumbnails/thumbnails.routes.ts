/**
 * Contracts of the cover routes (API.md §4: books, series and libraries each have a thumbnail). Each
 * needs the read permission of its resource group.
 */
import { createRoute } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, SECURITY } from '../../lib/openapi-responses';
import { authenticate } from '../../middleware/authenticate';
import type { Permission } from '../../auth/permissions';
import { BinarySchema } from '../../schemas/page.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';

const thumbnailRoute = (path: string, tag: string, permission: Permission, summary: string) =>
  createRoute({
    method: 'get',
    path,
    tags: [tag],
    security: SECURITY,
    summary: `${summary} (${permission})`,
    description:
      'The stored thumbnail (longest side `thumbnails.max_size`, JPEG) with its ETag; If-None-Match → 304. A ' +
      'book without one yet gets it generated on demand (and `cover_updated` is published). Without any image ' +
      'to show (analysis failed, a reflowable EPUB without a cover, no books) a placeholder SVG is returned.',
    middleware: [authenticate(permission)] as const,
    request: { params: IdParamSchema },
    responses: {
      200: {
        description: 'The cover image (image/jpeg, or image/svg+xml for the placeholder)',
        content: { 'image/*': { schema: BinarySchema } },
      },
      304: { description: 'Not modified: the client’s copy (If-None-Match) is current' },
      ...errorResponses(400, ...AUTH_ERRORS, 404),
    },
  });

export const bookThumbnail = thumbnailRoute('/books/{id}/thumbnail', 'Books', 'BooksRead', 'A book’s cover');
export const seriesThumbnail = thumbnailRoute(
  '/series/{id}/thumbnail',
  'Series',
  'SeriesRead',
  'A series’ cover: its first book’s',
);
export const libraryThumbnail = thumbnailRoute(
  '/libraries/{id}/thumbnail',
  'Libraries',
  'LibrariesRead',
  'A library’s cover: its first series’',
);
