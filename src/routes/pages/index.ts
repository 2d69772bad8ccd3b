/** Page list, page images and file downloads: thin handlers over the page and book-file services. */
import { createRouter } from '../../http/router';
import { requestViewer } from '../../http/progress-actor';
import { contracts as routes } from './pages.routes';
import { mediaRequestOf, sendMedia } from '../../http/send-media';

export const pagesRouter = createRouter()
  .openapi(routes.listPages, async (c) =>
    c.json(
      await c.get('services').pages.list(requestViewer(c), c.req.valid('param').id, new URL(c.req.url).origin),
      200,
    ),
  )
  .openapi(routes.getPage, async (c) => {
    const { book_id, page_number } = c.req.valid('param');
    const ask = { bookId: book_id, pageNumber: page_number, variant: c.req.valid('query'), request: mediaRequestOf(c) };
    return sendMedia(c, await c.get('services').pages.image(requestViewer(c), ask));
  })
  .openapi(routes.getBookFile, async (c) => {
    const result = await c.get('services').bookFiles.download(requestViewer(c), c.req.valid('param').id, {
      method: c.req.method,
      origin: new URL(c.req.url).origin,
      range: c.req.header('Range'),
      ifRange: c.req.header('If-Range'),
      ifNoneMatch: c.req.header('If-None-Match'),
    });
    return sendMedia(c, result);
  });
