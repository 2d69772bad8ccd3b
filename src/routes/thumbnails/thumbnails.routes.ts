/**
 * Contracts of the cover routes (API.md §4: books, series and libraries each have a thumbnail). Each
 * needs the read permission of its resource group.
 */
import { z } from '@hono/zod-openapi';
import type { Permission } from '../../auth/permissions';
import { BinarySchema } from '../../schemas/page.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { contractsFor } from '../contract';
import { NOT_MODIFIED } from '../pages/pages.routes';

const COVER =
  'The stored thumbnail (longest side `thumbnails.max_size`, JPEG) with its ETag; If-None-Match → 304. A ' +
  'book without one yet gets it generated on demand (and `cover_updated` is published). Without any image ' +
  'to show (analysis failed, a reflowable EPUB without a cover, no books) a placeholder SVG is returned.';
const image = {
  description: 'The cover image (image/jpeg, or image/svg+xml for the placeholder)',
  content: { 'image/*': { schema: BinarySchema } },
};

/** `?v=`: the cover version the Book or Series response names (src/catalog/cover-version.ts). */
const CoverVersionQuerySchema = z.object({
  v: z
    .string()
    .max(64)
    .optional()
    .openapi({
      param: { name: 'v', in: 'query' },
      description:
        'The `coverVersion` of the book or series: the answer is then cached as immutable (a new cover has a new version)',
    }),
});

const thumbnail = <const P extends string>(
  path: P,
  tag: string,
  permission: Permission,
  summary: string,
  versioned: boolean,
) =>
  contractsFor(tag).get(path, permission, {
    summary: `${summary} (${permission})`,
    description: versioned
      ? COVER
      : `${COVER} It follows another cover, so it is revalidated on every use (Cache-Control: no-cache).`,
    params: IdParamSchema,
    ...(versioned ? { query: CoverVersionQuerySchema } : {}),
    200: image,
    304: NOT_MODIFIED,
    errors: [400, 404],
  });

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  bookThumbnail: thumbnail('/books/{id}/thumbnail', 'Books', 'BooksRead', 'A book’s cover', true),
  seriesThumbnail: thumbnail('/series/{id}/thumbnail', 'Series', 'SeriesRead', 'A series’ cover: its first book’s', true),
  libraryThumbnail: thumbnail('/libraries/{id}/thumbnail', 'Libraries', 'LibrariesRead', 'A library’s cover: its first series’', false),
};
