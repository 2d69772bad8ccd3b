import { createRoute, z } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, jsonBody, jsonContent } from '../../lib/openapi-responses';
import { authenticate } from '../../middleware/authenticate';
import {
  ApiKeySchema,
  CreateApiKeyBodySchema,
  CreatedApiKeySchema,
  UpdateApiKeyBodySchema,
} from '../../schemas/api-key.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';

const tags = ['API keys'];
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];

export const listApiKeys = createRoute({
  method: 'get',
  path: '/api-keys',
  tags,
  security,
  summary: 'Your API keys, newest first, never with the secret (ApiKeysRead)',
  middleware: [authenticate('ApiKeysRead')] as const,
  responses: { 200: jsonContent(z.array(ApiKeySchema), 'Your keys'), ...errorResponses(...AUTH_ERRORS) },
});

export const createApiKey = createRoute({
  method: 'post',
  path: '/api-keys',
  tags,
  security,
  summary: 'Create an API key (ApiKeysWrite); the full key appears only in this response',
  description:
    'Permissions omitted: the key gets your full effective permissions. Asking for one you do not hold is a 403 ' +
    'naming it. At request time the key is limited to what you still hold.',
  middleware: [authenticate('ApiKeysWrite')] as const,
  request: { body: jsonBody(CreateApiKeyBodySchema) },
  responses: { 201: jsonContent(CreatedApiKeySchema, 'The new key'), ...errorResponses(400, ...AUTH_ERRORS) },
});

export const getApiKey = createRoute({
  method: 'get',
  path: '/api-keys/{id}',
  tags,
  security,
  summary: 'One of your API keys (ApiKeysRead)',
  middleware: [authenticate('ApiKeysRead')] as const,
  request: { params: IdParamSchema },
  responses: { 200: jsonContent(ApiKeySchema, 'The key'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const updateApiKey = createRoute({
  method: 'put',
  path: '/api-keys/{id}',
  tags,
  security,
  summary: 'Rename a key, change its permissions or expiry (ApiKeysWrite)',
  middleware: [authenticate('ApiKeysWrite')] as const,
  request: { params: IdParamSchema, body: jsonBody(UpdateApiKeyBodySchema) },
  responses: { 200: jsonContent(ApiKeySchema, 'The updated key'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const deleteApiKey = createRoute({
  method: 'delete',
  path: '/api-keys/{id}',
  tags,
  security,
  summary: 'Revoke a key; it is rejected from the next request on (ApiKeysDelete)',
  middleware: [authenticate('ApiKeysDelete')] as const,
  request: { params: IdParamSchema },
  responses: { 204: { description: 'Revoked' }, ...errorResponses(400, ...AUTH_ERRORS, 404) },
});
