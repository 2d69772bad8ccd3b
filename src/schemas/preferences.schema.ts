/** User preferences on the wire (API.md §4 User preferences); records use camelCase (DECISIONS.md §Names). */
import { z } from '@hono/zod-openapi';
import { PREFERENCE_DEFINITIONS, PREFERENCE_KEYS, type PreferenceKey } from '../services/preferences.service';

const shape = Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, PREFERENCE_DEFINITIONS[key].schema])) as {
  [K in PreferenceKey]: (typeof PREFERENCE_DEFINITIONS)[K]['schema'];
};

export const PreferencesSchema = z.object(shape).openapi('UserPreferences', {
  description: 'Every known preference with its effective value (the default unless you set it)',
});

export const PreferenceKeyParamSchema = z.object({
  key: z.string().openapi({
    param: { name: 'key', in: 'path' },
    description: `One of: ${PREFERENCE_KEYS.join(', ')}`,
    example: 'theme',
  }),
});

export const SetPreferenceBodySchema = z
  .strictObject({
    value: z
      .unknown()
      .refine((v) => v !== undefined, 'is required')
      .openapi({ description: 'Validated against the key’s own schema', example: 'dark' }),
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
