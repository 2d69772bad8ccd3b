import { Main } from '../app';
import { t } from '../i18n';

export function SeriesGridScreen(_props: Record<string, unknown>) {
  return (
    <Main>
      <h1>{t('nav.libraries')}</h1>
    </Main>
  );
}
