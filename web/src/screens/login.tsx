/**
 * Log in; afterwards back to `?next=` (where an expired session interrupted the user) or home. Offers the
 * server's identity providers beside the password form, and first picks up a session this browser already
 * has: the one an identity provider's sign-in just left in the cookie, or Cloudflare Access's.
 */
import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { Main } from '../components/page-main';
import { ErrorMessage } from '../components/async';
import { Field } from '../components/field';
import { useFormAction } from '../components/form-action';
import { t } from '../i18n';
import { navigate, safeNext } from '../state/navigation';
import { login, sessionExpired } from '../state/session';
import { setupStatus } from '../state/setup';
import { loadSignInOptions, resumeBrowserSession, signInOptions, startSingleSignOn } from '../state/single-sign-on';

export function LoginScreen() {
  const registrationEnabled = setupStatus.value?.registrationEnabled ?? false;
  const { query } = useLocation();
  const next = safeNext(query.next);
  const options = signInOptions.value;
  const [ssoError, setSsoError] = useState<unknown>(null);
  const [leaving, setLeaving] = useState(false);
  const { error, busy, onSubmit } = useFormAction(async (form) => {
    await login(String(form.get('username')), String(form.get('password')));
    navigate(next, { replace: true });
  });

  useEffect(() => {
    void loadSignInOptions();
    void resumeBrowserSession().then((signedIn) => {
      if (signedIn) navigate(next, { replace: true });
    });
  }, []);

  async function startProvider(provider: string) {
    setSsoError(null);
    setLeaving(true);
    try {
      await startSingleSignOn(provider, next);
    } catch (failure) {
      setSsoError(failure);
      setLeaving(false);
    }
  }

  const providers = options?.providers ?? [];
  return (
    <Main title={t('auth.login')}>
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
        {providers.length > 0 && (
          <div class="stack" data-sign-in-providers>
            {providers.map((provider) => (
              <button
                key={provider.name}
                type="button"
                class="button"
                disabled={leaving}
                onClick={() => void startProvider(provider.name)}
              >
                {t('auth.signInWith', { name: provider.displayName })}
              </button>
            ))}
            <ErrorMessage error={ssoError} />
          </div>
        )}
        {options?.passwordLogin === false && <p class="field__hint">{t('auth.passwordAdminsOnly')}</p>}
        <Field label={t('auth.usernameOrEmail')} name="username" autoComplete="username" required autoFocus />
        <Field label={t('auth.password')} name="password" type="password" autoComplete="current-password" required />
        <ErrorMessage error={error} />
        <button class="button button--primary" type="submit" disabled={busy}>
          {t('auth.login')}
        </button>
        {registrationEnabled && options?.passwordLogin !== false && <a href="/register">{t('auth.register')}</a>}
      </form>
    </Main>
  );
}
