/**
 * First run: create the administrator (POST /setup/initialize, which also signs them in), then the
 * first library. Afterwards the admin lands on the libraries admin page to upload books and scan. The
 * library step follows the server's state, not this page's: an administrator without a library who
 * reloads, or comes back later, is still offered it (state/setup.ts `setupStepAfterAdmin`).
 */
import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api/client';
import type { Library, LoginResponse } from '../api/types';
import { LibraryForm } from '../admin/library-form';
import { Main } from '../components/page-main';
import { ErrorMessage } from '../components/async';
import { checkRepeat, NewAccountFields, NewPasswordFields } from '../components/account-fields';
import { useFormAction } from '../components/form-action';
import { t } from '../i18n';
import { navigate } from '../state/navigation';
import { isAdmin, session, signIn } from '../state/session';
import { setupStatus, setupStepAfterAdmin } from '../state/setup';

export function SetupScreen() {
  const [step, setStep] = useState<'admin' | 'library' | 'checking'>(
    setupStatus.value?.setupRequired ? 'admin' : 'checking',
  );

  // An administrator exists: the library step if this user is one and no library exists yet, else home.
  useEffect(() => {
    if (step !== 'checking') return;
    let cancelled = false;
    const libraries = isAdmin.value ? get<Library[]>('/libraries') : Promise.resolve([]);
    libraries
      .then((list) => {
        if (cancelled) return;
        if (setupStepAfterAdmin(isAdmin.value, list.length) === 'library') setStep('library');
        else navigate('/', { replace: true });
      })
      .catch(() => !cancelled && navigate('/', { replace: true }));
    return () => {
      cancelled = true;
    };
  }, [step]);

  function finish(to: string) {
    navigate(to, { replace: true });
    const status = setupStatus.value;
    if (status) setupStatus.value = { ...status, setupRequired: false, hasUsers: true };
  }

  const admin = useFormAction(async (form) => {
    checkRepeat(form);
    signIn(
      await post<LoginResponse>('/setup/initialize', {
        username: String(form.get('username')),
        email: String(form.get('email')),
        password: String(form.get('password')),
      }),
    );
    setStep('library');
  });

  return (
    <Main title={t('setup.title')}>
      <div class="card narrow">
        <h1>{t('setup.title')}</h1>
        <p>{t('setup.intro')}</p>
        <ol class="steps">
          <li aria-current={step === 'admin' ? 'step' : undefined}>{t('setup.stepAdmin')}</li>
          <li aria-current={step === 'library' ? 'step' : undefined}>{t('setup.stepLibrary')}</li>
        </ol>
        {step === 'checking' ? (
          <p aria-busy="true">{t('app.loading')}</p>
        ) : step === 'admin' ? (
          <form class="form" onSubmit={admin.onSubmit}>
            <NewAccountFields />
            <NewPasswordFields />
            <ErrorMessage error={admin.error} />
            <button class="button button--primary" type="submit" disabled={admin.busy}>
              {t('setup.createAdmin')}
            </button>
          </form>
        ) : session.value ? (
          <>
            <LibraryForm onSaved={(library) => finish(`/admin/libraries?library=${library.id}`)} />
            <button type="button" class="button button--ghost" onClick={() => finish('/')}>
              {t('setup.skipLibrary')}
            </button>
          </>
        ) : null}
      </div>
    </Main>
  );
}
