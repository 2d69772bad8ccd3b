/**
 * Administration: one screen per concern, chosen by the path (/admin/<section>). Only administrators get
 * it: anyone else who types the address sees that the page is not for them, not screens whose every action
 * the server would then refuse (issue 31 point 7).
 */
import { useLocation } from 'preact-iso';
import { Main } from '../components/page-main';
import { t } from '../i18n';
import type { MessageKey } from '../i18n/messages';
import { ApiKeysSection } from './api-keys';
import { DuplicatesSection } from './duplicates';
import { HealthSection } from './health';
import { LibrariesSection } from './libraries';
import { ReadingSection } from './reading';
import { SettingsSection } from './settings';
import { TasksSection } from './tasks';
import { UsersSection } from './users';
import { SharingTagsSection } from './sharing-tags';
import { isAdmin } from '../state/session';

const SECTIONS: { path: string; label: MessageKey; render: () => preact.JSX.Element }[] = [
  { path: 'libraries', label: 'admin.libraries', render: () => <LibrariesSection /> },
  { path: 'users', label: 'admin.users', render: () => <UsersSection /> },
  { path: 'sharing-tags', label: 'admin.sharingTags', render: () => <SharingTagsSection /> },
  { path: 'api-keys', label: 'admin.apiKeys', render: () => <ApiKeysSection /> },
  { path: 'settings', label: 'admin.settings', render: () => <SettingsSection /> },
  { path: 'tasks', label: 'admin.tasks', render: () => <TasksSection /> },
  { path: 'duplicates', label: 'admin.duplicates', render: () => <DuplicatesSection /> },
  { path: 'reading', label: 'admin.reading', render: () => <ReadingSection /> },
  { path: 'health', label: 'admin.health', render: () => <HealthSection /> },
];

export function AdminScreen() {
  const { path } = useLocation();
  if (!isAdmin.value) {
    return (
      <Main title={t('admin.forbidden')}>
        <h1>{t('admin.forbidden')}</h1>
        <p data-forbidden>{t('admin.forbiddenHint')}</p>
        <a href="/">{t('nav.home')}</a>
      </Main>
    );
  }
  const current = SECTIONS.find((section) => path === `/admin/${section.path}`) ?? SECTIONS[0]!;
  return (
    <Main wide title={`${t(current.label)} · ${t('admin.title')}`}>
      <h1>{t('admin.title')}</h1>
      <nav class="tabs" aria-label={t('admin.title')}>
        {SECTIONS.map((section) => (
          <a
            key={section.path}
            class="tabs__tab"
            href={`/admin/${section.path}`}
            aria-current={section === current ? 'page' : undefined}
          >
            {t(section.label)}
          </a>
        ))}
      </nav>
      <section aria-label={t(current.label)}>{current.render()}</section>
    </Main>
  );
}
