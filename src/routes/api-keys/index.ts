import { toApiKeyDto, toCreatedApiKeyDto } from '../../mappers/api-key.mapper';
import { createRouter } from '../../http/router';
import * as routes from './api-keys.routes';

export const apiKeysRouter = createRouter()
  .openapi(routes.listApiKeys, async (c) => {
    const keys = await c.get('services').apiKeys.list(c.get('principal'));
    return c.json(keys.map(toApiKeyDto), 200);
  })
  .openapi(routes.createApiKey, async (c) => {
    const { record, key } = await c.get('services').apiKeys.create(c.get('principal'), c.req.valid('json'));
    return c.json(toCreatedApiKeyDto(record, key), 201);
  })
  .openapi(routes.getApiKey, async (c) => {
    const record = await c.get('services').apiKeys.get(c.get('principal'), c.req.valid('param').id);
    return c.json(toApiKeyDto(record), 200);
  })
  .openapi(routes.updateApiKey, async (c) => {
    const { id } = c.req.valid('param');
    const record = await c.get('services').apiKeys.update(c.get('principal'), id, c.req.valid('json'));
    return c.json(toApiKeyDto(record), 200);
  })
  .openapi(routes.deleteApiKey, async (c) => {
    await c.get('services').apiKeys.delete(c.get('principal'), c.req.valid('param').id);
    return c.body(null, 204);
  });
