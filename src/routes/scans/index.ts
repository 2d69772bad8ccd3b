import { createRouter } from '../../http/router';
import { contracts as routes } from './scans.routes';

export const scansRouter = createRouter()
  .openapi(routes.startScan, async (c) => {
    const principal = c.get('principal');
    const status = await c
      .get('services')
      .scans.start(c.req.valid('param').id, c.req.valid('query').mode, principal.user.id);
    return c.json(status, 202);
  })
  .openapi(routes.getScanStatus, async (c) =>
    c.json(await c.get('services').scans.status(c.req.valid('param').id), 200),
  )
  .openapi(routes.cancelScan, async (c) => c.json(await c.get('services').scans.cancel(c.req.valid('param').id), 202))
  .openapi(routes.listActiveScans, async (c) => c.json(await c.get('services').scans.active(), 200));
