import {
  BookListQuerySchema,
  FileDeletionQuerySchema,
  BookPageSchema,
  BookSchema,
  LibraryScopedPageQuerySchema,
} from '../../schemas/book.schema';
import { FilterBodySchema } from '../../schemas/filter.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { PostListQuerySchema } from '../../schemas/series.schema';
import type { z } from '@hono/zod-openapi';
import { type Access, type ContractBuilders, contractsFor, empty, json, optionalJsonBody } from '../contract';

const books = contractsFor('Books');
const SORT_FIELDS =
  'Sort fields: title, number, file_size, page_count, created_at, modified_at. Default: title, or reading ' +
  'order (number) when series_id is given.';

/** GET lists in a fixed order scoped by `library_id` only, of one resource's pages (also the series'). */
export const fixedOrderLists =
  <S extends z.ZodType>(builders: ContractBuilders, access: Access, page: S) =>
  <const P extends string>(path: P, summary: string) =>
    builders.get(path, access, {
      summary,
      query: LibraryScopedPageQuerySchema,
      200: json(page, summary),
      errors: [400],
    });
const fixedOrderList = fixedOrderLists(books, 'BooksRead', BookPageSchema);

/** What deleting a book's or a series' files does (DECISIONS.md §Storage "Deleting files"). */
export const FILE_DELETION =
  'Removes the object(s) from the library bucket and the images made from them (thumbnail, page renditions); ' +
  'the books then go to the trash as if their files had disappeared (progress kept until the trash is emptied). ' +
  'Administrators only; needs `confirm=true`. Nothing else ever deletes a book file.';

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listBooks: books.get('/books', 'BooksRead', { summary: 'List books (BooksRead)', description: SORT_FIELDS, query: BookListQuerySchema, 200: json(BookPageSchema, 'A page of books'), errors: [400] }),
  filterBooks: books.post('/books/list', 'BooksRead', { summary: 'List books matching a condition and/or full-text search (BooksRead)', query: PostListQuerySchema, body: optionalJsonBody(FilterBodySchema), 200: json(BookPageSchema, 'A page of matching books'), errors: [400], speculation: 'read-only' }),
  booksInProgress: fixedOrderList('/books/in-progress', 'Books the user is reading, latest activity first (BooksRead)'),
  booksOnDeck: fixedOrderList('/books/on-deck', 'Next unread book of each series where the user completed a book and has none in progress (BooksRead)'),
  booksRecentlyAdded: fixedOrderList('/books/recently-added', 'Books, newest first (BooksRead)'),
  booksRecentlyRead: fixedOrderList('/books/recently-read', 'Books the user completed, most recent first (BooksRead)'),
  getBook: books.get('/books/{id}', 'BooksRead', { summary: 'A book, including a soft-deleted one (BooksRead)', params: IdParamSchema, 200: json(BookSchema, 'The book'), errors: [400, 404] }),
  deleteBookFile: books.delete('/books/{id}/file', 'SystemAdmin', { summary: 'Delete the book’s file from storage (SystemAdmin)', description: FILE_DELETION, params: IdParamSchema, query: FileDeletionQuerySchema, 204: empty('Deleted'), errors: [400, 404], speculation: 'checked-writes' }),
};
