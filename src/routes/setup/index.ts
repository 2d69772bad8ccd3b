import { createRouter } from '../../lib/router';
import { clientInfo } from '../client-info';
import { getSetupStatus, initializeSetup } from './setup.routes';

export const setupRouter = createRouter()
  .openapi(getSetupStatus, async (c) => c.json(await c.get('services').setup.status(), 200))
  .openapi(initializeSetup, async (c) =>
    c.json(await c.get('services').setup.initialize(c.req.valid('json'), clientInfo(c)), 201),
  );
