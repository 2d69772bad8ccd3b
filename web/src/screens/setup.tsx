/**
 * First run: create the administrator (POST /setup/initialize, which also signs them in), then the
 * first library. Afterwards the admin lands on the libraries admin page to upload books and scan.
 */
import { useState } from 'preact/hooks';
import { post } from '../api/client';
import type { LoginResponse } from '../api/types';
import { LibraryForm } from '../admin/library-form';
import { Main } from '../app';
import { ErrorMessage } from '../components/async';
import { Field } from '../components/field';
import { t } from '../i18n';
import { navigate } from '../state/navigation';
import { session, signIn } from '../state/session';
import { setupStatus } from '../state/setup';

export function SetupScreen() {
  const [step, setStep] = useState<'admin' | 'library'>(setupStatus.value?.setupRequired ? 'admin' : 'library');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  function finish(to: string) {
    navigate(to, { replace: true });
    const status = setupStatus.value;
    if (status) setupStatus.value = { ...status, setupRequired: false, hasUsers: true };
  }

  async function createAdmin(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setError(null);
    if (form.get('password') !== form.get('repeat')) {
      setError(new Error(t('auth.passwordMismatch')));
      return;
    }
    setBusy(true);
    try {
      signIn(
        await post<LoginResponse>('/setup/initialize', {
          username: String(form.get('username')),
          email: String(form.get('email')),
          password: String(form.get('password')),
        }),
      );
      setStep('library');
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Main>
      <div class="card narrow">
        <h1>{t('setup.title')}</h1>
        <p>{t('setup.intro')}</p>
        <ol class="steps">
          <li aria-current={step === 'admin' ? 'step' : undefined}>{t('setup.stepAdmin')}</li>
          <li aria-current={step === 'library' ? 'step' : undefined}>{t('setup.stepLibrary')}</li>
        </ol>
        {step === 'admin' ? (
          <form class="form" onSubmit={createAdmin}>
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
            <Field
              label={t('auth.passwordRepeat')}
              name="repeat"
              type="password"
              autoComplete="new-password"
              required
            />
            <ErrorMessage error={error} />
            <button class="button button--primary" type="submit" disabled={busy}>
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
