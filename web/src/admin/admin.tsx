import { Main } from '../app';
import { t } from '../i18n';

export function AdminScreen() {
  return (
    <Main>
      <h1>{t('admin.title')}</h1>
    </Main>
  );
}
