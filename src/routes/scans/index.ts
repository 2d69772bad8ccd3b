import { requestViewer } from '../../http/progress-actor';
import { createRouter } from '../../http/router';
import { contracts as routes } from './scans.routes';

export const scansRouter = createRouter()
  .openapi(routes.startScan, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await c.get('services').scans.start(requestViewer(c), id, c.req.valid('query').mode), 202);
  })
  .openapi(routes.getScanStatus, async (c) =>
    c.json(await c.get('services').scans.status(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.cancelScan, async (c) =>
    c.json(await c.get('services').scans.cancel(requestViewer(c), c.req.valid('param').id), 202),
  )
  .openapi(routes.listActiveScans, async (c) => c.json(await c.get('services').scans.active(requestViewer(c)), 200));
