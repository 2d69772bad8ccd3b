/** Server settings: each with its description and default, edited as JSON values, with change history. */
import { useState } from 'preact/hooks';
import { get, post, put } from '../api/client';
import type { Page, Setting, SettingHistoryEntry } from '../api/types';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { t } from '../i18n';
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

function SettingRow({ setting, onSaved }: { setting: Setting; onSaved(): void }) {
  const [text, setText] = useState(JSON.stringify(setting.value));
  const [error, setError] = useState<unknown>(null);
  const [showHistory, setShowHistory] = useState(false);
  const changed = text !== JSON.stringify(setting.value);

  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      setError(new Error(t('admin.settingJson')));
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
      setText(JSON.stringify(fresh.value));
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <form class="card form" onSubmit={save} data-setting={setting.key}>
      <label class="field">
        <span class="field__label">
          <code>{setting.key}</code> {setting.isDefault && <span class="badge">{t('admin.default')}</span>}
        </span>
        <span class="field__hint">{setting.description}</span>
        <input class="field__input" value={text} onInput={(event) => setText(event.currentTarget.value)} />
      </label>
      <ErrorMessage error={error} />
      <div class="toolbar">
        <button type="submit" class="button button--primary button--small" disabled={!changed}>
          {t('app.save')}
        </button>
        {!setting.isDefault && (
          <button type="button" class="button button--small" onClick={() => void reset()}>
            {t('admin.resetDefault', { value: JSON.stringify(setting.defaultValue) })}
          </button>
        )}
        <button type="button" class="button button--small button--ghost" onClick={() => setShowHistory(!showHistory)}>
          {t('admin.history')}
        </button>
      </div>
      {showHistory && <SettingHistory settingKey={setting.key} />}
    </form>
  );
}

function SettingHistory({ settingKey }: { settingKey: string }) {
  const history = useAsync(
    (signal) => get<Page<SettingHistoryEntry>>(`/admin/settings/${settingKey}/history`, { signal }),
    [settingKey],
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
                {new Date(entry.changedAt).toLocaleString()}: {JSON.stringify(entry.oldValue)} →{' '}
                {JSON.stringify(entry.newValue)}
                {entry.changeReason ? ` (${entry.changeReason})` : ''}
              </li>
            ))}
          </ul>
        )
      }
    </Async>
  );
}
