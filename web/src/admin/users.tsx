/**
 * Users and roles: list, create, change role or active flag, reset a password, delete, and what each may
 * see (libraries, age restriction, sharing tags: user-access.tsx).
 */
import { useState } from 'preact/hooks';
import { del, get, post, put } from '../api/client';
import type { Library, Page, SharingTag, User } from '../api/types';
import { AsyncAdminTable } from '../components/admin-table';
import { ErrorMessage, useAsync } from '../components/async';
import { Field } from '../components/field';
import { useReloadingAction } from '../components/reloading-action';
import { t } from '../i18n';
import { currentUser } from '../state/session';
import { accessSummary, UserAccessEditor } from './user-access';

const ROLES = ['reader', 'maintainer', 'admin'] as const;

export function UsersSection() {
  const users = useAsync((signal) => get<Page<User>>('/users', { query: { pageSize: 500 }, signal }), []);
  const { error, act } = useReloadingAction(users.reload);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const editingUser = users.data?.data.find((user) => user.id === editing);
  const choices = useAsync(
    async (signal) => ({
      libraries: await get<Library[]>('/libraries', { signal }),
      tags: (await get<Page<SharingTag>>('/admin/sharing-tags', { query: { pageSize: 500 }, signal })).data,
    }),
    [],
  );

  async function create(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    await act(() =>
      post('/users', {
        username: String(form.get('username')),
        email: String(form.get('email')),
        password: String(form.get('password')),
        role: String(form.get('role')),
      }),
    );
    setCreating(false);
  }

  return (
    <div class="stack">
      <div class="toolbar">
        <button type="button" class="button button--primary" onClick={() => setCreating(!creating)}>
          {t('admin.newUser')}
        </button>
      </div>
      {creating && (
        <form class="card form" onSubmit={create} aria-label={t('admin.newUser')}>
          <Field label={t('auth.username')} name="username" required />
          <Field label={t('auth.email')} name="email" type="email" required />
          <Field label={t('auth.password')} name="password" type="password" autoComplete="new-password" required />
          <label class="field">
            <span class="field__label">{t('admin.role')}</span>
            <select class="select" name="role">
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" class="button button--primary">
            {t('app.create')}
          </button>
        </form>
      )}
      <ErrorMessage error={error} />
      {editingUser && choices.data && (
        <UserAccessEditor
          key={editingUser.id}
          user={editingUser}
          libraries={choices.data.libraries}
          tags={choices.data.tags}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            users.reload();
          }}
        />
      )}
      <AsyncAdminTable
        state={users}
        items={(page) => page.data}
        columns={[t('auth.username'), t('auth.email'), t('admin.role'), t('admin.active'), t('admin.access')]}
      >
        {(user) => (
          <tr>
            <td>{user.username}</td>
            <td>{user.email}</td>
            <td>
              <select
                class="select select--small"
                aria-label={t('admin.roleOf', { name: user.username })}
                value={user.role}
                onChange={(event) => void act(() => put(`/users/${user.id}`, { role: event.currentTarget.value }))}
              >
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {role}
                  </option>
                ))}
              </select>
            </td>
            <td>
              <input
                type="checkbox"
                aria-label={t('admin.activeOf', { name: user.username })}
                checked={user.isActive}
                onChange={(event) =>
                  void act(() => put(`/users/${user.id}`, { isActive: event.currentTarget.checked }))
                }
              />
            </td>
            <td>{user.role === 'admin' ? t('admin.allLibraries') : accessSummary(user)}</td>
            <td class="toolbar">
              {user.role !== 'admin' && (
                <button
                  type="button"
                  class="button button--small"
                  aria-expanded={editing === user.id}
                  onClick={() => setEditing(editing === user.id ? null : user.id)}
                >
                  {t('admin.access')}
                </button>
              )}
              <button
                type="button"
                class="button button--small"
                onClick={() => {
                  const password = prompt(t('admin.newPasswordFor', { name: user.username }));
                  if (password) void act(() => put(`/users/${user.id}`, { password }));
                }}
              >
                {t('admin.setPassword')}
              </button>
              {user.id !== currentUser.value?.id && (
                <button
                  type="button"
                  class="button button--small button--danger"
                  onClick={() => {
                    if (confirm(t('admin.confirmDeleteUser', { name: user.username }))) {
                      void act(() => del(`/users/${user.id}`));
                    }
                  }}
                >
                  {t('app.delete')}
                </button>
              )}
            </td>
          </tr>
        )}
      </AsyncAdminTable>
    </div>
  );
}
