import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent } from '../../lib/openapi-responses';
import { authenticate } from '../../middleware/authenticate';
import {
  PreferenceKeyParamSchema,
  PreferenceSchema,
  PreferencesSchema,
  SetPreferenceBodySchema,
} from '../../schemas/preferences.schema';

const tags = ['User preferences'];
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];

export const listPreferences = createRoute({
  method: 'get',
  path: '/user/preferences',
  tags,
  security,
  summary: 'Your preferences: every documented key with its effective value, and your custom keys',
  middleware: [authenticate()] as const,
  responses: { 200: jsonContent(PreferencesSchema, 'Your preferences'), ...errorResponses(401) },
});

export const setPreference = createRoute({
  method: 'put',
  path: '/user/preferences/{key}',
  tags,
  security,
  summary: 'Set one of your preferences',
  middleware: [authenticate()] as const,
  request: { params: PreferenceKeyParamSchema, body: jsonBody(SetPreferenceBodySchema) },
  responses: { 200: jsonContent(PreferenceSchema, 'The stored preference'), ...errorResponses(400, 401) },
});

export const resetPreference = createRoute({
  method: 'delete',
  path: '/user/preferences/{key}',
  tags,
  security,
  summary: 'Reset one of your preferences to its default',
  middleware: [authenticate()] as const,
  request: { params: PreferenceKeyParamSchema },
  responses: { 204: { description: 'Back to the default (custom keys: removed)' }, ...errorResponses(400, 401) },
});
