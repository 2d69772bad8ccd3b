/**
 * The admin settings (API.md §4 Settings): a closed registry of keys, each with its value schema, default
 * and description. Below the wire schemas (settings.schema.ts) and the service that stores the values, so
 * the consumers, the schema and its type importers read one definition and need nothing else.
 */
import { z } from '@hono/zod-openapi';

interface SettingDefinition<T> {
  schema: z.ZodType<T>;
  default: T;
  description: string;
}

const define = <T>(schema: z.ZodType<T>, value: T, description: string): SettingDefinition<T> => ({
  schema,
  default: value,
  description,
});

export const SETTING_DEFINITIONS = {
  'auth.registration_enabled': define(z.boolean(), false, 'Anyone may create an account with POST /auth/register.'),
  'auth.email_verification_required': define(
    z.boolean(),
    false,
    'New registered accounts stay inactive until their e-mail address is verified.',
  ),
  'auth.session_lifetime_hours': define(z.number().int().min(1).max(8760), 24, 'Lifetime of a session token.'),
  'auth.default_role': define(z.enum(['reader', 'maintainer']), 'reader', 'Role given to self-registered users.'),
  'stats.retention_days': define(
    z.number().int().min(0).max(36_500),
    0,
    'Reading sessions that started longer ago than this many days are deleted by the hourly housekeeping; 0 keeps them.',
  ),
  'thumbnails.max_size': define(z.number().int().min(100).max(2000), 400, 'Longest side of generated thumbnails, px.'),
  'releases.default_languages': define(
    z
      .array(z.string().regex(/^[a-z]{2,3}$/, 'an ISO 639-1 code such as en'))
      .min(1)
      .max(20),
    ['en'],
    'Languages of releases announced for tracked series that name none of their own (ISO 639-1 codes).',
  ),
} satisfies Record<string, SettingDefinition<unknown>>;

export type SettingKey = keyof typeof SETTING_DEFINITIONS;

/**
 * How a setting's value is chosen, read from its schema, so a client draws a control for it (a switch, a
 * number within bounds, one of a few words) instead of asking for JSON text (issue 31 point 11).
 */
export type SettingInput =
  | { type: 'boolean' }
  | { type: 'integer'; minimum: number | null; maximum: number | null }
  | { type: 'choice'; choices: string[] }
  | { type: 'json' };

export function settingInputOf(schema: z.ZodType): SettingInput {
  if (schema instanceof z.ZodBoolean) return { type: 'boolean' };
  if (schema instanceof z.ZodNumber && schema.isInt) {
    const bound = (value: number | null) => (value === null || !Number.isFinite(value) ? null : value);
    return { type: 'integer', minimum: bound(schema.minValue), maximum: bound(schema.maxValue) };
  }
  if (schema instanceof z.ZodEnum) return { type: 'choice', choices: schema.options.map(String) };
  return { type: 'json' };
}
export type SettingValue<K extends SettingKey> = (typeof SETTING_DEFINITIONS)[K]['default'];
