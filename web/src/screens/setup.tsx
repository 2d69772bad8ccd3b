import { Main } from '../app';
import type { SetupStatus } from '../api/types';
import { t } from '../i18n';

export function SetupScreen(_props: { status: SetupStatus; onDone(status: SetupStatus): void }) {
  return (
    <Main>
      <h1>{t('setup.title')}</h1>
    </Main>
  );
}
