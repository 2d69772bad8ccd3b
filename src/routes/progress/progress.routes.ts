import { createRoute } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, jsonBody, jsonContent } from '../../lib/openapi-responses';
import { GetPageQuerySchema } from '../../lib/pagination';
import { authenticate } from '../../middleware/authenticate';
import { BookPageSchema, LibraryScopedPageQuerySchema } from '../../schemas/book.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import {
  ReadProgressPageSchema,
  ReadProgressSchema,
  UpdateProgressBodySchema,
} from '../../schemas/read-progress.schema';

const tags = ['Reading progress'];
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];
/** DECISIONS.md §Roles: reading own progress needs ProgressRead or BooksRead; writing ProgressWrite or BooksWrite. */
const READ = ['ProgressRead', 'BooksRead'] as const;
const WRITE = ['ProgressWrite', 'BooksWrite'] as const;

export const getProgress = createRoute({
  method: 'get',
  path: '/books/{id}/progress',
  tags,
  security,
  summary: "The user's progress in a book (ProgressRead or BooksRead); 404 when there is none",
  middleware: [authenticate(READ)] as const,
  request: { params: IdParamSchema },
  responses: { 200: jsonContent(ReadProgressSchema, 'The progress'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const updateProgress = createRoute({
  method: 'put',
  path: '/books/{id}/progress',
  tags,
  security,
  summary: 'Set the current page and completion (ProgressWrite or BooksWrite)',
  description:
    'current_page must lie in 1..pageCount. progress_percentage (0..1) is stored for reflowable EPUBs; for ' +
    'other books the percentage is current_page / pageCount. The device is the API key used, else a hash of ' +
    'the User-Agent.',
  middleware: [authenticate(WRITE)] as const,
  request: { params: IdParamSchema, body: jsonBody(UpdateProgressBodySchema) },
  responses: { 200: jsonContent(ReadProgressSchema, 'The progress'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const deleteProgress = createRoute({
  method: 'delete',
  path: '/books/{id}/progress',
  tags,
  security,
  summary: "Clear the user's progress in a book (ProgressWrite or BooksWrite)",
  middleware: [authenticate(WRITE)] as const,
  request: { params: IdParamSchema },
  responses: { 204: { description: 'Cleared' }, ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const markBookRead = createRoute({
  method: 'post',
  path: '/books/{id}/read',
  tags,
  security,
  summary: 'Mark a book read: completed on its last page (ProgressWrite or BooksWrite)',
  middleware: [authenticate(WRITE)] as const,
  request: { params: IdParamSchema },
  responses: { 200: jsonContent(ReadProgressSchema, 'The progress'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const markBookUnread = createRoute({
  method: 'post',
  path: '/books/{id}/unread',
  tags,
  security,
  summary: 'Mark a book unread: its progress is cleared (ProgressWrite or BooksWrite)',
  middleware: [authenticate(WRITE)] as const,
  request: { params: IdParamSchema },
  responses: { 204: { description: 'Marked unread' }, ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const listProgress = createRoute({
  method: 'get',
  path: '/progress',
  tags,
  security,
  summary: "All of the user's progress, latest first (ProgressRead or BooksRead)",
  middleware: [authenticate(READ)] as const,
  request: { query: GetPageQuerySchema },
  responses: { 200: jsonContent(ReadProgressPageSchema, 'A page of progress'), ...errorResponses(400, ...AUTH_ERRORS) },
});

export const currentlyReading = createRoute({
  method: 'get',
  path: '/progress/currently-reading',
  tags,
  security,
  summary: 'Books the user is reading, latest activity first (ProgressRead or BooksRead)',
  middleware: [authenticate(READ)] as const,
  request: { query: LibraryScopedPageQuerySchema },
  responses: { 200: jsonContent(BookPageSchema, 'A page of books'), ...errorResponses(400, ...AUTH_ERRORS) },
});
