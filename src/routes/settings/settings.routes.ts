import { z } from '@hono/zod-openapi';
import { GetPageQuerySchema } from '../../lib/pagination';
import {
  BulkUpdateSettingsBodySchema,
  SettingHistoryPageSchema,
  SettingKeyParamSchema,
  SettingSchema,
  UpdateSettingBodySchema,
} from '../../schemas/settings.schema';
import { contractsFor, json } from '../contract';

const route = contractsFor('Settings');
const ADMIN = 'SystemAdmin';
const setting = { 200: json(SettingSchema, 'The setting') };

export const listSettings = route.get('/admin/settings', ADMIN, {
  summary: 'Every setting with its value and default (SystemAdmin)',
  responses: { 200: json(z.array(SettingSchema), 'All settings') },
});
export const getSetting = route.get('/admin/settings/{key}', ADMIN, {
  summary: 'One setting (SystemAdmin)',
  params: SettingKeyParamSchema,
  responses: setting,
  errors: [404],
});
export const updateSetting = route.put('/admin/settings/{key}', ADMIN, {
  summary: 'Change one setting; the change is recorded in its history (SystemAdmin)',
  params: SettingKeyParamSchema,
  body: UpdateSettingBodySchema,
  responses: setting,
  errors: [400, 404],
});
export const bulkUpdateSettings = route.post('/admin/settings/bulk', ADMIN, {
  summary: 'Change several settings at once, all or nothing (SystemAdmin)',
  body: BulkUpdateSettingsBodySchema,
  responses: { 200: json(z.array(SettingSchema), 'The changed settings, in request order') },
  errors: [400, 404],
});
export const resetSetting = route.post('/admin/settings/{key}/reset', ADMIN, {
  summary: 'Put a setting back to its default (SystemAdmin)',
  params: SettingKeyParamSchema,
  responses: setting,
  errors: [404],
});
export const getSettingHistory = route.get('/admin/settings/{key}/history', ADMIN, {
  summary: 'Changes of one setting, newest first (SystemAdmin)',
  params: SettingKeyParamSchema,
  query: GetPageQuerySchema,
  responses: { 200: json(SettingHistoryPageSchema, 'A page of changes') },
  errors: [400, 404],
});
