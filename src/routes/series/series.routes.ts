import { PageQuerySchema } from '../../lib/pagination';
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
import { contractsFor, empty, json } from '../contract';

const route = contractsFor('Series');
const PROGRESS_WRITE = ['ProgressWrite', 'BooksWrite'] as const;
const page = (description: string) => ({ 200: json(SeriesPageSchema, description) });
const optionalFilter = { required: false, content: { 'application/json': { schema: FilterBodySchema } } };

/** A GET list of series scoped by `library_id` only, in a fixed order. */
const fixedOrderList = (path: string, summary: string) =>
  route.get(path, 'SeriesRead', {
    summary,
    query: LibraryScopedPageQuerySchema,
    responses: page(summary),
    errors: [400],
  });

export const listSeries = route.get('/series', 'SeriesRead', {
  summary: 'List series (SeriesRead)',
  description:
    'Sort fields: name, date_added, date_updated, release_date, date_read, book_count, file_size, filename, page_count.',
  query: SeriesListQuerySchema,
  responses: page('A page of series'),
  errors: [400],
});
export const filterSeries = route.post('/series/list', 'SeriesRead', {
  summary: 'List series matching a condition and/or full-text search (SeriesRead)',
  query: PostListQuerySchema,
  body: optionalFilter,
  responses: page('A page of matching series'),
  errors: [400],
});
export const searchSeries = route.post('/series/search', 'SeriesRead', {
  summary: 'Full-text search of series, best matches first (SeriesRead)',
  query: PageQuerySchema,
  body: SeriesSearchBodySchema,
  responses: page('A page of matching series ranked by relevance'),
  errors: [400],
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
export const getSeries = route.get('/series/{id}', 'SeriesRead', {
  summary: 'A series (SeriesRead)',
  params: IdParamSchema,
  responses: { 200: json(SeriesSchema, 'The series') },
  errors: [400, 404],
});
export const listSeriesBooks = route.get('/series/{id}/books', 'SeriesRead', {
  summary: 'Books of a series, in reading order unless sorted otherwise (SeriesRead)',
  params: IdParamSchema,
  query: SeriesBooksQuerySchema,
  responses: { 200: json(BookPageSchema, 'A page of books') },
  errors: [400, 404],
});

const markSeries = <const S extends 'read' | 'unread'>(state: S) =>
  route.post(`/series/{id}/${state}`, PROGRESS_WRITE, {
    summary: `Mark every book of the series ${state} for the user (ProgressWrite or BooksWrite)`,
    params: IdParamSchema,
    responses: { 204: empty(`Marked ${state}`) },
    errors: [400, 404],
  });

export const markSeriesRead = markSeries('read');
export const markSeriesUnread = markSeries('unread');
