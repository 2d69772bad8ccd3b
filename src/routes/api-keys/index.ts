import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { createRouter } from '../../http/router';
import { toApiKeyDto, toCreatedApiKeyDto } from '../../mappers/api-key.mapper';
import { noContent } from '../handlers';
import { contracts as routes } from './api-keys.routes';

/** Every key route acts on the caller's own keys. */
const ownKeys = (c: Context<AppEnv>) => ({ keys: c.get('services').apiKeys, owner: c.get('principal') });

export const apiKeysRouter = createRouter()
  .openapi(routes.listApiKeys, async (c) => {
    const { keys, owner } = ownKeys(c);
    return c.json((await keys.list(owner)).map(toApiKeyDto), 200);
  })
  .openapi(routes.createApiKey, async (c) => {
    const { keys, owner } = ownKeys(c);
    return c.json(toCreatedApiKeyDto(await keys.create(owner, c.req.valid('json'))), 201);
  })
  .openapi(routes.getApiKey, async (c) => {
    const { keys, owner } = ownKeys(c);
    return c.json(toApiKeyDto(await keys.get(owner, c.req.valid('param').id)), 200);
  })
  .openapi(routes.updateApiKey, async (c) => {
    const { keys, owner } = ownKeys(c);
    return c.json(toApiKeyDto(await keys.update(owner, c.req.valid('param').id, c.req.valid('json'))), 200);
  })
  .openapi(routes.deleteApiKey, async (c) => {
    const { keys, owner } = ownKeys(c);
    return noContent(c, keys.delete(owner, c.req.valid('param').id));
  });
