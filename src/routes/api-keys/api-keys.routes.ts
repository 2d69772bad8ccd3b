import { z } from '@hono/zod-openapi';
import {
  ApiKeySchema,
  CreateApiKeyBodySchema,
  CreatedApiKeySchema,
  UpdateApiKeyBodySchema,
} from '../../schemas/api-key.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { contractsFor, empty, json } from '../contract';

const keys = contractsFor('API keys');
const CREATE =
  'Permissions omitted: the key gets your full effective permissions. Asking for one you do not hold is a 403 ' +
  'naming it. At request time the key is limited to what you still hold.';

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listApiKeys: keys.get('/api-keys', 'ApiKeysRead', { summary: 'Your API keys, newest first, never with the secret (ApiKeysRead)', 200: json(z.array(ApiKeySchema), 'Your keys') }),
  createApiKey: keys.post('/api-keys', 'ApiKeysWrite', { summary: 'Create an API key (ApiKeysWrite); the full key appears only in this response', description: CREATE, body: CreateApiKeyBodySchema, 201: json(CreatedApiKeySchema, 'The new key'), errors: [400] }),
  getApiKey: keys.get('/api-keys/{id}', 'ApiKeysRead', { summary: 'One of your API keys (ApiKeysRead)', params: IdParamSchema, 200: json(ApiKeySchema, 'The key'), errors: [400, 404] }),
  updateApiKey: keys.put('/api-keys/{id}', 'ApiKeysWrite', { summary: 'Rename a key, change its permissions or expiry (ApiKeysWrite)', params: IdParamSchema, body: UpdateApiKeyBodySchema, 200: json(ApiKeySchema, 'The updated key'), errors: [400, 404] }),
  deleteApiKey: keys.delete('/api-keys/{id}', 'ApiKeysDelete', { summary: 'Revoke a key; it is rejected from the next request on (ApiKeysDelete)', params: IdParamSchema, 204: empty('Revoked'), errors: [400, 404] }),
};
