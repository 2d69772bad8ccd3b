import { Main } from '../app';
import { t } from '../i18n';

export function AccountScreen(_props: Record<string, unknown>) {
  return (
    <Main>
      <h1>{t('nav.account')}</h1>
    </Main>
  );
}
