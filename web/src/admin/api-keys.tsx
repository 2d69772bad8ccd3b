/**
 * API keys (API.md §4): create with chosen permissions (only ones the user holds), optionally narrowed to
 * some libraries (fixed at creation: a child's tablet), the secret shown once with a copy button, revoke.
 */
import { useState } from 'preact/hooks';
import { del, get, post } from '../api/client';
import type { ApiKey, CreatedApiKey, Library } from '../api/types';
import { AsyncAdminTable } from '../components/admin-table';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { Field } from '../components/field';
import { t } from '../i18n';

export function ApiKeysSection() {
  const keys = useAsync((signal) => get<ApiKey[]>('/api-keys', { signal }), []);
  const me = useAsync((signal) => get<{ effectivePermissions: string[] }>('/auth/me', { signal }), []);
  const libraries = useAsync((signal) => get<Library[]>('/libraries', { signal }), []);
  const libraryName = (id: string) => libraries.data?.find((library) => library.id === id)?.name ?? id;
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function create(event: Event) {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const permissions = form.getAll('permissions').map(String);
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
        <fieldset class="field">
          <legend class="field__label">{t('admin.permissions')}</legend>
          <p class="field__hint">{t('admin.permissionsHint')}</p>
          <Async state={me}>
            {(user) => (
              <div class="checks">
                {user.effectivePermissions.map((permission) => (
                  <label key={permission}>
                    <input type="checkbox" name="permissions" value={permission} /> {permission}
                  </label>
                ))}
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
        ]}
      >
        {(key) => (
          <tr key={key.id}>
            <td>{key.name}</td>
            <td>
              <code>{key.key_prefix}</code>
            </td>
            <td>{key.permissions.join(', ')}</td>
            <td>
              {key.library_ids === null ? t('admin.keyAllLibraries') : key.library_ids.map(libraryName).join(', ')}
            </td>
            <td>{key.last_used_at ?? '—'}</td>
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
