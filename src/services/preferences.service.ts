/**
 * Per-user preferences (API.md §4 User preferences): a closed registry of keys, each with a zod value
 * schema and a default, so clients can rely on every key being present with a valid value.
 */
import { z } from '@hono/zod-openapi';
import { badRequest, issuesToDetails, notFound } from '../lib/errors';
import { nowIso } from '../lib/ids';
import type { PreferencesRepository } from '../repositories/preferences.repository';

interface PreferenceDefinition<T> {
  schema: z.ZodType<T>;
  default: T;
}

const define = <T>(schema: z.ZodType<T>, value: T): PreferenceDefinition<T> => ({ schema, default: value });

export const PREFERENCE_DEFINITIONS = {
  theme: define(z.enum(['system', 'light', 'dark']), 'system'),
  /** A BCP 47 language tag such as `en`, `pt-BR` or `zh-Hant-TW`. */
  language: define(
    z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or pt-BR'),
    'en',
  ),
  /** null: follow the series' own reading direction. */
  'reader.direction_override': define(z.enum(['ltr', 'rtl', 'ttb', 'webtoon']).nullable(), null),
  'reader.fit': define(z.enum(['width', 'height', 'original']), 'width'),
  'reader.double_page': define(z.boolean(), false),
  /** DECISIONS.md §Reader apps: pages fetched through OPDS page streaming advance progress; false for apps that prefetch whole books. */
  'opds.pse_progress': define(z.boolean(), true),
} satisfies Record<string, PreferenceDefinition<unknown>>;

export type PreferenceKey = keyof typeof PREFERENCE_DEFINITIONS;
export type Preferences = { [K in PreferenceKey]: (typeof PREFERENCE_DEFINITIONS)[K]['default'] };
export const PREFERENCE_KEYS = Object.keys(PREFERENCE_DEFINITIONS) as PreferenceKey[];

export interface PreferenceView {
  key: PreferenceKey;
  value: unknown;
  isDefault: boolean;
  updatedAt: string | null;
}

const isKey = (key: string): key is PreferenceKey => Object.hasOwn(PREFERENCE_DEFINITIONS, key);

export class PreferencesService {
  constructor(private readonly repo: PreferencesRepository) {}

  /** Every known key with its effective value; stored keys the registry no longer knows are ignored. */
  async all(userId: string): Promise<Preferences> {
    const stored = new Map((await this.repo.listForUser(userId)).map((row) => [row.key, row.value]));
    return Object.fromEntries(
      PREFERENCE_KEYS.map((key) => [key, stored.has(key) ? stored.get(key) : PREFERENCE_DEFINITIONS[key].default]),
    ) as Preferences;
  }

  async set(userId: string, key: string, value: unknown): Promise<PreferenceView> {
    const known = requireKey(key);
    const parsed = (PREFERENCE_DEFINITIONS[known].schema as z.ZodType).safeParse(value);
    if (!parsed.success) {
      const details = issuesToDetails(parsed.error.issues, 'value');
      throw badRequest(`Invalid value for preference ${known}: ${details[0]?.message ?? 'invalid'}`, details);
    }
    const row = await this.repo.upsert({ userId, key: known, value: parsed.data, updatedAt: nowIso() });
    return { key: known, value: row.value, isDefault: false, updatedAt: row.updatedAt };
  }

  async reset(userId: string, key: string): Promise<void> {
    await this.repo.delete(userId, requireKey(key));
  }
}

function requireKey(key: string): PreferenceKey {
  if (!isKey(key)) throw notFound(`Preference ${key}`);
  return key;
}
