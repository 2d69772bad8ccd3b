/** User preferences on the wire (API.md §4 User preferences); records use camelCase (DECISIONS.md §Names). */
import { z } from '@hono/zod-openapi';
import {
  MAX_PREFERENCE_KEY_LENGTH,
  MAX_PREFERENCE_VALUE_BYTES,
  PREFERENCE_DEFINITIONS,
  PREFERENCE_KEY_PATTERN,
  PREFERENCE_KEYS,
  type PreferenceKey,
} from './preference-definitions';

const shape = Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, PREFERENCE_DEFINITIONS[key].schema])) as {
  [K in PreferenceKey]: (typeof PREFERENCE_DEFINITIONS)[K]['schema'];
};

export const PreferencesSchema = z.object(shape).catchall(z.unknown()).openapi('UserPreferences', {
  description:
    'Every documented preference with its effective value (the default unless you set it), then every custom key you stored',
});

export const PreferenceKeyParamSchema = z.object({
  key: z
    .string()
    .max(MAX_PREFERENCE_KEY_LENGTH)
    .regex(PREFERENCE_KEY_PATTERN, 'must be dot-separated segments of letters, digits and _')
    .openapi({
      param: { name: 'key', in: 'path' },
      description: `A documented key (${PREFERENCE_KEYS.join(', ')}), whose value is validated, or any dot-separated [A-Za-z0-9_] segments up to ${MAX_PREFERENCE_KEY_LENGTH} characters (e.g. ui.theme), which hold any JSON value`,
      example: 'theme',
    }),
});

export const SetPreferenceBodySchema = z
  .strictObject({
    value: z
      .unknown()
      .refine((v) => v !== undefined, 'is required')
      .openapi({
        description: `Documented keys: validated against the key’s schema (string forms such as "true" are converted). Other keys: any JSON up to ${MAX_PREFERENCE_VALUE_BYTES} bytes`,
        example: 'dark',
      }),
  })
  .openapi('SetPreference');

export const PreferenceSchema = z
  .object({
    key: z.string(),
    value: z.unknown(),
    isDefault: z.boolean(),
    updatedAt: z.string().nullable(),
  })
  .openapi('UserPreference');
