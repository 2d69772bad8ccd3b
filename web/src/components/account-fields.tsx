/**
 * The fields every account form shares (registration, the first-run admin, changing a password), so
 * each asks the same way: a new account's name and e-mail, and a new password typed twice.
 */
import { t } from '../i18n';
import { Field } from './field';

export function NewAccountFields() {
  return (
    <>
      <Field label={t('auth.username')} name="username" autoComplete="username" required autoFocus />
      <Field label={t('auth.email')} name="email" type="email" autoComplete="email" required />
    </>
  );
}

/** A new password (at least 8 characters, as the API requires) and its repeat, named `repeat`. */
export function NewPasswordFields({ name = 'password', label }: { name?: string; label?: string }) {
  return (
    <>
      <Field
        label={label ?? t('auth.password')}
        name={name}
        type="password"
        autoComplete="new-password"
        minLength={8}
        required
      />
      <Field label={t('auth.passwordRepeat')} name="repeat" type="password" autoComplete="new-password" required />
    </>
  );
}

/** Checked before anything is sent: the repeat must match the new password (throws the form's error). */
export function checkRepeat(form: FormData, name = 'password'): void {
  if (form.get(name) !== form.get('repeat')) throw new Error(t('auth.passwordMismatch'));
}
