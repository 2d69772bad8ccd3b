import { createRoute, z } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, jsonBody, jsonContent } from '../../lib/openapi-responses';
import { GetPageQuerySchema } from '../../lib/pagination';
import { authenticate } from '../../middleware/authenticate';
import {
  BulkUpdateSettingsBodySchema,
  SettingHistoryPageSchema,
  SettingKeyParamSchema,
  SettingSchema,
  UpdateSettingBodySchema,
} from '../../schemas/settings.schema';

const tags = ['Settings'];
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];
const requireAdmin = authenticate('SystemAdmin');

export const listSettings = createRoute({
  method: 'get',
  path: '/admin/settings',
  tags,
  security,
  middleware: [requireAdmin] as const,
  summary: 'Every setting with its value and default (SystemAdmin)',
  responses: { 200: jsonContent(z.array(SettingSchema), 'All settings'), ...errorResponses(...AUTH_ERRORS) },
});

export const getSetting = createRoute({
  method: 'get',
  path: '/admin/settings/{key}',
  tags,
  security,
  middleware: [requireAdmin] as const,
  summary: 'One setting (SystemAdmin)',
  request: { params: SettingKeyParamSchema },
  responses: { 200: jsonContent(SettingSchema, 'The setting'), ...errorResponses(...AUTH_ERRORS, 404) },
});

export const updateSetting = createRoute({
  method: 'put',
  path: '/admin/settings/{key}',
  tags,
  security,
  middleware: [requireAdmin] as const,
  summary: 'Change one setting; the change is recorded in its history (SystemAdmin)',
  request: { params: SettingKeyParamSchema, body: jsonBody(UpdateSettingBodySchema) },
  responses: { 200: jsonContent(SettingSchema, 'The setting'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const bulkUpdateSettings = createRoute({
  method: 'post',
  path: '/admin/settings/bulk',
  tags,
  security,
  middleware: [requireAdmin] as const,
  summary: 'Change several settings at once, all or nothing (SystemAdmin)',
  request: { body: jsonBody(BulkUpdateSettingsBodySchema) },
  responses: {
    200: jsonContent(z.array(SettingSchema), 'The changed settings, in request order'),
    ...errorResponses(400, ...AUTH_ERRORS, 404),
  },
});

export const resetSetting = createRoute({
  method: 'post',
  path: '/admin/settings/{key}/reset',
  tags,
  security,
  middleware: [requireAdmin] as const,
  summary: 'Put a setting back to its default (SystemAdmin)',
  request: { params: SettingKeyParamSchema },
  responses: { 200: jsonContent(SettingSchema, 'The setting'), ...errorResponses(...AUTH_ERRORS, 404) },
});

export const getSettingHistory = createRoute({
  method: 'get',
  path: '/admin/settings/{key}/history',
  tags,
  security,
  middleware: [requireAdmin] as const,
  summary: 'Changes of one setting, newest first (SystemAdmin)',
  request: { params: SettingKeyParamSchema, query: GetPageQuerySchema },
  responses: {
    200: jsonContent(SettingHistoryPageSchema, 'A page of changes'),
    ...errorResponses(400, ...AUTH_ERRORS, 404),
  },
});
