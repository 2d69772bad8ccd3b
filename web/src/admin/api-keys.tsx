/**
 * API keys (API.md §4): create with the permissions of a preset — a reading device, an import script — or
 * chosen one by one in words (only ones the user holds; issue 31 point 11: not 28 enum names), optionally
 * narrowed to some libraries (fixed at creation: a child's tablet), the secret shown once with a copy
 * button, revoke.
 */
import { useState } from 'preact/hooks';
import { del, get, post } from '../api/client';
import type { ApiKey, CreatedApiKey, Library } from '../api/types';
import { AsyncAdminTable } from '../components/admin-table';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { Field } from '../components/field';
import { hasMessage, t } from '../i18n';
import { formatDate, formatDateTime } from '../i18n/format';

/**
 * What people make keys for. A reading app (Komga's clients, OPDS, KOReader) reads and keeps its place;
 * the import command (README) uploads into a library and scans it.
 */
const PRESETS = {
  reading: [
    'LibrariesRead',
    'SeriesRead',
    'BooksRead',
    'PagesRead',
    'ProgressRead',
    'ProgressWrite',
    'CollectionsRead',
    'ReadListsRead',
  ],
  import: ['LibrariesRead', 'LibrariesWrite'],
} as const;
type Preset = keyof typeof PRESETS | 'all' | 'custom';

/** A permission in words: "Read books", "Change libraries"; its name where the catalogue has none. */
export function permissionWords(permission: string): string {
  const key = `permission.${permission}`;
  return hasMessage(key) ? t(key) : permission;
}

export function ApiKeysSection() {
  const keys = useAsync((signal) => get<ApiKey[]>('/api-keys', { signal }), []);
  const me = useAsync((signal) => get<{ effectivePermissions: string[] }>('/auth/me', { signal }), []);
  const libraries = useAsync((signal) => get<Library[]>('/libraries', { signal }), []);
  const libraryName = (id: string) => libraries.data?.find((library) => library.id === id)?.name ?? id;
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [preset, setPreset] = useState<Preset>('reading');
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function create(event: Event) {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const held = me.data?.effectivePermissions ?? [];
    const permissions =
      preset === 'custom'
        ? form.getAll('permissions').map(String)
        : preset === 'all'
          ? []
          : PRESETS[preset].filter((permission) => held.includes(permission));
    const libraryIds = form.getAll('library_ids').map(String);
    setError(null);
    try {
      const expires = String(form.get('expires') ?? '');
      setCreated(
        await post<CreatedApiKey>('/api-keys', {
          name: String(form.get('name')),
          ...(permissions.length > 0 ? { permissions } : {}),
          ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
          ...(libraryIds.length > 0 ? { library_ids: libraryIds } : {}),
        }),
      );
      setCopied(false);
      formElement.reset();
      keys.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  async function revoke(key: ApiKey) {
    if (!confirm(t('admin.confirmRevoke', { name: key.name }))) return;
    try {
      await del(`/api-keys/${key.id}`);
      keys.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <div class="stack">
      {created && (
        <div class="card stack" role="status" data-created-key>
          <strong>{t('admin.keyOnce')}</strong>
          <div class="secret">
            <code>{created.key}</code>
            <button
              type="button"
              class="button button--small"
              onClick={() => void navigator.clipboard?.writeText(created.key).then(() => setCopied(true))}
            >
              {copied ? t('app.copied') : t('app.copy')}
            </button>
          </div>
        </div>
      )}
      <form class="card form" onSubmit={create} aria-label={t('admin.newKey')}>
        <h2>{t('admin.newKey')}</h2>
        <Field label={t('admin.keyName')} name="name" required maxLength={100} />
        <Field label={t('admin.keyExpires')} name="expires" type="date" />
        <fieldset class="field" data-key-permissions>
          <legend class="field__label">{t('admin.permissions')}</legend>
          <Async state={me}>
            {(user) => (
              <div class="stack stack--tight">
                {(['reading', 'import', 'all', 'custom'] as const).map((choice) => {
                  const lacking =
                    choice === 'reading' || choice === 'import'
                      ? PRESETS[choice].filter((permission) => !user.effectivePermissions.includes(permission))
                      : [];
                  // An import script changes a library: a key for it needs what its owner may do.
                  const usable = choice !== 'import' || lacking.length === 0;
                  return (
                    <label key={choice} class="choice">
                      <input
                        type="radio"
                        name="preset"
                        value={choice}
                        checked={preset === choice}
                        disabled={!usable}
                        onChange={() => setPreset(choice)}
                      />
                      <span>
                        <strong>{t(`admin.preset.${choice}`)}</strong>
                        <span class="field__hint"> {t(`admin.preset.${choice}.hint`)}</span>
                      </span>
                    </label>
                  );
                })}
                {preset === 'custom' && (
                  <div class="checks">
                    {user.effectivePermissions.map((permission) => (
                      <label key={permission}>
                        <input type="checkbox" name="permissions" value={permission} /> {permissionWords(permission)}
                      </label>
                    ))}
                  </div>
                )}
              </div>
            )}
          </Async>
        </fieldset>
        <fieldset class="field">
          <legend class="field__label">{t('admin.keyLibraries')}</legend>
          <p class="field__hint">{t('admin.keyLibrariesHint')}</p>
          <Async state={libraries}>
            {(list) => (
              <div class="checks">
                {list.map((library) => (
                  <label key={library.id}>
                    <input type="checkbox" name="library_ids" value={library.id} /> {library.name}
                  </label>
                ))}
              </div>
            )}
          </Async>
        </fieldset>
        <ErrorMessage error={error} />
        <button type="submit" class="button button--primary">
          {t('app.create')}
        </button>
      </form>
      <AsyncAdminTable
        state={keys}
        items={(list) => list}
        columns={[
          t('admin.keyName'),
          t('admin.keyPrefix'),
          t('admin.permissions'),
          t('admin.keyLibraries'),
          t('admin.lastUsed'),
          t('admin.keyExpiresColumn'),
        ]}
      >
        {(key) => (
          <tr key={key.id}>
            <td>{key.name}</td>
            <td>
              <code>{key.key_prefix}</code>
            </td>
            <td>{describePermissions(key.permissions)}</td>
            <td>
              {key.library_ids === null ? t('admin.keyAllLibraries') : key.library_ids.map(libraryName).join(', ')}
            </td>
            <td>{key.last_used_at ? formatDateTime(key.last_used_at) : t('admin.neverUsed')}</td>
            <td>{key.expires_at ? formatDate(key.expires_at) : t('admin.neverExpires')}</td>
            <td>
              <button type="button" class="button button--small button--danger" onClick={() => void revoke(key)}>
                {t('admin.revoke')}
              </button>
            </td>
          </tr>
        )}
      </AsyncAdminTable>
    </div>
  );
}

/** A key's permissions as its preset's name when they are exactly a preset's, else in words. */
function describePermissions(permissions: readonly string[]): string {
  const same = (preset: readonly string[]) =>
    preset.length === permissions.length && preset.every((permission) => permissions.includes(permission));
  if (permissions.length === 0) return t('admin.preset.all');
  if (same(PRESETS.reading)) return t('admin.preset.reading');
  if (same(PRESETS.import)) return t('admin.preset.import');
  return permissions.map(permissionWords).join(', ');
}
