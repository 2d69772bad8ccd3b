/** The signed-in user's account: who they are, and changing their password (PUT /auth/password). */
import { useState } from 'preact/hooks';
import { put } from '../api/client';
import { Main } from '../app';
import { ErrorMessage } from '../components/async';
import { Field } from '../components/field';
import { t } from '../i18n';
import { currentUser } from '../state/session';

export function AccountScreen() {
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const user = currentUser.value;

  async function submit(event: Event) {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    setError(null);
    setDone(false);
    if (form.get('new_password') !== form.get('repeat')) {
      setError(new Error(t('auth.passwordMismatch')));
      return;
    }
    setBusy(true);
    try {
      await put('/auth/password', {
        current_password: String(form.get('current_password')),
        new_password: String(form.get('new_password')),
      });
      formElement.reset();
      setDone(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Main>
      <h1>{t('nav.account')}</h1>
      {user && (
        <p>
          <strong>{user.username}</strong> · {user.email} · {user.role}
        </p>
      )}
      <form class="card form narrow" onSubmit={submit}>
        <h2>{t('auth.changePassword')}</h2>
        <Field
          label={t('auth.currentPassword')}
          name="current_password"
          type="password"
          autoComplete="current-password"
          required
        />
        <Field
          label={t('auth.newPassword')}
          name="new_password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
        />
        <Field label={t('auth.passwordRepeat')} name="repeat" type="password" autoComplete="new-password" required />
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
