/** Creating an account, when the server allows registration (setting auth.registration_enabled). */
import { useState } from 'preact/hooks';
import { post } from '../api/client';
import { Main } from '../app';
import { ErrorMessage } from '../components/async';
import { Field } from '../components/field';
import { t } from '../i18n';
import { navigate } from '../state/navigation';

export function RegisterScreen() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setError(null);
    if (form.get('password') !== form.get('repeat')) {
      setError(new Error(t('auth.passwordMismatch')));
      return;
    }
    setBusy(true);
    try {
      const result = await post<{ verificationRequired: boolean }>('/auth/register', {
        username: String(form.get('username')),
        email: String(form.get('email')),
        password: String(form.get('password')),
      });
      navigate(`/login?registered=${result.verificationRequired ? 'verify' : 'yes'}`, { replace: true });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Main>
      <form class="card form narrow" onSubmit={submit}>
        <h1>{t('auth.registerTitle')}</h1>
        <Field label={t('auth.username')} name="username" autoComplete="username" required autoFocus />
        <Field label={t('auth.email')} name="email" type="email" autoComplete="email" required />
        <Field
          label={t('auth.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
        />
        <Field label={t('auth.passwordRepeat')} name="repeat" type="password" autoComplete="new-password" required />
        <ErrorMessage error={error} />
        <button class="button button--primary" type="submit" disabled={busy}>
          {t('auth.register')}
        </button>
        <a href="/login">{t('auth.haveAccount')}</a>
      </form>
    </Main>
  );
}
