import { Main } from '../app';
import { t } from '../i18n';

export function BookScreen(_props: Record<string, unknown>) {
  return (
    <Main>
      <h1>{t('book.read')}</h1>
    </Main>
  );
}
