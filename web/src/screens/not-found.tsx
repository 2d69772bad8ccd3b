import { Main } from '../components/page-main';
import { t } from '../i18n';

export function NotFoundScreen() {
  return (
    <Main>
      <h1>{t('app.notFound')}</h1>
      <p>{t('app.notFoundHint')}</p>
      <a href="/">{t('nav.home')}</a>
    </Main>
  );
}
