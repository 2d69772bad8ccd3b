import { PROGRESS_WRITE } from '../../auth/permissions';
import { PageQuerySchema } from '../../lib/pagination';
import { BookPageSchema, FileDeletionQuerySchema, SeriesBooksQuerySchema } from '../../schemas/book.schema';
import { FILE_DELETION, fixedOrderLists } from '../books/books.routes';
import { FilterBodySchema } from '../../schemas/filter.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import {
  PostListQuerySchema,
  SeriesListQuerySchema,
  SeriesPageSchema,
  SeriesSchema,
  SeriesSearchBodySchema,
} from '../../schemas/series.schema';
import { contractsFor, empty, json, optionalJsonBody } from '../contract';

const series = contractsFor('Series');
const SORT_FIELDS =
  'Sort fields: name, date_added, date_updated, release_date, date_read, book_count, file_size, filename, page_count.';

const fixedOrderList = fixedOrderLists(series, 'SeriesRead', SeriesPageSchema);
const markSeries = <const S extends 'read' | 'unread'>(state: S) =>
  series.post(`/series/{id}/${state}`, PROGRESS_WRITE, {
    summary: `Mark every book of the series ${state} for the user (ProgressWrite or BooksWrite)`,
    params: IdParamSchema,
    204: empty(`Marked ${state}`),
    errors: [400, 404],
  });

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listSeries: series.get('/series', 'SeriesRead', { summary: 'List series (SeriesRead)', description: SORT_FIELDS, query: SeriesListQuerySchema, 200: json(SeriesPageSchema, 'A page of series'), errors: [400] }),
  filterSeries: series.post('/series/list', 'SeriesRead', { summary: 'List series matching a condition and/or full-text search (SeriesRead)', query: PostListQuerySchema, body: optionalJsonBody(FilterBodySchema), 200: json(SeriesPageSchema, 'A page of matching series'), errors: [400], speculation: 'read-only' }),
  searchSeries: series.post('/series/search', 'SeriesRead', { summary: 'Full-text search of series, best matches first (SeriesRead)', query: PageQuerySchema, body: SeriesSearchBodySchema, 200: json(SeriesPageSchema, 'A page of matching series ranked by relevance'), errors: [400], speculation: 'read-only' }),
  seriesInProgress: fixedOrderList('/series/in-progress', 'Series with a book the user is reading, latest activity first (SeriesRead)'),
  seriesRecentlyAdded: fixedOrderList('/series/recently-added', 'Series, newest first (SeriesRead)'),
  seriesRecentlyUpdated: fixedOrderList('/series/recently-updated', 'Series, most recently updated first (SeriesRead)'),
  getSeries: series.get('/series/{id}', 'SeriesRead', { summary: 'A series (SeriesRead)', params: IdParamSchema, 200: json(SeriesSchema, 'The series'), errors: [400, 404] }),
  listSeriesBooks: series.get('/series/{id}/books', 'SeriesRead', { summary: 'Books of a series, in reading order unless sorted otherwise (SeriesRead)', params: IdParamSchema, query: SeriesBooksQuerySchema, 200: json(BookPageSchema, 'A page of books'), errors: [400, 404] }),
  markSeriesRead: markSeries('read'),
  markSeriesUnread: markSeries('unread'),
  deleteSeriesFiles: series.delete('/series/{id}/file', 'SystemAdmin', { summary: 'Delete the files of every book of the series from storage (SystemAdmin)', description: FILE_DELETION, params: IdParamSchema, query: FileDeletionQuerySchema, 204: empty('Deleted'), errors: [400, 404], speculation: 'checked-writes' }),
};
