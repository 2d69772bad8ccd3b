import { Main } from '../app';
import { t } from '../i18n';

export function RegisterScreen(_props: Record<string, unknown>) {
  return (
    <Main>
      <h1>{t('auth.registerTitle')}</h1>
    </Main>
  );
}
