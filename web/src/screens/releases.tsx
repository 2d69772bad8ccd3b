/**
 * The releases inbox (issue 32; Codex-rs's Releases screen): what the release sources announced for the
 * series you track, new ones first by default, filtered by state, series and language (the address keeps
 * the filters). Maintainers and admins mark a release acquired or dismiss it, one by one or for every
 * selected row; a scan that brings a chapter in marks its release acquired by itself.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { get, post } from '../api/client';
import type { Page, Release } from '../api/types';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { Cover } from '../components/cards';
import { releaseLabel } from '../components/release-label';
import { canEdit } from '../components/metadata';
import { Main } from '../components/page-main';
import { type MessageKey, t } from '../i18n';
import { catalogVersion, releasesVersion } from '../state/live';

const PAGE_SIZE = 50;
const STATES = ['announced', 'marked_acquired', 'dismissed', 'ignored', 'all'] as const;
type StateFilter = (typeof STATES)[number];

const dateOf = (iso: string) => new Date(iso).toLocaleDateString();

export function ReleasesScreen() {
  const { query, path, route } = useLocation();
  const state = (STATES as readonly string[]).includes(query.state ?? '') ? (query.state as StateFilter) : 'announced';
  const page = Math.max(1, Number(query.page) || 1);
  const filters = { state, seriesId: query.seriesId ?? '', language: query.language ?? '' };
  const releases = useAsync(
    (signal) =>
      get<Page<Release>>('/releases', {
        query: {
          state,
          seriesId: filters.seriesId || undefined,
          language: filters.language || undefined,
          sort: state === 'announced' ? 'series' : 'observed,desc',
          page,
          pageSize: PAGE_SIZE,
        },
        signal,
      }),
    [state, filters.seriesId, filters.language, page, releasesVersion.value, catalogVersion.value],
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  const editable = canEdit('series');

  function setFilter(change: Partial<typeof filters & { page: number }>) {
    const next = { ...filters, page: 1, ...change };
    const params = new URLSearchParams();
    if (next.state !== 'announced') params.set('state', next.state);
    if (next.seriesId) params.set('seriesId', next.seriesId);
    if (next.language) params.set('language', next.language);
    if (next.page > 1) params.set('page', String(next.page));
    const search = params.toString();
    setSelected(new Set());
    route(`${path}${search ? `?${search}` : ''}`, true);
  }

  async function act(ids: string[], action: 'mark-acquired' | 'dismiss' | 'reset') {
    setError(null);
    try {
      await post('/releases/bulk', { ids, action });
      setSelected(new Set());
      releasesVersion.value++;
    } catch (failure) {
      setError(failure);
    }
  }

  const rows = releases.data?.data ?? [];
  // The filters offer what the page shows (and what is chosen), so a choice never leads to an empty list.
  const seriesOptions = new Map(rows.map((r) => [r.seriesId, r.seriesTitle]));
  if (filters.seriesId && !seriesOptions.has(filters.seriesId)) seriesOptions.set(filters.seriesId, '…');
  const languages = new Set(
    [...rows.flatMap((r) => (r.language ? [r.language] : [])), filters.language].filter(Boolean),
  );
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Main>
      <div class="section-head">
        <h1>{t('releases.title')}</h1>
        {releases.data && <span class="muted">{releases.data.total}</span>}
      </div>
      <p class="muted">{t('releases.intro')}</p>
      <form class="toolbar" aria-label={t('releases.title')} onSubmit={(event) => event.preventDefault()}>
        <label class="inline-field">
          <span>{t('releases.state')}</span>
          <select
            class="select"
            value={state}
            data-release-state
            onChange={(event) => setFilter({ state: event.currentTarget.value as StateFilter })}
          >
            {STATES.map((value) => (
              <option key={value} value={value}>
                {t(`releases.state.${value}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
        <label class="inline-field">
          <span>{t('releases.series')}</span>
          <select
            class="select"
            value={filters.seriesId}
            onChange={(event) => setFilter({ seriesId: event.currentTarget.value })}
          >
            <option value="">{t('releases.allSeries')}</option>
            {[...seriesOptions].map(([id, title]) => (
              <option key={id} value={id}>
                {title}
              </option>
            ))}
          </select>
        </label>
        <label class="inline-field">
          <span>{t('releases.language')}</span>
          <select
            class="select"
            value={filters.language}
            onChange={(event) => setFilter({ language: event.currentTarget.value })}
          >
            <option value="">{t('releases.allLanguages')}</option>
            {[...languages].map((language) => (
              <option key={language} value={language}>
                {language}
              </option>
            ))}
          </select>
        </label>
      </form>
      {editable && selected.size > 0 && (
        <div class="toolbar bulk-bar" data-bulk>
          <span>{t('releases.selected', { count: selected.size })}</span>
          <button type="button" class="button button--primary" onClick={() => void act([...selected], 'mark-acquired')}>
            {t('releases.acquire')}
          </button>
          <button type="button" class="button" onClick={() => void act([...selected], 'dismiss')}>
            {t('releases.dismiss')}
          </button>
          {state !== 'announced' && (
            <button type="button" class="button" onClick={() => void act([...selected], 'reset')}>
              {t('releases.reset')}
            </button>
          )}
        </div>
      )}
      <ErrorMessage error={error} />
      <Async state={releases}>
        {(found) =>
          found.total === 0 ? (
            <p class="notice" data-releases-empty>
              {state === 'announced' && !filters.seriesId ? t('releases.emptyNew') : t('releases.empty')}
            </p>
          ) : (
            <>
              {editable && (
                <label class="select-all">
                  <input
                    type="checkbox"
                    checked={rows.every((r) => selected.has(r.id))}
                    onChange={(event) =>
                      setSelected(event.currentTarget.checked ? new Set(rows.map((r) => r.id)) : new Set())
                    }
                  />{' '}
                  {t('releases.selectAll')}
                </label>
              )}
              <ul class="release-list" data-releases>
                {rows.map((release) => (
                  <ReleaseRow
                    key={release.id}
                    release={release}
                    editable={editable}
                    selected={selected.has(release.id)}
                    onToggle={() => toggle(release.id)}
                    onAct={(action) => void act([release.id], action)}
                  />
                ))}
              </ul>
              {found.totalPages > 1 && (
                <nav class="toolbar pager" aria-label={t('releases.page', { page, pages: found.totalPages })}>
                  <button
                    type="button"
                    class="button"
                    disabled={page <= 1}
                    onClick={() => setFilter({ page: page - 1 })}
                  >
                    {t('releases.previous')}
                  </button>
                  <span class="muted">{t('releases.page', { page, pages: found.totalPages })}</span>
                  <button
                    type="button"
                    class="button"
                    disabled={page >= found.totalPages}
                    onClick={() => setFilter({ page: page + 1 })}
                  >
                    {t('releases.next')}
                  </button>
                </nav>
              )}
            </>
          )
        }
      </Async>
    </Main>
  );
}

function ReleaseRow({
  release,
  editable,
  selected,
  onToggle,
  onAct,
}: {
  release: Release;
  editable: boolean;
  selected: boolean;
  onToggle: () => void;
  onAct: (action: 'mark-acquired' | 'dismiss' | 'reset') => void;
}) {
  const label = releaseLabel(release);
  const site = new URL(release.payloadUrl).hostname.replace(/^www\./, '');
  return (
    <li class="release" data-release={release.id} data-state={release.state}>
      {editable && (
        <input
          type="checkbox"
          class="release__select"
          checked={selected}
          aria-label={t('releases.select', { name: `${release.seriesTitle} ${label}` })}
          onChange={onToggle}
        />
      )}
      <div class="release__cover">
        <Cover kind="series" id={release.seriesId} />
      </div>
      <div class="release__body">
        <a class="release__series" href={`/series/${release.seriesId}`}>
          {release.seriesTitle}
        </a>
        <span class="release__what">{label}</span>
        <span class="muted release__meta">
          {[
            release.groupOrUploader,
            release.language,
            site,
            release.releasedAt
              ? t('releases.released', { date: dateOf(release.releasedAt) })
              : t('releases.seen', { date: dateOf(release.observedAt) }),
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
      </div>
      <div class="release__actions">
        {release.state !== 'announced' && (
          <span class="badge">{t(`releases.state.${release.state}` as MessageKey)}</span>
        )}
        <a class="button button--small" href={release.payloadUrl} target="_blank" rel="noopener noreferrer">
          {t('releases.open')}
        </a>
        {editable && release.state === 'announced' && (
          <>
            <button type="button" class="button button--small button--primary" onClick={() => onAct('mark-acquired')}>
              {t('releases.acquire')}
            </button>
            <button type="button" class="button button--small" onClick={() => onAct('dismiss')}>
              {t('releases.dismiss')}
            </button>
          </>
        )}
        {editable && release.state !== 'announced' && (
          <button type="button" class="button button--small" onClick={() => onAct('reset')}>
            {t('releases.reset')}
          </button>
        )}
      </div>
    </li>
  );
}
