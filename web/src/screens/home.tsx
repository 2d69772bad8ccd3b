import { Main } from '../app';
import { t } from '../i18n';

export function HomeScreen(_props: Record<string, unknown>) {
  return (
    <Main>
      <h1>{t('home.title')}</h1>
    </Main>
  );
}
