import {
  BookListQuerySchema,
  BookPageSchema,
  BookSchema,
  LibraryScopedPageQuerySchema,
} from '../../schemas/book.schema';
import { FilterBodySchema } from '../../schemas/filter.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { PostListQuerySchema } from '../../schemas/series.schema';
import { contractsFor, json } from '../contract';

const route = contractsFor('Books');
const page = (description: string) => ({ 200: json(BookPageSchema, description) });

/** A GET list of books scoped by `library_id` only, in a fixed order. */
const fixedOrderList = (path: string, summary: string) =>
  route.get(path, 'BooksRead', {
    summary,
    query: LibraryScopedPageQuerySchema,
    responses: page(summary),
    errors: [400],
  });

export const listBooks = route.get('/books', 'BooksRead', {
  summary: 'List books (BooksRead)',
  description:
    'Sort fields: title, number, file_size, page_count, created_at, modified_at. Default: title, or reading ' +
    'order (number) when series_id is given.',
  query: BookListQuerySchema,
  responses: page('A page of books'),
  errors: [400],
});
export const filterBooks = route.post('/books/list', 'BooksRead', {
  summary: 'List books matching a condition and/or full-text search (BooksRead)',
  query: PostListQuerySchema,
  body: { required: false, content: { 'application/json': { schema: FilterBodySchema } } },
  responses: page('A page of matching books'),
  errors: [400],
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
export const getBook = route.get('/books/{id}', 'BooksRead', {
  summary: 'A book, including a soft-deleted one (BooksRead)',
  params: IdParamSchema,
  responses: { 200: json(BookSchema, 'The book') },
  errors: [400, 404],
});
