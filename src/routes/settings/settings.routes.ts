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

const settings = contractsFor('Settings');
const ADMIN = 'SystemAdmin';
const setting = json(SettingSchema, 'The setting');

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listSettings: settings.get('/admin/settings', ADMIN, { summary: 'Every setting with its value and default (SystemAdmin)', 200: json(z.array(SettingSchema), 'All settings') }),
  getSetting: settings.get('/admin/settings/{key}', ADMIN, { summary: 'One setting (SystemAdmin)', params: SettingKeyParamSchema, 200: setting, errors: [404] }),
  updateSetting: settings.put('/admin/settings/{key}', ADMIN, { summary: 'Change one setting; the change is recorded in its history (SystemAdmin)', params: SettingKeyParamSchema, body: UpdateSettingBodySchema, 200: setting, errors: [400, 404] }),
  bulkUpdateSettings: settings.post('/admin/settings/bulk', ADMIN, { summary: 'Change several settings at once, all or nothing (SystemAdmin)', body: BulkUpdateSettingsBodySchema, 200: json(z.array(SettingSchema), 'The changed settings, in request order'), errors: [400, 404] }),
  resetSetting: settings.post('/admin/settings/{key}/reset', ADMIN, { summary: 'Put a setting back to its default (SystemAdmin)', params: SettingKeyParamSchema, 200: setting, errors: [404] }),
  getSettingHistory: settings.get('/admin/settings/{key}/history', ADMIN, { summary: 'Changes of one setting, newest first (SystemAdmin)', params: SettingKeyParamSchema, query: GetPageQuerySchema, 200: json(SettingHistoryPageSchema, 'A page of changes'), errors: [400, 404] }),
};
