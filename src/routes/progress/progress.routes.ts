import { PROGRESS_READ as READ, PROGRESS_WRITE as WRITE } from '../../auth/permissions';
import { GetPageQuerySchema } from '../../lib/pagination';
import { BookPageSchema, LibraryScopedPageQuerySchema } from '../../schemas/book.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import {
  ReadProgressPageSchema,
  ReadProgressSchema,
  UpdateProgressBodySchema,
} from '../../schemas/read-progress.schema';
import { contractsFor, empty, json } from '../contract';

const progress = contractsFor('Reading progress');
const record = json(ReadProgressSchema, 'The progress');
const UPDATE_RULES =
  'current_page must lie in 1..pageCount. progress_percentage (0..1) is stored for reflowable EPUBs; for ' +
  'other books the percentage is current_page / pageCount. The device is the API key used, else a hash of ' +
  'the User-Agent.';

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  getProgress: progress.get('/books/{id}/progress', READ, { summary: "The user's progress in a book (ProgressRead or BooksRead); 404 when there is none", params: IdParamSchema, 200: record, errors: [400, 404] }),
  updateProgress: progress.put('/books/{id}/progress', WRITE, { summary: 'Set the current page and completion (ProgressWrite or BooksWrite)', description: UPDATE_RULES, params: IdParamSchema, body: UpdateProgressBodySchema, 200: record, errors: [400, 404, 409], speculation: 'guarded-writes' }),
  deleteProgress: progress.delete('/books/{id}/progress', WRITE, { summary: "Clear the user's progress in a book (ProgressWrite or BooksWrite)", params: IdParamSchema, 204: empty('Cleared'), errors: [400, 404] }),
  markBookRead: progress.post('/books/{id}/read', WRITE, { summary: 'Mark a book read: completed on its last page (ProgressWrite or BooksWrite)', params: IdParamSchema, 200: record, errors: [400, 404] }),
  markBookUnread: progress.post('/books/{id}/unread', WRITE, { summary: 'Mark a book unread: its progress is cleared (ProgressWrite or BooksWrite)', params: IdParamSchema, 204: empty('Marked unread'), errors: [400, 404] }),
  listProgress: progress.get('/progress', READ, { summary: "All of the user's progress, latest first (ProgressRead or BooksRead)", query: GetPageQuerySchema, 200: json(ReadProgressPageSchema, 'A page of progress'), errors: [400] }),
  currentlyReading: progress.get('/progress/currently-reading', READ, { summary: 'Books the user is reading, latest activity first (ProgressRead or BooksRead)', query: LibraryScopedPageQuerySchema, 200: json(BookPageSchema, 'A page of books'), errors: [400] }),
};
