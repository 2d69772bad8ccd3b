import { createRoute } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, jsonContent } from '../../lib/openapi-responses';
import { authenticate } from '../../middleware/authenticate';
import {
  BookListQuerySchema,
  BookPageSchema,
  BookSchema,
  LibraryScopedPageQuerySchema,
} from '../../schemas/book.schema';
import { FilterBodySchema } from '../../schemas/filter.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { PostListQuerySchema } from '../../schemas/series.schema';

const tags = ['Books'];
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];

const bookPage = (description: string) => ({
  200: jsonContent(BookPageSchema, description),
  ...errorResponses(400, ...AUTH_ERRORS),
});

/** A GET list of books scoped by `library_id` only, in a fixed order. */
const fixedOrderList = (path: string, summary: string) =>
  createRoute({
    method: 'get',
    path,
    tags,
    security,
    summary,
    middleware: [authenticate('BooksRead')] as const,
    request: { query: LibraryScopedPageQuerySchema },
    responses: bookPage(summary),
  });

export const listBooks = createRoute({
  method: 'get',
  path: '/books',
  tags,
  security,
  summary: 'List books (BooksRead)',
  description:
    'Sort fields: title, number, file_size, page_count, created_at, modified_at. Default: title, or reading ' +
    'order (number) when series_id is given.',
  middleware: [authenticate('BooksRead')] as const,
  request: { query: BookListQuerySchema },
  responses: bookPage('A page of books'),
});

export const filterBooks = createRoute({
  method: 'post',
  path: '/books/list',
  tags,
  security,
  summary: 'List books matching a condition and/or full-text search (BooksRead)',
  middleware: [authenticate('BooksRead')] as const,
  request: {
    query: PostListQuerySchema,
    body: { required: false, content: { 'application/json': { schema: FilterBodySchema } } },
  },
  responses: bookPage('A page of matching books'),
});

export const booksInProgress = fixedOrderList(
  '/books/in-progress',
  'Books the user is reading, latest activity first (BooksRead)',
);
export const booksOnDeck = fixedOrderList(
  '/books/on-deck',
  'Next unread book of each series where the user completed a book and has none in progress (BooksRead)',
);
export const booksRecentlyAdded = fixedOrderList('/books/recently-added', 'Books, newest first (BooksRead)');
export const booksRecentlyRead = fixedOrderList(
  '/books/recently-read',
  'Books the user completed, most recent first (BooksRead)',
);

export const getBook = createRoute({
  method: 'get',
  path: '/books/{id}',
  tags,
  security,
  summary: 'A book, including a soft-deleted one (BooksRead)',
  middleware: [authenticate('BooksRead')] as const,
  request: { params: IdParamSchema },
  responses: { 200: jsonContent(BookSchema, 'The book'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});
