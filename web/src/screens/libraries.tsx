/** The libraries the user can see, each opening its series grid; "All" opens every series. */
import { get } from '../api/client';
import type { Library } from '../api/types';
import { Main } from '../components/page-main';
import { Async, useAsync } from '../components/async';
import { Cover } from '../components/cards';
import { t } from '../i18n';
import { catalogVersion } from '../state/live';
import { isAdmin } from '../state/session';

export function LibrariesScreen() {
  const version = catalogVersion.value;
  const libraries = useAsync((signal) => get<Library[]>('/libraries', { signal }), [version]);
  return (
    <Main title={t('nav.libraries')}>
      <h1>{t('nav.libraries')}</h1>
      <Async state={libraries}>
        {(list) =>
          list.length === 0 ? (
            <p class="notice">
              {t('home.noLibraries')} {isAdmin.value && <a href="/admin/libraries">{t('admin.libraries')}</a>}
            </p>
          ) : (
            <div class="grid">
              <a class="card-link" href="/libraries/all">
                <div class="cover cover--label">{t('library.all')}</div>
                <span class="card-link__title">{t('library.all')}</span>
                <span class="card-link__sub">
                  {t('library.series', { count: list.reduce((sum, library) => sum + library.seriesCount, 0) })}
                </span>
              </a>
              {list.map((library) => (
                <a class="card-link" href={`/libraries/${library.id}`} key={library.id} data-library-id={library.id}>
                  <Cover kind="libraries" id={library.id} />
                  <span class="card-link__title">{library.name}</span>
                  <span class="card-link__sub">{t('library.series', { count: library.seriesCount })}</span>
                </a>
              ))}
            </div>
          )
        }
      </Async>
    </Main>
  );
}
