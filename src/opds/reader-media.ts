/**
 * Covers, page images and book files as reader apps fetch them from a catalog (DECISIONS.md §Reader
 * apps): the API's own services behind the reader-app guard, so a 401 challenges with
 * `Basic realm="Longbox"` and the credentials an app sent for the feed work here too. Permissions are
 * those of the matching API endpoints (covers: BooksRead/SeriesRead, pages: PagesRead). Files are the
 * API's own endpoint.
 */
import type { Context, Hono } from 'hono';
import { z } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import { badRequest, issuesToDetails } from '../lib/errors';
import { readerAppAuth } from '../middleware/reader-app-auth';
import { mediaRequestOf, sendMedia } from '../http/send-media';
import { requestViewer } from '../http/progress-actor';
import { PageImageQuerySchema } from '../schemas/page.schema';
import type { BookPaging } from '../repositories/books.repository';

const UUID = z.uuid();

/** Page and cover paths: binary endpoints whose errors keep the API's envelope, as their API twins do. */
const MEDIA_PATH = /\/(books\/[^/]+\/(pages\/[^/]+|thumbnail)|series\/[^/]+\/thumbnail)$/;
export const isReaderMediaPath = (path: string) => MEDIA_PATH.test(path);

/** A path id: malformed → 400, as everywhere (DECISIONS.md §Errors); unknown ones are the services' 404. */
export function idParam(c: Context<AppEnv>, name = 'id'): string {
  const value = c.req.param(name) ?? '';
  if (!UUID.safeParse(value).success) {
    throw badRequest(`Invalid path parameter: ${name}: must be a UUID`, [{ path: name, message: 'must be a UUID' }]);
  }
  return value;
}

/** width/height/format of a page request, validated like GET /books/{id}/pages/{n} (API.md §4 Pages). */
export function pageVariant(c: Context<AppEnv>) {
  const parsed = PageImageQuerySchema.safeParse(c.req.query());
  if (!parsed.success) {
    const details = issuesToDetails(parsed.error.issues);
    throw badRequest(`Invalid query parameter: ${details[0]?.path}: ${details[0]?.message}`, details);
  }
  return parsed.data;
}

/**
 * GET /books/{id}/thumbnail and /series/{id}/thumbnail under a catalog base: 404 without a cover (the feeds
 * link JPEGs; an SVG placeholder behind such a link breaks apps' image decoders).
 */
export function mountReaderMedia(router: Hono<AppEnv>) {
  router.get('/books/:id/thumbnail', readerAppAuth('BooksRead'), async (c) =>
    sendMedia(
      c,
      await c.get('services').thumbnails.forBook(requestViewer(c), idParam(c), mediaRequestOf(c), 'notFound'),
    ),
  );
  router.get('/series/:id/thumbnail', readerAppAuth('SeriesRead'), async (c) =>
    sendMedia(
      c,
      await c.get('services').thumbnails.forSeries(requestViewer(c), idParam(c), mediaRequestOf(c), 'notFound'),
    ),
  );
}

/** Serves page `pageNumber` (1-based) of a book through the page service. */
export async function servePage(c: Context<AppEnv>, bookId: string, pageNumber: number) {
  return c
    .get('services')
    .pages.image(requestViewer(c), { bookId, pageNumber, variant: pageVariant(c), request: mediaRequestOf(c) });
}

/**
 * Serves a streamed page (OPDS-PSE) once `accept` has checked it against the book's paging facts, which
 * it returns with the page (the progress the page moves needs them): one page-table read for both.
 */
export async function serveStreamedPage(
  c: Context<AppEnv>,
  bookId: string,
  pageNumber: number,
  accept: (book: BookPaging) => void,
) {
  const viewer = requestViewer(c);
  const ask = { bookId, pageNumber, variant: pageVariant(c), request: mediaRequestOf(c) };
  return c.get('services').pages.imageWithPaging(viewer, ask, accept);
}
