import { createRouter } from '../../http/router';
import { noContent } from '../handlers';
import { contracts as routes } from './preferences.routes';

export const preferencesRouter = createRouter()
  .openapi(routes.listPreferences, async (c) =>
    c.json(await c.get('services').preferences.all(c.get('principal').user.id), 200),
  )
  .openapi(routes.setPreference, async (c) => {
    const { key } = c.req.valid('param');
    const { value } = c.req.valid('json');
    return c.json(await c.get('services').preferences.set(c.get('principal').user.id, key, value), 200);
  })
  .openapi(routes.resetPreference, async (c) =>
    noContent(c, c.get('services').preferences.reset(c.get('principal').user.id, c.req.valid('param').key)),
  );
