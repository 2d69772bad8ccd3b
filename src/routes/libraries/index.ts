import { createRouter } from '../../http/router';
import { noContent } from '../handlers';
import { filesRouter } from './files';
import { contracts as routes } from './libraries.routes';

export const librariesRouter = createRouter()
  .openapi(routes.listLibraries, async (c) => c.json(await c.get('services').libraries.list(), 200))
  .openapi(routes.createLibrary, async (c) =>
    c.json(await c.get('services').libraries.create(c.req.valid('json')), 201),
  )
  .openapi(routes.getLibrary, async (c) => c.json(await c.get('services').libraries.get(c.req.valid('param').id), 200))
  .openapi(routes.updateLibrary, async (c) =>
    c.json(await c.get('services').libraries.update(c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(routes.deleteLibrary, async (c) => noContent(c, c.get('services').libraries.delete(c.req.valid('param').id)))
  .route('/', filesRouter);
