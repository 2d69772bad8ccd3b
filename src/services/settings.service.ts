/**
 * Admin settings (API.md §4 Settings): a closed registry of keys, each with a zod value schema and a
 * default. Only values that differ from the default are stored; every change is recorded in history.
 * Values may come in the string form Codex clients send (`"true"`, `"25"`), converted to the type.
 */
import type { z } from '@hono/zod-openapi';
import { badRequest, issuesToDetails, notFound } from '../lib/errors';
import { nowIso } from '../lib/ids';
import { parseTypedValue } from '../lib/string-values';
import type { SettingChange, SettingRow, SettingsRepository } from '../repositories/settings.repository';
import {
  SETTING_DEFINITIONS,
  type SettingInput,
  type SettingKey,
  type SettingValue,
  settingInputOf,
} from '../schemas/setting-definitions';

export interface SettingView {
  key: SettingKey;
  value: unknown;
  defaultValue: unknown;
  isDefault: boolean;
  description: string;
  input: SettingInput;
  updatedAt: string | null;
  updatedBy: string | null;
}

const byKey = (rows: SettingRow[]) =>
  new Map(rows.map((r) => [r.key, { value: r.value as unknown, updatedAt: r.updatedAt, updatedBy: r.updatedBy }]));

const isKey = (key: string): key is SettingKey => Object.hasOwn(SETTING_DEFINITIONS, key);

export class SettingsService {
  private cache: Map<string, { value: unknown; updatedAt: string; updatedBy: string | null }> | undefined;

  constructor(private readonly repo: SettingsRepository) {}

  private async stored() {
    this.cache ??= byKey(await this.repo.all());
    return this.cache;
  }

  /**
   * The stored settings as a statement read with others just now (a login reads them with the account,
   * sign-in.repository.ts): this request then reads them no more.
   */
  prime(rows: SettingRow[]): void {
    this.cache ??= byKey(rows);
  }

  async value<K extends SettingKey>(key: K): Promise<SettingValue<K>> {
    const row = (await this.stored()).get(key);
    return (row ? row.value : SETTING_DEFINITIONS[key].default) as SettingValue<K>;
  }

  async list(): Promise<SettingView[]> {
    const stored = await this.stored();
    return (Object.keys(SETTING_DEFINITIONS) as SettingKey[]).map((key) => this.view(key, stored.get(key)));
  }

  async get(key: string): Promise<SettingView> {
    const known = this.requireKey(key);
    return this.view(known, (await this.stored()).get(known));
  }

  async update(updates: Array<{ key: string; value: unknown }>, changedBy: string, changeReason?: string | null) {
    const stored = await this.stored();
    const at = nowIso();
    const changes: SettingChange[] = updates.map(({ key, value }) => {
      const known = this.requireKey(key);
      const definition = SETTING_DEFINITIONS[known];
      const parsed = parseTypedValue(definition.schema as z.ZodType, value);
      if (!parsed.success) {
        const details = issuesToDetails(parsed.error.issues, `${known}`);
        throw badRequest(`Invalid value for setting ${known}: ${details[0]?.message ?? 'invalid'}`, details);
      }
      const oldValue = stored.get(known)?.value ?? definition.default;
      const isDefault = JSON.stringify(parsed.data) === JSON.stringify(definition.default);
      return {
        key: known,
        oldValue,
        newValue: parsed.data,
        stored: isDefault ? null : parsed.data,
        changedBy,
        changeReason: changeReason ?? null,
        at,
      };
    });
    const keys = changes.map((c) => c.key);
    if (new Set(keys).size !== keys.length) throw badRequest('Each setting may appear only once in a bulk update');
    await this.repo.apply(changes);
    this.cache = undefined;
    return Promise.all(keys.map((k) => this.get(k)));
  }

  async reset(key: string, changedBy: string): Promise<SettingView> {
    const known = this.requireKey(key);
    const [view] = await this.update([{ key: known, value: SETTING_DEFINITIONS[known].default }], changedBy, 'reset');
    return view as SettingView;
  }

  /** Newest first, with the total for the paginated envelope. */
  async history(key: string, offset: number, limit: number) {
    const known = this.requireKey(key);
    const [items, total] = await Promise.all([this.repo.history(known, offset, limit), this.repo.countHistory(known)]);
    return { items, total };
  }

  private requireKey(key: string): SettingKey {
    if (!isKey(key)) throw notFound(`Setting ${key}`);
    return key;
  }

  private view(
    key: SettingKey,
    row: { value: unknown; updatedAt: string; updatedBy: string | null } | undefined,
  ): SettingView {
    const definition = SETTING_DEFINITIONS[key];
    return {
      key,
      value: row ? row.value : definition.default,
      defaultValue: definition.default,
      isDefault: !row,
      description: definition.description,
      input: settingInputOf(definition.schema),
      updatedAt: row?.updatedAt ?? null,
      updatedBy: row?.updatedBy ?? null,
    };
  }
}
