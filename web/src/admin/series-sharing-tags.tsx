/**
 * A series' sharing tags, edited by an admin on the series screen: tick the tags, save (`PUT
 * /series/{id}/sharing-tags`, which locks them). Users denied a tag stop seeing the series at once.
 */
import { useState } from 'preact/hooks';
import { get, put } from '../api/client';
import type { Page, SharingTag, SharingTagSummary } from '../api/types';
import { ErrorMessage, useAsync } from '../components/async';
import { t } from '../i18n';

export function SeriesSharingTags({ seriesId }: { seriesId: string }) {
  const current = useAsync(
    (signal) => get<SharingTagSummary[]>(`/series/${seriesId}/sharing-tags`, { signal }),
    [seriesId],
  );
  const [editing, setEditing] = useState(false);
  const all = useAsync(
    async (signal) =>
      editing ? (await get<Page<SharingTag>>('/admin/sharing-tags', { query: { pageSize: 500 }, signal })).data : [],
    [editing],
  );
  const [error, setError] = useState<unknown>(null);

  async function save(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setError(null);
    try {
      await put(`/series/${seriesId}/sharing-tags`, { sharingTagIds: form.getAll('tags').map(String) });
      setEditing(false);
      current.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  const chosen = new Set(current.data?.map((tag) => tag.id));
  return (
    <div class="stack" data-series-tags>
      <p class="muted">
        {t('series.sharingTags')}: {current.data?.length ? current.data.map((tag) => tag.name).join(', ') : '—'}{' '}
        {!editing && (
          <button type="button" class="button button--small" onClick={() => setEditing(true)}>
            {t('series.editTags')}
          </button>
        )}
      </p>
      {editing && all.data && (
        <form class="card form" onSubmit={save} aria-label={t('series.editTags')}>
          {all.data.length === 0 && <p class="muted">{t('admin.noTags')}</p>}
          <div class="checks">
            {all.data.map((tag) => (
              <label key={tag.id}>
                <input type="checkbox" name="tags" value={tag.id} defaultChecked={chosen.has(tag.id)} /> {tag.name}
              </label>
            ))}
          </div>
          <div class="toolbar">
            <button type="submit" class="button button--primary">
              {t('app.save')}
            </button>
            <button type="button" class="button" onClick={() => setEditing(false)}>
              {t('app.cancel')}
            </button>
          </div>
        </form>
      )}
      <ErrorMessage error={error} />
    </div>
  );
}
