/**
 * Komga's media endpoints over Longbox's page, thumbnail and file services: the page list (1-based
 * numbers in both APIs), page images (`convert=jpeg|png`; the image whatever the Accept header says —
 * Komelia asks for JSON everywhere), page thumbnails, covers (404 without one, as Komga), the file
 * download (typed with the book's `media.mediaType`), and the SSE stream.
 */
import type { PageVariant } from '../pages/page-variant';
import { badRequest } from '../lib/errors';
import { komgaEventStream } from './komga-events';
import { requestViewer } from '../http/progress-actor';
import { mediaRequestOf } from '../http/send-media';
import { type KomgaApp, type KomgaContext, need, sendMedia } from './komga-http';
import { KOMGA_MEDIA_TYPES, toKomgaPage } from './komga.mappers';

/** Komga's page thumbnails are 300 px high. */
const PAGE_THUMBNAIL_HEIGHT = 300;

/** The 1-based page number of `/pages/{n}`; `zero_based=true` counts from 0 as Komga allows. */
function pageNumber(c: KomgaContext): number {
  const text = c.req.param('n') ?? '';
  if (!/^\d{1,9}$/.test(text)) throw badRequest(`Page number must be a whole number, got '${text}'`);
  const zeroBased = c.req.query('zero_based')?.toLowerCase() === 'true';
  const n = Number(text) + (zeroBased ? 1 : 0);
  if (n < 1) throw badRequest('Page numbers start at 1');
  return n;
}

function convertVariant(c: KomgaContext): PageVariant {
  const convert = c.req.query('convert')?.toLowerCase();
  if (convert === undefined || convert === '') return {};
  if (convert !== 'jpeg' && convert !== 'png') throw badRequest(`convert must be jpeg or png, got '${convert}'`);
  return { format: convert };
}

export function registerMediaRoutes(app: KomgaApp) {
  app.get('/api/v1/books/:id/pages', need('PagesRead'), async (c) => {
    const pages = await c.get('services').pages.list(requestViewer(c), c.req.param('id'), new URL(c.req.url).origin);
    return c.json(pages.map(toKomgaPage));
  });
  app.get('/api/v1/books/:id/pages/:n', need('PagesRead'), async (c) => {
    const ask = { bookId: c.req.param('id'), pageNumber: pageNumber(c), variant: convertVariant(c) };
    return sendMedia(c, await c.get('services').pages.image(requestViewer(c), { ...ask, request: mediaRequestOf(c) }));
  });
  app.get('/api/v1/books/:id/pages/:n/thumbnail', need('PagesRead'), async (c) => {
    const variant = { height: PAGE_THUMBNAIL_HEIGHT, format: 'jpeg' } as const;
    const ask = { bookId: c.req.param('id'), pageNumber: pageNumber(c), variant, request: mediaRequestOf(c) };
    return sendMedia(c, await c.get('services').pages.image(requestViewer(c), ask));
  });
  app.get('/api/v1/books/:id/thumbnail', need('BooksRead'), async (c) =>
    sendMedia(
      c,
      await c.get('services').thumbnails.forBook(requestViewer(c), c.req.param('id'), mediaRequestOf(c), 'notFound'),
    ),
  );
  app.get('/api/v1/series/:id/thumbnail', need('SeriesRead'), async (c) =>
    sendMedia(
      c,
      await c.get('services').thumbnails.forSeries(requestViewer(c), c.req.param('id'), mediaRequestOf(c), 'notFound'),
    ),
  );
  app.get('/api/v1/libraries/:id/thumbnail', need('LibrariesRead'), async (c) =>
    sendMedia(
      c,
      await c.get('services').thumbnails.forLibrary(requestViewer(c), c.req.param('id'), mediaRequestOf(c), 'notFound'),
    ),
  );
  app.on(['GET', 'HEAD'], '/api/v1/books/:id/file', need('BooksRead'), async (c) => {
    const result = await c.get('services').bookFiles.download(
      requestViewer(c),
      c.req.param('id'),
      {
        method: c.req.method,
        origin: new URL(c.req.url).origin,
        range: c.req.header('Range'),
        ifRange: c.req.header('If-Range'),
        ifNoneMatch: c.req.header('If-None-Match'),
      },
      // The book's `media.mediaType`, as Komga sends it.
      KOMGA_MEDIA_TYPES,
    );
    return sendMedia(c, result);
  });
  app.get('/sse/v1/events', need(['LibrariesRead', 'SeriesRead', 'BooksRead']), async (c) => {
    const lastId = c.req.header('Last-Event-ID');
    const body = await komgaEventStream(
      c.env,
      c.get('config').LONGBOX_EVENTS__KEEP_ALIVE_MS,
      lastId && /^\d{1,15}$/.test(lastId) ? Number(lastId) : null,
      (all) => c.get('services').eventStreams.forCaller(all, c.get('principal')),
    );
    return new Response(body, {
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform' },
    });
  });
}
