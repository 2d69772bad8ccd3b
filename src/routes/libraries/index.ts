import { requestViewer } from '../../http/progress-actor';
import { createRouter } from '../../http/router';
import { noContent } from '../handlers';
import { filesRouter } from './files';
import { contracts as routes } from './libraries.routes';

export const librariesRouter = createRouter()
  .openapi(routes.listLibraries, async (c) => c.json(await c.get('services').libraries.list(requestViewer(c)), 200))
  .openapi(routes.createLibrary, async (c) =>
    c.json(await c.get('services').libraries.create(requestViewer(c), c.req.valid('json')), 201),
  )
  .openapi(routes.getLibrary, async (c) =>
    c.json(await c.get('services').libraries.get(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.updateLibrary, async (c) =>
    c.json(
      await c.get('services').libraries.update(requestViewer(c), c.req.valid('param').id, c.req.valid('json')),
      200,
    ),
  )
  .openapi(routes.deleteLibrary, async (c) =>
    noContent(c, c.get('services').libraries.delete(requestViewer(c), c.req.valid('param').id)),
  )
  .route('/', filesRouter);
