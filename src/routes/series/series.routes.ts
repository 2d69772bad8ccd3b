import { createRoute } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, jsonBody, jsonContent } from '../../lib/openapi-responses';
import { PageQuerySchema } from '../../lib/pagination';
import { authenticate } from '../../middleware/authenticate';
import { BookPageSchema, LibraryScopedPageQuerySchema, SeriesBooksQuerySchema } from '../../schemas/book.schema';
import { FilterBodySchema } from '../../schemas/filter.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import {
  PostListQuerySchema,
  SeriesListQuerySchema,
  SeriesPageSchema,
  SeriesSchema,
  SeriesSearchBodySchema,
} from '../../schemas/series.schema';

const tags = ['Series'];
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];
const PROGRESS_WRITE = ['ProgressWrite', 'BooksWrite'] as const;

const seriesPage = (description: string) => ({
  200: jsonContent(SeriesPageSchema, description),
  ...errorResponses(400, ...AUTH_ERRORS),
});

/** A GET list of series scoped by `library_id` only, in a fixed order. */
const fixedOrderList = (path: string, summary: string) =>
  createRoute({
    method: 'get',
    path,
    tags,
    security,
    summary,
    middleware: [authenticate('SeriesRead')] as const,
    request: { query: LibraryScopedPageQuerySchema },
    responses: seriesPage(summary),
  });

export const listSeries = createRoute({
  method: 'get',
  path: '/series',
  tags,
  security,
  summary: 'List series (SeriesRead)',
  description:
    'Sort fields: name, date_added, date_updated, release_date, date_read, book_count, file_size, filename, page_count.',
  middleware: [authenticate('SeriesRead')] as const,
  request: { query: SeriesListQuerySchema },
  responses: seriesPage('A page of series'),
});

export const filterSeries = createRoute({
  method: 'post',
  path: '/series/list',
  tags,
  security,
  summary: 'List series matching a condition and/or full-text search (SeriesRead)',
  middleware: [authenticate('SeriesRead')] as const,
  request: {
    query: PostListQuerySchema,
    body: { required: false, content: { 'application/json': { schema: FilterBodySchema } } },
  },
  responses: seriesPage('A page of matching series'),
});

export const searchSeries = createRoute({
  method: 'post',
  path: '/series/search',
  tags,
  security,
  summary: 'Full-text search of series, best matches first (SeriesRead)',
  middleware: [authenticate('SeriesRead')] as const,
  request: { query: PageQuerySchema, body: jsonBody(SeriesSearchBodySchema) },
  responses: seriesPage('A page of matching series ranked by relevance'),
});

export const seriesInProgress = fixedOrderList(
  '/series/in-progress',
  'Series with a book the user is reading, latest activity first (SeriesRead)',
);
export const seriesRecentlyAdded = fixedOrderList('/series/recently-added', 'Series, newest first (SeriesRead)');
export const seriesRecentlyUpdated = fixedOrderList(
  '/series/recently-updated',
  'Series, most recently updated first (SeriesRead)',
);

export const getSeries = createRoute({
  method: 'get',
  path: '/series/{id}',
  tags,
  security,
  summary: 'A series (SeriesRead)',
  middleware: [authenticate('SeriesRead')] as const,
  request: { params: IdParamSchema },
  responses: { 200: jsonContent(SeriesSchema, 'The series'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const listSeriesBooks = createRoute({
  method: 'get',
  path: '/series/{id}/books',
  tags,
  security,
  summary: 'Books of a series, in reading order unless sorted otherwise (SeriesRead)',
  middleware: [authenticate('SeriesRead')] as const,
  request: { params: IdParamSchema, query: SeriesBooksQuerySchema },
  responses: { 200: jsonContent(BookPageSchema, 'A page of books'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

const markSeries = (state: 'read' | 'unread') =>
  createRoute({
    method: 'post',
    path: `/series/{id}/${state}`,
    tags,
    security,
    summary: `Mark every book of the series ${state} for the user (ProgressWrite or BooksWrite)`,
    middleware: [authenticate(PROGRESS_WRITE)] as const,
    request: { params: IdParamSchema },
    responses: { 204: { description: `Marked ${state}` }, ...errorResponses(400, ...AUTH_ERRORS, 404) },
  });

export const markSeriesRead = markSeries('read');
export const markSeriesUnread = markSeries('unread');
