import { Main } from '../app';
import { t } from '../i18n';

export function SeriesScreen(_props: Record<string, unknown>) {
  return (
    <Main>
      <h1>{t('series.books')}</h1>
    </Main>
  );
}
