/** Series (API.md §2), the series list query parameters and the POST /series/search body (DECISIONS.md §Lists). */
import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { PageQuerySchema, pageEnvelopeSchema } from '../lib/pagination';
import { LibraryScopedPageQuerySchema, SortQuerySchema } from './book.schema';

export const SeriesSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    titleSort: z.string().nullable(),
    summary: z.string().nullable(),
    publisher: z.string().nullable(),
    year: z.number().int().nullable(),
    ageRating: z.number().int().nullable().openapi({
      description:
        "Minimum age (docs/DECISIONS.md §Enforcement): the highest of its books' unless an admin set it; null: unrated",
    }),
    libraryId: z.uuid(),
    libraryName: z.string(),
    path: z.string().nullable(),
    bookCount: z.number().int(),
    hasCustomCover: z.boolean().nullable(),
    selectedCoverSource: z.string().nullable(),
    coverVersion: z.string().openapi({
      description: 'Changes whenever the cover image changes: `…/thumbnail?v=<coverVersion>` is answered as immutable',
    }),
    tracked: z.boolean().openapi({ description: 'Release tracking enabled; false when no tracking record exists' }),
    unreadCount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Live books the requesting user has not completed' }),
    wantToRead: z.boolean().nullable().openapi({ description: 'Populated on the detail endpoint' }),
    localMaxChapter: z.number().nullable(),
    localMaxVolume: z.number().int().nullable(),
    volumesOwned: z.number().int().nullable(),
    upstreamChapterGap: z.number().nullable(),
    upstreamVolumeGap: z.number().int().nullable(),
    upstreamGapProvider: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Series');
export type SeriesDto = z.infer<typeof SeriesSchema>;

export const SeriesPageSchema = pageEnvelopeSchema(SeriesSchema, 'SeriesPage');

export const SeriesListQuerySchema = LibraryScopedPageQuerySchema.extend(SortQuerySchema.shape);

/** POST list endpoints take pagination and sort in the query string (API.md §4 Pagination parameters). */
export const PostListQuerySchema = PageQuerySchema.extend(SortQuerySchema.shape);

export const SeriesSearchBodySchema = acceptTwins(
  z.strictObject({
    query: z.string().trim().min(1, 'must not be empty').max(500).openapi({ example: 'poke' }),
    libraryId: z.uuid('must be a UUID').optional(),
  }),
).openapi('SeriesSearch');
