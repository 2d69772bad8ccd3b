import { createRouter } from '../../http/router';
import { setSessionCookie } from '../../auth/session-cookie';
import { clientInfo } from '../../http/client-info';
import { contracts as routes } from './setup.routes';

export const setupRouter = createRouter()
  .openapi(routes.getSetupStatus, async (c) => c.json(await c.get('services').setup.status(), 200))
  .openapi(routes.initializeSetup, async (c) => {
    const session = await c.get('services').setup.initialize(c.req.valid('json'), clientInfo(c));
    setSessionCookie(c, session.access_token, session.expires_in);
    return c.json(session, 201);
  });
