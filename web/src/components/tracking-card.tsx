/**
 * The series page's release tracking card (issue 32): how far the library is behind the providers ("3
 * chapters and 1 volume behind, MangaUpdates", from the Series gap fields), where each source stands, the
 * newest releases; and, for maintainers and admins, turning tracking on or off and its settings — which axes
 * to announce, languages, the series' MangaUpdates and AniList ids, its aliases — and a poll now.
 */
import { useState } from 'preact/hooks';
import { del, get, patch, post } from '../api/client';
import type { Page, Release, Series, SeriesAlias, SeriesExternalId, SeriesTracking } from '../api/types';
import { t } from '../i18n';
import { catalogVersion, releasesVersion } from '../state/live';
import { ErrorMessage, useAsync } from './async';
import { Field } from './field';
import { canEdit } from './metadata';
import { releaseLabel } from './release-label';

/** "3 chapters and 1 volume behind, MangaUpdates"; "Up to date with AniList"; null before any count. */
export function gapSentence(series: Series, tracking: SeriesTracking): string | null {
  const parts = [
    series.upstreamChapterGap !== null ? t('tracking.chapters', { count: series.upstreamChapterGap }) : null,
    series.upstreamVolumeGap !== null ? t('tracking.volumes', { count: series.upstreamVolumeGap }) : null,
  ].filter((part): part is string => part !== null);
  if (parts.length > 0) {
    const what =
      parts.length === 2 ? t('tracking.and', { first: parts[0] as string, second: parts[1] as string }) : parts[0];
    return t('tracking.behind', { what: what as string, provider: series.upstreamGapProvider ?? '' });
  }
  if (tracking.upstreamProvider) return t('tracking.upToDate', { provider: tracking.upstreamProvider });
  return null;
}

const dateOf = (iso: string) => new Date(iso).toLocaleString();

export function TrackingCard({ series, onChange }: { series: Series; onChange: () => void }) {
  const version = [releasesVersion.value, catalogVersion.value];
  const tracking = useAsync(
    (signal) => get<SeriesTracking>(`/series/${series.id}/tracking`, { signal }),
    [series.id, ...version],
  );
  const releases = useAsync(
    (signal) =>
      get<Page<Release>>(`/series/${series.id}/releases`, { query: { state: 'announced', pageSize: 5 }, signal }),
    [series.id, ...version],
  );
  const [editing, setEditing] = useState(false);
  const [polling, setPolling] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const editable = canEdit('series');
  const info = tracking.data;

  async function run(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
      tracking.reload();
      releases.reload();
      onChange();
    } catch (failure) {
      setError(failure);
    }
  }
  const setTracked = (tracked: boolean) => run(() => patch(`/series/${series.id}/tracking`, { tracked }));
  const pollNow = () =>
    run(async () => {
      await post(`/series/${series.id}/tracking/poll-now`);
      setPolling(true);
    });

  if (!info) return <ErrorMessage error={tracking.error} onRetry={tracking.reload} />;
  const gap = info.tracked ? gapSentence(series, info) : null;
  return (
    <section class="card tracking" aria-labelledby="tracking-title" data-tracking>
      <div class="section-head">
        <h2 id="tracking-title">{t('tracking.title')}</h2>
        {editable && (
          <div class="toolbar">
            {info.tracked && (
              <button type="button" class="button button--small" onClick={() => void pollNow()}>
                {t('tracking.pollNow')}
              </button>
            )}
            {info.tracked && (
              <button
                type="button"
                class="button button--small"
                onClick={() => setEditing(!editing)}
                aria-expanded={editing}
              >
                {t('tracking.edit')}
              </button>
            )}
            <button
              type="button"
              class={`button button--small${info.tracked ? '' : ' button--primary'}`}
              data-track-toggle
              onClick={() => void setTracked(!info.tracked)}
            >
              {info.tracked ? t('tracking.untrack') : t('tracking.track')}
            </button>
          </div>
        )}
      </div>
      {!info.tracked && <p class="muted">{t('tracking.off')}</p>}
      {info.tracked && (
        <>
          <p class="tracking__gap" data-gap>
            {gap ?? t('tracking.notPolled')}
          </p>
          <ul class="tracking__sources">
            {info.sources.map((source) => (
              <li key={source.sourceId} data-source={source.pluginId}>
                {t('tracking.sourceLine', {
                  name: source.displayName,
                  state: [
                    source.externalId ? t('tracking.sourceId', { id: source.externalId }) : t('tracking.notFound'),
                    source.enabled
                      ? source.lastPolledAt
                        ? t('tracking.polledAt', { date: dateOf(source.lastPolledAt) })
                        : t('tracking.neverPolled')
                      : t('tracking.sourceOff'),
                  ].join(' · '),
                })}
                {source.lastError && <span class="tracking__error"> — {source.lastError}</span>}
              </li>
            ))}
          </ul>
          {polling && <p class="muted">{t('tracking.polling')}</p>}
        </>
      )}
      {releases.data && releases.data.total > 0 && (
        <div class="tracking__releases">
          <h3>{t('tracking.newReleases')}</h3>
          <ul>
            {releases.data.data.map((release) => (
              <li key={release.id}>
                <a href={release.payloadUrl} target="_blank" rel="noopener noreferrer">
                  {releaseLabel(release)}
                </a>
                {release.groupOrUploader && <span class="muted"> · {release.groupOrUploader}</span>}
              </li>
            ))}
          </ul>
          <a href={`/releases?seriesId=${series.id}`}>{t('tracking.seeAll')}</a>
        </div>
      )}
      <ErrorMessage error={error} />
      {editing && info.tracked && (
        <TrackingForm
          seriesId={series.id}
          tracking={info}
          onSaved={() => {
            setEditing(false);
            tracking.reload();
            onChange();
          }}
        />
      )}
    </section>
  );
}

function TrackingForm({
  seriesId,
  tracking,
  onSaved,
}: {
  seriesId: string;
  tracking: SeriesTracking;
  onSaved: () => void;
}) {
  const ids = useAsync(
    (signal) => get<{ externalIds: SeriesExternalId[] }>(`/series/${seriesId}/external-ids`, { signal }),
    [seriesId],
  );
  const aliases = useAsync(
    (signal) => get<{ aliases: SeriesAlias[] }>(`/series/${seriesId}/aliases`, { signal }),
    [seriesId],
  );
  const [newAlias, setNewAlias] = useState('');
  const [error, setError] = useState<unknown>(null);
  const idOf = (source: string) => ids.data?.externalIds.find((e) => e.source === source);

  async function save(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const languages = String(form.get('languages') ?? '')
      .split(',')
      .map((code) => code.trim().toLowerCase())
      .filter(Boolean);
    setError(null);
    try {
      await patch(`/series/${seriesId}/tracking`, {
        trackChapters: form.get('trackChapters') === 'on',
        trackVolumes: form.get('trackVolumes') === 'on',
        languages: languages.length > 0 ? languages : null,
      });
      for (const source of ['mangaupdates', 'anilist']) {
        const value = String(form.get(source) ?? '').trim();
        const current = idOf(source);
        if (value && value !== current?.externalId) {
          await post(`/series/${seriesId}/external-ids`, { source, externalId: value });
        } else if (!value && current) {
          await del(`/series/${seriesId}/external-ids/${current.id}`);
        }
      }
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  async function addAlias() {
    if (!newAlias.trim()) return;
    setError(null);
    try {
      await post(`/series/${seriesId}/aliases`, { alias: newAlias.trim() });
      setNewAlias('');
      aliases.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  async function removeAlias(alias: SeriesAlias) {
    setError(null);
    try {
      await del(`/series/${seriesId}/aliases/${alias.id}`);
      aliases.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <form class="form tracking__form" onSubmit={(event) => void save(event)} aria-label={t('tracking.edit')}>
      <div class="checks">
        <label>
          <input type="checkbox" name="trackChapters" defaultChecked={tracking.trackChapters} />{' '}
          {t('tracking.trackChapters')}
        </label>
        <label>
          <input type="checkbox" name="trackVolumes" defaultChecked={tracking.trackVolumes} />{' '}
          {t('tracking.trackVolumes')}
        </label>
      </div>
      <Field
        label={t('tracking.languages')}
        hint={t('tracking.languagesHint')}
        name="languages"
        defaultValue={(tracking.languages ?? []).join(', ')}
      />
      {ids.data && (
        <>
          <Field
            label={t('tracking.mangaupdates')}
            hint={t('tracking.idHint')}
            name="mangaupdates"
            defaultValue={idOf('mangaupdates')?.externalId ?? ''}
          />
          <Field label={t('tracking.anilist')} name="anilist" defaultValue={idOf('anilist')?.externalId ?? ''} />
        </>
      )}
      <fieldset class="field">
        <legend class="field__label">{t('tracking.aliases')}</legend>
        <span class="field__hint">{t('tracking.aliasesHint')}</span>
        {aliases.data && aliases.data.aliases.length === 0 && <p class="muted">{t('tracking.noAliases')}</p>}
        <ul class="chips" data-aliases>
          {aliases.data?.aliases.map((alias) => (
            <li key={alias.id} class="chip">
              {alias.alias}{' '}
              <button
                type="button"
                class="chip__remove"
                aria-label={t('tracking.removeAlias', { alias: alias.alias })}
                onClick={() => void removeAlias(alias)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <div class="toolbar">
          <label class="visually-hidden" for="new-alias">
            {t('tracking.newAlias')}
          </label>
          <input
            id="new-alias"
            class="field__input"
            value={newAlias}
            maxLength={300}
            placeholder={t('tracking.newAlias')}
            onInput={(event) => setNewAlias(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                void addAlias();
              }
            }}
          />
          <button type="button" class="button" onClick={() => void addAlias()}>
            {t('tracking.addAlias')}
          </button>
        </div>
      </fieldset>
      <ErrorMessage error={error} />
      <div class="toolbar">
        <button type="submit" class="button button--primary">
          {t('app.save')}
        </button>
      </div>
    </form>
  );
}
