/**
 * First run: create the administrator (POST /setup/initialize, which also signs them in), then the
 * first library. Afterwards the admin lands on the libraries admin page to upload books and scan.
 */
import { useState } from 'preact/hooks';
import { post } from '../api/client';
import type { LoginResponse } from '../api/types';
import { LibraryForm } from '../admin/library-form';
import { Main } from '../components/page-main';
import { ErrorMessage } from '../components/async';
import { checkRepeat, NewAccountFields, NewPasswordFields } from '../components/account-fields';
import { useFormAction } from '../components/form-action';
import { t } from '../i18n';
import { navigate } from '../state/navigation';
import { session, signIn } from '../state/session';
import { setupStatus } from '../state/setup';

export function SetupScreen() {
  const [step, setStep] = useState<'admin' | 'library'>(setupStatus.value?.setupRequired ? 'admin' : 'library');

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
        {step === 'admin' ? (
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
