/** Book (API.md §2) and the query parameters of the book lists (API.md §4 Sorting and simple filters). */
import { z } from '@hono/zod-openapi';
import { GetPageQuerySchema, pageEnvelopeSchema } from '../lib/pagination';
import { ReadingDirectionSchema } from './library.schema';
import { ReadProgressSchema } from './read-progress.schema';

export const BookSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    titleSort: z.string().nullable(),
    summary: z.string().nullable(),
    libraryId: z.uuid(),
    libraryName: z.string(),
    seriesId: z.uuid(),
    seriesName: z.string(),
    path: z.string(),
    fileFormat: z.enum(['cbz', 'cbr', 'epub', 'pdf']),
    fileSize: z.number().int(),
    fileHash: z.string(),
    readerHash: z.string().nullable(),
    pageCount: z.number().int(),
    analyzed: z.boolean(),
    analysisError: z.string().nullable(),
    number: z.number().int().nullable().openapi({ description: 'The integer part of the book number (2.5 → 2)' }),
    numberSort: z.number().nullable().openapi({
      description: 'The book number as the file states it, fraction kept (2.5); the reading order sorts by it',
    }),
    volume: z.number().int().nullable(),
    chapter: z.number().nullable(),
    ageRating: z.number().int().nullable().openapi({
      description:
        'Minimum age from the ComicInfo AgeRating (docs/DECISIONS.md §Enforcement); null: unrated (EPUB, PDF)',
    }),
    readingDirection: ReadingDirectionSchema.nullable().openapi({
      description: 'Effective direction: the series value, else the library default',
    }),
    readProgress: ReadProgressSchema.optional().openapi({
      description: "The requesting user's progress; absent if none",
    }),
    wantToRead: z.boolean().nullable(),
    deleted: z.boolean(),
    coverVersion: z.string().openapi({
      description: 'Changes whenever the cover image changes: `…/thumbnail?v=<coverVersion>` is answered as immutable',
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Book');
export type BookDto = z.infer<typeof BookSchema>;

export const BookPageSchema = pageEnvelopeSchema(BookSchema, 'BookPage');

const sortParams = {
  sort: z
    .string()
    .optional()
    .openapi({
      param: { name: 'sort', in: 'query' },
      description: 'Sort field, or `<field>,<direction>`',
      example: 'title,asc',
    }),
  order: z
    .string()
    .optional()
    .openapi({ param: { name: 'order', in: 'query' }, example: 'asc' }),
};

const libraryIdParam = z
  .uuid('must be a UUID')
  .optional()
  .openapi({ param: { name: 'library_id', in: 'query' } });

/** Lists that only narrow by library (in-progress, on-deck, recently-*). */
export const LibraryScopedPageQuerySchema = GetPageQuerySchema.extend({ library_id: libraryIdParam });

export const BookListQuerySchema = LibraryScopedPageQuerySchema.extend({
  series_id: z
    .uuid('must be a UUID')
    .optional()
    .openapi({ param: { name: 'series_id', in: 'query' } }),
  ...sortParams,
});

/** GET /series/{id}/books: the series is in the path. */
export const SeriesBooksQuerySchema = GetPageQuerySchema.extend(sortParams);

export const SortQuerySchema = z.object(sortParams);

/**
 * `DELETE /books/{id}/file` and `/series/{id}/file` remove what cannot be brought back: the caller says so
 * (DECISIONS.md §Storage: an admin deletes a book's object after a confirmation).
 */
export const FileDeletionQuerySchema = z.object({
  confirm: z.literal('true', { error: 'must be "true": deleting a book file cannot be undone' }).openapi({
    param: { name: 'confirm', in: 'query' },
    description: 'Must be `true`: the deletion cannot be undone',
  }),
});
