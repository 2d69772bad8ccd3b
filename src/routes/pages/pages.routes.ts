/**
 * Contracts of the book media routes: the page list and page image (API.md §4 Pages) and the file
 * download (DECISIONS.md §Storage). Permissions: both Pages routes need PagesRead, the permission
 * API.md names for that group, so a key limited to reading pages can both list and fetch them; the
 * download is a Books route (BooksRead).
 */
import { errorResponses } from '../../lib/openapi-responses';
import { BinarySchema, BookPageListSchema, PageImageQuerySchema, PageParamsSchema } from '../../schemas/page.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { BOOK_FILE_MEDIA_TYPES } from '../../services/book-file.service';
import { contractsFor, empty, json } from '../contract';

const pages = contractsFor('Pages');
const books = contractsFor('Books');
const binary = (description: string, mediaType: string) => ({
  description,
  content: { [mediaType]: { schema: BinarySchema } },
});
/** The book file is served with its format's media type (book-file.service.ts). */
const bookFile = (description: string) => ({
  description,
  content: Object.fromEntries(Object.values(BOOK_FILE_MEDIA_TYPES).map((type) => [type, { schema: BinarySchema }])),
});
export const NOT_MODIFIED = empty('Not modified: the client’s copy (If-None-Match) is current');
const RANGE_NOT_SATISFIABLE = { description: 'Range not satisfiable', content: errorResponses(400)[400].content };

const PAGE_LIST =
  '`width`/`height` are null until the book is analyzed (the deferred pass after a scan), except for PDF ' +
  'pages that are rendered, whose size is the default rendering. A reflowable EPUB has no page images: the ' +
  'list is empty and its `pageCount` counts reading positions. 422 for a book whose analysis failed.';
const PAGE_IMAGE =
  'Without parameters: the page exactly as stored in the file (PDF pages that are not one embedded image ' +
  'are rendered, longest side 2000 px, PNG), kept in the edge cache of the data center after the first ' +
  'read. With `width`/`height` (bounds, aspect ratio kept, never enlarged) and/or `format`: a resized or ' +
  'transcoded copy, rendered once and then served from a cache; a request the original already satisfies ' +
  'gets the original. `X-Longbox-Cache: hit|miss` says whether a cache answered. Strong ETag per book ' +
  'version, page and parameters; If-None-Match → 304. 422 for a reflowable EPUB (read it with ' +
  'GET /books/{id}/file) or a book whose analysis failed; 409 when the file changed since the last scan ' +
  'and the page must be read from it.';
const BOOK_FILE =
  'The original file as an attachment (Content-Disposition with an RFC 6266 `filename*`), with its R2 ETag, ' +
  'Last-Modified and `Accept-Ranges: bytes`. One byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) → 206 with ' +
  'Content-Range; If-Range is honoured; a range starting beyond the end → 416 with `Content-Range: bytes ' +
  '*/size` and the error envelope (kind BadRequest); several ranges are answered with the whole file. ' +
  'If-None-Match → 304. HEAD gives the headers only.';

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listPages: pages.get('/books/{id}/pages', 'PagesRead', { summary: 'Pages of a book in reading order (PagesRead)', description: PAGE_LIST, params: IdParamSchema, 200: json(BookPageListSchema, 'The pages'), errors: [400, 404, 422] }),
  getPage: pages.get('/books/{book_id}/pages/{page_number}', 'PagesRead', { summary: 'A page image (PagesRead)', description: PAGE_IMAGE, params: PageParamsSchema, query: PageImageQuerySchema, 200: binary('The page image', 'image/*'), 304: NOT_MODIFIED, errors: [400, 404, 409, 422, 503] }),
  getBookFile: books.get('/books/{id}/file', 'BooksRead', { summary: 'Download the book file (BooksRead)', description: BOOK_FILE, params: IdParamSchema, 200: bookFile('The whole file'), 206: bookFile('The requested byte range'), 304: NOT_MODIFIED, 416: RANGE_NOT_SATISFIABLE, errors: [400, 404, 409] }),
};
