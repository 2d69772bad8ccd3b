/** Page list, page images and file downloads: thin handlers over the page and book-file services. */
import { createRouter } from '../../http/router';
import * as routes from './pages.routes';
import { sendMedia } from '../../http/send-media';

export const pagesRouter = createRouter()
  .openapi(routes.listPages, async (c) => c.json(await c.get('services').pages.list(c.req.valid('param').id), 200))
  .openapi(routes.getPage, async (c) => {
    const { book_id, page_number } = c.req.valid('param');
    const query = c.req.valid('query');
    const result = await c.get('services').pages.image(book_id, page_number, query, {
      ifNoneMatch: c.req.header('If-None-Match'),
      origin: new URL(c.req.url).origin,
    });
    return sendMedia(c, result);
  })
  .openapi(routes.getBookFile, async (c) => {
    const result = await c.get('services').bookFiles.download(c.req.valid('param').id, {
      method: c.req.method,
      range: c.req.header('Range'),
      ifRange: c.req.header('If-Range'),
      ifNoneMatch: c.req.header('If-None-Match'),
    });
    return sendMedia(c, result);
  });
