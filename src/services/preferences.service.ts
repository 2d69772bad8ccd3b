/**
 * Per-user preferences (API.md §4 User preferences, DECISIONS.md §Settings and preferences): the
 * documented keys below have a zod value schema and a default, so clients can rely on them being
 * present with a valid value (string forms such as `"true"` are converted). Any other key made of
 * dot-separated `[A-Za-z0-9_]` segments (≤ 255 characters, as in Codex: `ui.theme`) holds any JSON
 * value up to 16 KiB, for clients that keep their own settings on the server.
 */
import type { z } from '@hono/zod-openapi';
import { badRequest, issuesToDetails } from '../lib/errors';
import { nowIso } from '../lib/ids';
import { parseTypedValue } from '../lib/string-values';
import type { PreferencesRepository } from '../repositories/preferences.repository';
import {
  MAX_FREE_FORM_PREFERENCES,
  MAX_PREFERENCE_KEY_LENGTH,
  MAX_PREFERENCE_VALUE_BYTES,
  PREFERENCE_DEFINITIONS,
  PREFERENCE_KEY_PATTERN,
  PREFERENCE_KEYS,
  type PreferenceKey,
  type Preferences,
} from '../schemas/preference-definitions';

export interface PreferenceView {
  key: string;
  value: unknown;
  isDefault: boolean;
  updatedAt: string | null;
}

const isDocumented = (key: string): key is PreferenceKey => Object.hasOwn(PREFERENCE_DEFINITIONS, key);

export class PreferencesService {
  constructor(private readonly repo: PreferencesRepository) {}

  /** Every documented key with its effective value, then the free-form keys the user stored. */
  async all(userId: string): Promise<Preferences> {
    const stored = new Map((await this.repo.listForUser(userId)).map((row) => [row.key, row.value]));
    const documented = PREFERENCE_KEYS.map((key) => [
      key,
      stored.has(key) ? stored.get(key) : PREFERENCE_DEFINITIONS[key].default,
    ]);
    const freeForm = [...stored].filter(([key]) => !isDocumented(key)).sort(([a], [b]) => (a < b ? -1 : 1));
    return Object.fromEntries([...documented, ...freeForm]) as Preferences;
  }

  /** One documented key's effective value, reading only that key (a hot path asks for one setting). */
  async value<K extends PreferenceKey>(userId: string, key: K): Promise<Preferences[K]> {
    const row = await this.repo.get(userId, key);
    return (row ? row.value : PREFERENCE_DEFINITIONS[key].default) as Preferences[K];
  }

  async set(userId: string, key: string, value: unknown): Promise<PreferenceView> {
    const checkedKey = requireWellFormed(key);
    const stored = isDocumented(checkedKey)
      ? documentedValue(checkedKey, value)
      : await this.freeFormValue(userId, checkedKey, value);
    const row = await this.repo.upsert({ userId, key: checkedKey, value: stored, updatedAt: nowIso() });
    return { key: checkedKey, value: row.value, isDefault: false, updatedAt: row.updatedAt };
  }

  /** Back to the default (documented keys) or gone (free-form keys); unknown well-formed keys are a no-op. */
  async reset(userId: string, key: string): Promise<void> {
    await this.repo.delete(userId, requireWellFormed(key));
  }

  private async freeFormValue(userId: string, key: string, value: unknown): Promise<unknown> {
    const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
    if (bytes > MAX_PREFERENCE_VALUE_BYTES) {
      throw badRequest(
        `Invalid value for preference ${key}: its JSON is ${bytes} bytes, more than ${MAX_PREFERENCE_VALUE_BYTES}`,
        [{ path: 'value', message: `must be at most ${MAX_PREFERENCE_VALUE_BYTES} bytes of JSON` }],
      );
    }
    const rows = await this.repo.listForUser(userId);
    const freeForm = rows.filter((row) => !isDocumented(row.key));
    if (freeForm.length >= MAX_FREE_FORM_PREFERENCES && !freeForm.some((row) => row.key === key)) {
      throw badRequest(`You already store ${MAX_FREE_FORM_PREFERENCES} custom preferences; delete some first`, [
        { path: 'key', message: `at most ${MAX_FREE_FORM_PREFERENCES} custom preferences per user` },
      ]);
    }
    return value;
  }
}

function documentedValue(key: PreferenceKey, value: unknown): unknown {
  const parsed = parseTypedValue(PREFERENCE_DEFINITIONS[key].schema as z.ZodType, value);
  if (!parsed.success) {
    const details = issuesToDetails(parsed.error.issues, 'value');
    throw badRequest(`Invalid value for preference ${key}: ${details[0]?.message ?? 'invalid'}`, details);
  }
  return parsed.data;
}

function requireWellFormed(key: string): string {
  if (key.length > MAX_PREFERENCE_KEY_LENGTH || !PREFERENCE_KEY_PATTERN.test(key)) {
    const message = `must be dot-separated segments of letters, digits and _ (at most ${MAX_PREFERENCE_KEY_LENGTH} characters)`;
    throw badRequest(`Invalid preference key: ${message}`, [{ path: 'key', message }]);
  }
  return key;
}
