/** Log in; afterwards back to `?next=` (where an expired session interrupted the user) or home. */
import { useLocation } from 'preact-iso';
import { Main } from '../components/page-main';
import { ErrorMessage } from '../components/async';
import { Field } from '../components/field';
import { useFormAction } from '../components/form-action';
import { t } from '../i18n';
import { navigate, safeNext } from '../state/navigation';
import { login, sessionExpired } from '../state/session';
import { setupStatus } from '../state/setup';

export function LoginScreen() {
  const registrationEnabled = setupStatus.value?.registrationEnabled ?? false;
  const { query } = useLocation();
  const { error, busy, onSubmit } = useFormAction(async (form) => {
    await login(String(form.get('username')), String(form.get('password')));
    navigate(safeNext(query.next), { replace: true });
  });

  return (
    <Main>
      <form class="card form narrow" onSubmit={onSubmit}>
        <h1>{t('auth.loginTitle')}</h1>
        {sessionExpired.value && (
          <p class="notice" role="status">
            {t('auth.sessionExpired')}
          </p>
        )}
        {query.registered && (
          <p class="notice">{t(query.registered === 'verify' ? 'auth.registeredVerify' : 'auth.registered')}</p>
        )}
        <Field label={t('auth.usernameOrEmail')} name="username" autoComplete="username" required autoFocus />
        <Field label={t('auth.password')} name="password" type="password" autoComplete="current-password" required />
        <ErrorMessage error={error} />
        <button class="button button--primary" type="submit" disabled={busy}>
          {t('auth.login')}
        </button>
        {registrationEnabled && <a href="/register">{t('auth.register')}</a>}
      </form>
    </Main>
  );
}
