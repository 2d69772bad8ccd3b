import { Main } from '../app';
import { t } from '../i18n';

export function SearchScreen(_props: Record<string, unknown>) {
  return (
    <Main>
      <h1>{t('nav.search')}</h1>
    </Main>
  );
}
