/** Admin settings on the wire (API.md §4 Settings, DECISIONS.md §Lists bulk body); records use camelCase. */
import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { pageEnvelopeSchema } from '../lib/pagination';
import { SETTING_DEFINITIONS } from './setting-definitions';

const KEYS = Object.keys(SETTING_DEFINITIONS);

export const SettingSchema = z
  .object({
    key: z.string(),
    value: z.unknown(),
    defaultValue: z.unknown(),
    isDefault: z.boolean(),
    description: z.string(),
    input: z
      .discriminatedUnion('type', [
        z.object({ type: z.literal('boolean') }),
        z.object({ type: z.literal('integer'), minimum: z.number().nullable(), maximum: z.number().nullable() }),
        z.object({ type: z.literal('choice'), choices: z.array(z.string()) }),
        z.object({ type: z.literal('json') }),
      ])
      .openapi('SettingInput', {
        description: 'How the value is chosen: a switch, a whole number within bounds, one of some words, or JSON',
      }),
    updatedAt: z.string().nullable(),
    updatedBy: z.string().nullable().openapi({ description: 'Id of the user who last changed it' }),
  })
  .openapi('Setting');

export const SettingKeyParamSchema = z.object({
  key: z.string().openapi({
    param: { name: 'key', in: 'path' },
    description: `One of: ${KEYS.join(', ')}`,
    example: 'auth.registration_enabled',
  }),
});

const ValueSchema = z
  .unknown()
  .refine((v) => v !== undefined, 'is required')
  .openapi({ description: 'Validated against the setting’s own schema', example: true });
const ChangeReasonSchema = z.string().trim().max(500).optional();

export const UpdateSettingBodySchema = acceptTwins(
  z.strictObject({ value: ValueSchema, changeReason: ChangeReasonSchema }),
).openapi('UpdateSetting');

export const BulkUpdateSettingsBodySchema = acceptTwins(
  z.strictObject({
    updates: z
      .array(z.strictObject({ key: z.string(), value: ValueSchema }))
      .min(1, 'must contain at least one update')
      .max(KEYS.length, `must contain at most ${KEYS.length} updates`),
    changeReason: ChangeReasonSchema,
  }),
).openapi('BulkUpdateSettings', { description: 'All or nothing: one unknown key or invalid value changes nothing' });

export const SettingHistoryEntrySchema = z
  .object({
    id: z.uuid(),
    key: z.string(),
    oldValue: z.unknown(),
    newValue: z.unknown(),
    changedBy: z.string().nullable(),
    changeReason: z.string().nullable(),
    changedAt: z.string(),
  })
  .openapi('SettingHistoryEntry');

export const SettingHistoryPageSchema = pageEnvelopeSchema(SettingHistoryEntrySchema, 'SettingHistoryPage');
