import { requestViewer } from '../../http/progress-actor';
import { createRouter } from '../../http/router';
import { MAX_BROWSE_LIMIT } from '../../schemas/filesystem.schema';
import { contracts as routes } from './filesystem.routes';

export const filesystemRouter = createRouter()
  .openapi(routes.browse, async (c) => {
    const { path = '', cursor, limit } = c.req.valid('query');
    const pageLimit = Math.min(Number(limit ?? MAX_BROWSE_LIMIT), MAX_BROWSE_LIMIT);
    return c.json(await c.get('services').filesystem.browse(requestViewer(c), path, { cursor, limit: pageLimit }), 200);
  })
  .openapi(routes.drives, (c) => c.json(c.get('services').filesystem.drives(requestViewer(c)), 200));
