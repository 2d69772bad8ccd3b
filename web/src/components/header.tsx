/**
 * The top bar: where to go (with the count of new releases), search, and the account controls. On a phone it
 * stays one row (issue 31 point 12: the links wrapped into a second row, 125 px of a small screen): after the
 * brand, the links and controls scroll sideways within the bar, the current page's link brought into view.
 */
import { useLocation } from 'preact-iso';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { get } from '../api/client';
import type { Page, Release } from '../api/types';
import { t } from '../i18n';
import { catalogVersion, releasesVersion } from '../state/live';
import { useAsync } from './async';
import { currentUser, isAdmin, logout } from '../state/session';
import { setTheme, theme, type Theme } from '../state/theme';

export function Header() {
  const { path } = useLocation();
  // New releases of tracked series (issue 32): announced by the event stream, cleared by the inbox or a scan.
  const fresh = useAsync(
    (signal) => get<Page<Release>>('/releases', { query: { state: 'announced', pageSize: 1 }, signal }),
    [releasesVersion.value, catalogVersion.value],
  );
  const newReleases = fresh.data?.total ?? 0;
  const strip = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const current = strip.current?.querySelector<HTMLElement>('[aria-current="page"]');
    if (current && strip.current && strip.current.scrollWidth > strip.current.clientWidth) {
      strip.current.scrollLeft = current.offsetLeft - strip.current.clientWidth / 3;
    }
  }, [path]);
  const link = (href: string, label: string) => (
    <a
      href={href}
      class="nav__link"
      aria-current={path === href || (href !== '/' && path.startsWith(href)) ? 'page' : undefined}
    >
      {label}
    </a>
  );
  return (
    <header class="header">
      <a href="/" class="header__brand" aria-label={t('app.name')}>
        <img src="/icon.svg" width="28" height="28" alt="" />
        <span class="header__name">{t('app.name')}</span>
      </a>
      <div ref={strip} class="header__strip">
        <nav class="nav" aria-label={t('nav.menu')}>
          {link('/', t('nav.home'))}
          {link('/libraries', t('nav.libraries'))}
          {link('/collections', t('nav.collections'))}
          {link('/readlists', t('nav.readLists'))}
          <a
            href="/releases"
            class="nav__link"
            aria-current={path.startsWith('/releases') ? 'page' : undefined}
            data-nav-releases
          >
            {t('nav.releases')}
            {newReleases > 0 && (
              <>
                <span class="badge nav__badge" aria-hidden="true">
                  {newReleases}
                </span>
                <span class="visually-hidden">{t('nav.newReleases', { count: newReleases })}</span>
              </>
            )}
          </a>
          {link('/statistics', t('nav.statistics'))}
          {link('/search', t('nav.search'))}
          {isAdmin.value && link('/admin', t('nav.admin'))}
        </nav>
        <div class="header__end">
          <label class="visually-hidden" for="theme-select">
            {t('app.theme')}
          </label>
          <select
            id="theme-select"
            class="select select--small"
            value={theme.value}
            onChange={(event) => setTheme((event.currentTarget as HTMLSelectElement).value as Theme)}
          >
            <option value="system">{t('app.theme.system')}</option>
            <option value="light">{t('app.theme.light')}</option>
            <option value="dark">{t('app.theme.dark')}</option>
          </select>
          <a href="/account" class="nav__link" title={currentUser.value?.username}>
            {t('nav.account')}
          </a>
          <button type="button" class="button button--ghost" onClick={() => void logout()}>
            {t('nav.logout')}
          </button>
        </div>
      </div>
    </header>
  );
}
