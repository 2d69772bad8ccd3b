/**
 * The signed-in user's account: who they are, their linked sign-ins, and changing their password
 * (PUT /auth/password).
 */
import { useState } from 'preact/hooks';
import { put } from '../api/client';
import { Main } from '../components/page-main';
import { ErrorMessage } from '../components/async';
import { checkRepeat, NewPasswordFields } from '../components/account-fields';
import { Field } from '../components/field';
import { useFormAction } from '../components/form-action';
import { t } from '../i18n';
import { currentUser } from '../state/session';
import { LinkedIdentities } from './linked-identities';

export function AccountScreen() {
  const [done, setDone] = useState(false);
  const user = currentUser.value;

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
    <Main>
      <h1>{t('nav.account')}</h1>
      {user && (
        <p>
          <strong>{user.username}</strong> · {user.email} · {user.role}
        </p>
      )}
      <LinkedIdentities />
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
    </Main>
  );
}
