/**
 * Server settings: each with its name and description, chosen with the control its kind asks for (a switch,
 * a whole number, one of some words; issue 31 point 11: not a key and JSON text), its default and history.
 */
import { useState } from 'preact/hooks';
import { get, post, put } from '../api/client';
import type { Page, Setting, SettingHistoryEntry } from '../api/types';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { formatDateTime } from '../i18n/format';
import { hasMessage, t } from '../i18n';
import { SingleSignOnSummary } from './single-sign-on';

export function SettingsSection() {
  const settings = useAsync((signal) => get<Setting[]>('/admin/settings', { signal }), []);
  return (
    <Async state={settings}>
      {(list) => (
        <div class="stack">
          <SingleSignOnSummary />
          {list.map((setting) => (
            <SettingRow key={setting.key} setting={setting} onSaved={settings.reload} />
          ))}
        </div>
      )}
    </Async>
  );
}

/** A setting's value as its control holds it: a switch's state, or the text of a field. */
type Draft = boolean | string;

const draftOf = (setting: Setting, value: unknown): Draft =>
  setting.input.type === 'boolean'
    ? value === true
    : setting.input.type === 'json'
      ? JSON.stringify(value)
      : String(value ?? '');

/** The value a control's draft stands for, or an Error in people's words. */
function settingValueOf(setting: Setting, draft: Draft): unknown {
  const { input } = setting;
  if (input.type === 'boolean') return draft === true;
  if (input.type === 'choice') return draft;
  if (input.type === 'integer') {
    const number = Number(draft);
    if (String(draft).trim() === '' || !Number.isInteger(number)) {
      return new Error(t('error.wholeNumber', { field: settingLabel(setting) }));
    }
    return number;
  }
  try {
    return JSON.parse(String(draft));
  } catch {
    return new Error(t('admin.settingJson'));
  }
}

/** The setting's name for people: the catalogue's, else its key. */
function settingLabel(setting: Setting): string {
  const key = `setting.${setting.key}`;
  return hasMessage(key) ? t(key) : setting.key;
}

/** A value as people read it: yes or no, a role's word, a number with its unit. */
function shown(setting: Setting, value: unknown): string {
  if (setting.input.type === 'boolean') return value ? t('app.yes') : t('app.no');
  if (setting.input.type === 'choice') {
    const key = `setting.choice.${String(value)}`;
    return hasMessage(key) ? t(key) : String(value);
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function SettingRow({ setting, onSaved }: { setting: Setting; onSaved(): void }) {
  const [draft, setDraft] = useState<Draft>(draftOf(setting, setting.value));
  const [error, setError] = useState<unknown>(null);
  const [showHistory, setShowHistory] = useState(false);
  const changed = draft !== draftOf(setting, setting.value);
  const id = `setting-${setting.key.replace(/\W/g, '-')}`;
  const { input } = setting;

  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    const value = settingValueOf(setting, draft);
    if (value instanceof Error) {
      setError(value);
      return;
    }
    try {
      await put(`/admin/settings/${setting.key}`, { value });
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  async function reset() {
    setError(null);
    try {
      const fresh = await post<Setting>(`/admin/settings/${setting.key}/reset`);
      setDraft(draftOf(setting, fresh.value));
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  const range =
    input.type === 'integer' && input.minimum !== null && input.maximum !== null
      ? ` ${t('admin.settingRange', { min: input.minimum, max: input.maximum })}`
      : '';
  const hint = (
    <span class="field__hint">
      {setting.description}
      {range}
    </span>
  );
  return (
    <form class="card form" onSubmit={save} data-setting={setting.key}>
      {input.type === 'boolean' ? (
        <label class="field field--switch">
          <span class="switch-row">
            <input
              id={id}
              type="checkbox"
              checked={draft === true}
              onChange={(event) => setDraft(event.currentTarget.checked)}
            />
            <span class="field__label">{settingLabel(setting)}</span>
            {setting.isDefault && <span class="badge">{t('admin.default')}</span>}
          </span>
          {hint}
        </label>
      ) : (
        <div class="field">
          <label class="field__label" for={id}>
            {settingLabel(setting)} {setting.isDefault && <span class="badge">{t('admin.default')}</span>}
          </label>
          {hint}
          {input.type === 'choice' ? (
            <select
              id={id}
              class="select"
              value={String(draft)}
              onChange={(event) => setDraft(event.currentTarget.value)}
            >
              {input.choices.map((choice) => (
                <option key={choice} value={choice}>
                  {shown(setting, choice)}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={id}
              class="field__input field__input--narrow"
              inputMode={input.type === 'integer' ? 'numeric' : undefined}
              value={String(draft)}
              onInput={(event) => setDraft(event.currentTarget.value)}
            />
          )}
        </div>
      )}
      <ErrorMessage error={error} />
      <div class="toolbar">
        <button type="submit" class="button button--primary button--small" disabled={!changed}>
          {t('app.save')}
        </button>
        {!setting.isDefault && (
          <button type="button" class="button button--small" onClick={() => void reset()}>
            {t('admin.resetDefault', { value: shown(setting, setting.defaultValue) })}
          </button>
        )}
        <button type="button" class="button button--small button--ghost" onClick={() => setShowHistory(!showHistory)}>
          {t('admin.history')}
        </button>
      </div>
      {showHistory && <SettingHistory setting={setting} />}
    </form>
  );
}

function SettingHistory({ setting }: { setting: Setting }) {
  const history = useAsync(
    (signal) => get<Page<SettingHistoryEntry>>(`/admin/settings/${setting.key}/history`, { signal }),
    [setting.key],
  );
  return (
    <Async state={history}>
      {(page) =>
        page.data.length === 0 ? (
          <p class="muted">{t('admin.noHistory')}</p>
        ) : (
          <ul>
            {page.data.map((entry) => (
              <li key={entry.id}>
                {formatDateTime(entry.changedAt)}: {shown(setting, entry.oldValue)} → {shown(setting, entry.newValue)}
                {entry.changeReason ? ` (${entry.changeReason})` : ''}
              </li>
            ))}
          </ul>
        )
      }
    </Async>
  );
}
