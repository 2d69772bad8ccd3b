import { GetPageQuerySchema } from '../../lib/pagination';
import { BookPageSchema, LibraryScopedPageQuerySchema } from '../../schemas/book.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import {
  ReadProgressPageSchema,
  ReadProgressSchema,
  UpdateProgressBodySchema,
} from '../../schemas/read-progress.schema';
import { contractsFor, empty, json } from '../contract';

const route = contractsFor('Reading progress');
/** DECISIONS.md §Roles: reading own progress needs ProgressRead or BooksRead; writing ProgressWrite or BooksWrite. */
const READ = ['ProgressRead', 'BooksRead'] as const;
const WRITE = ['ProgressWrite', 'BooksWrite'] as const;
const progress = { 200: json(ReadProgressSchema, 'The progress') };
const book = { params: IdParamSchema, errors: [400, 404] } as const;

export const getProgress = route.get('/books/{id}/progress', READ, {
  summary: "The user's progress in a book (ProgressRead or BooksRead); 404 when there is none",
  ...book,
  responses: progress,
});
export const updateProgress = route.put('/books/{id}/progress', WRITE, {
  summary: 'Set the current page and completion (ProgressWrite or BooksWrite)',
  description:
    'current_page must lie in 1..pageCount. progress_percentage (0..1) is stored for reflowable EPUBs; for ' +
    'other books the percentage is current_page / pageCount. The device is the API key used, else a hash of ' +
    'the User-Agent.',
  ...book,
  body: UpdateProgressBodySchema,
  responses: progress,
});
export const deleteProgress = route.delete('/books/{id}/progress', WRITE, {
  summary: "Clear the user's progress in a book (ProgressWrite or BooksWrite)",
  ...book,
  responses: { 204: empty('Cleared') },
});
export const markBookRead = route.post('/books/{id}/read', WRITE, {
  summary: 'Mark a book read: completed on its last page (ProgressWrite or BooksWrite)',
  ...book,
  responses: progress,
});
export const markBookUnread = route.post('/books/{id}/unread', WRITE, {
  summary: 'Mark a book unread: its progress is cleared (ProgressWrite or BooksWrite)',
  ...book,
  responses: { 204: empty('Marked unread') },
});
export const listProgress = route.get('/progress', READ, {
  summary: "All of the user's progress, latest first (ProgressRead or BooksRead)",
  query: GetPageQuerySchema,
  responses: { 200: json(ReadProgressPageSchema, 'A page of progress') },
  errors: [400],
});
export const currentlyReading = route.get('/progress/currently-reading', READ, {
  summary: 'Books the user is reading, latest activity first (ProgressRead or BooksRead)',
  query: LibraryScopedPageQuerySchema,
  responses: { 200: json(BookPageSchema, 'A page of books') },
  errors: [400],
});
