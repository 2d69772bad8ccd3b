/** Creating an account, when the server allows registration (setting auth.registration_enabled). */
import { post } from '../api/client';
import { Main } from '../components/page-main';
import { ErrorMessage } from '../components/async';
import { checkRepeat, NewAccountFields, NewPasswordFields } from '../components/account-fields';
import { useFormAction } from '../components/form-action';
import { t } from '../i18n';
import { navigate } from '../state/navigation';

export function RegisterScreen() {
  const { error, busy, onSubmit } = useFormAction(async (form) => {
    checkRepeat(form);
    const result = await post<{ verificationRequired: boolean }>('/auth/register', {
      username: String(form.get('username')),
      email: String(form.get('email')),
      password: String(form.get('password')),
    });
    navigate(`/login?registered=${result.verificationRequired ? 'verify' : 'yes'}`, { replace: true });
  });

  return (
    <Main title={t('auth.register')}>
      <form class="card form narrow" onSubmit={onSubmit}>
        <h1>{t('auth.registerTitle')}</h1>
        <NewAccountFields />
        <NewPasswordFields />
        <ErrorMessage error={error} />
        <button class="button button--primary" type="submit" disabled={busy}>
          {t('auth.register')}
        </button>
        <a href="/login">{t('auth.haveAccount')}</a>
      </form>
    </Main>
  );
}
