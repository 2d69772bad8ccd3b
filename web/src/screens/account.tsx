/**
 * The signed-in user's account: who they are, their linked sign-ins, changing their password
 * (PUT /auth/password) — offered only to an account that has one (`GET /auth/me`'s `hasPassword`): one
 * that single sign-on created signs in through its provider instead — and their own API keys, one per
 * reading device (README "Reader apps"), for every user who may hold keys, not only admins.
 */
import { useState } from 'preact/hooks';
import { get, put } from '../api/client';
import { Main } from '../components/page-main';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { checkRepeat, NewPasswordFields } from '../components/account-fields';
import { Field } from '../components/field';
import { useFormAction } from '../components/form-action';
import { ApiKeysSection } from '../admin/api-keys';
import { t } from '../i18n';
import { currentUser } from '../state/session';
import { LinkedIdentities } from './linked-identities';

export function AccountScreen() {
  const user = currentUser.value;
  const me = useAsync(
    (signal) => get<{ hasPassword: boolean; effectivePermissions: string[] }>('/auth/me', { signal }),
    [],
  );

  return (
    <Main title={t('nav.account')}>
      <h1>{t('nav.account')}</h1>
      {user && (
        <p>
          <strong>{user.username}</strong> · {user.email} · {user.role}
        </p>
      )}
      <LinkedIdentities />
      <Async state={me}>
        {({ hasPassword }) =>
          hasPassword ? (
            <ChangePasswordForm />
          ) : (
            <section class="card form narrow" data-no-password>
              <h2>{t('auth.password')}</h2>
              <p class="muted">{t('account.noPassword')}</p>
            </section>
          )
        }
      </Async>
      <Async state={me}>
        {({ effectivePermissions }) =>
          effectivePermissions.includes('ApiKeysRead') && (
            <section class="stack" aria-label={t('admin.apiKeys')}>
              <h2>{t('admin.apiKeys')}</h2>
              <ApiKeysSection />
            </section>
          )
        }
      </Async>
    </Main>
  );
}

function ChangePasswordForm() {
  const [done, setDone] = useState(false);
  const { error, busy, onSubmit } = useFormAction(async (form, element) => {
    setDone(false);
    checkRepeat(form, 'new_password');
    await put('/auth/password', {
      current_password: String(form.get('current_password')),
      new_password: String(form.get('new_password')),
    });
    element.reset();
    setDone(true);
  });

  return (
    <form class="card form narrow" onSubmit={onSubmit}>
      <h2>{t('auth.changePassword')}</h2>
      <Field
        label={t('auth.currentPassword')}
        name="current_password"
        type="password"
        autoComplete="current-password"
        required
      />
      <NewPasswordFields name="new_password" label={t('auth.newPassword')} />
      <ErrorMessage error={error} />
      {done && (
        <p class="notice" role="status">
          {t('auth.passwordChanged')}
        </p>
      )}
      <button class="button button--primary" type="submit" disabled={busy}>
        {t('auth.changePassword')}
      </button>
    </form>
  );
}
