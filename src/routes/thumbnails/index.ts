/** Book, series and library covers: thin handlers over the thumbnail service. */
import { createRouter } from '../../http/router';
import { sendMedia } from '../../http/send-media';
import * as routes from './thumbnails.routes';

export const thumbnailsRouter = createRouter()
  .openapi(routes.bookThumbnail, async (c) => {
    const result = await c.get('services').thumbnails.forBook(c.req.valid('param').id, c.req.header('If-None-Match'));
    return sendMedia(c, result);
  })
  .openapi(routes.seriesThumbnail, async (c) => {
    const result = await c.get('services').thumbnails.forSeries(c.req.valid('param').id, c.req.header('If-None-Match'));
    return sendMedia(c, result);
  })
  .openapi(routes.libraryThumbnail, async (c) => {
    const result = await c
      .get('services')
      .thumbnails.forLibrary(c.req.valid('param').id, c.req.header('If-None-Match'));
    return sendMedia(c, result);
  });
