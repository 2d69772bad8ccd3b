/**
 * Saving the series grid's filter as a smart collection, and changing it later (issue 19: Kavita's "save
 * filter", Komga's filter chips): the grid's condition and sort become a collection's `condition` and
 * `sort` through POST /collections, or PATCH /collections/{id} when the grid was opened from a smart
 * collection's "Edit filter" (`?collection=<id>` in the address). Only the HTTP API is used.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { get, patch, post } from '../api/client';
import type { Collection } from '../api/types';
import { ErrorMessage, useAsync } from '../components/async';
import { t } from '../i18n';
import { canEditLists } from '../state/session';

export interface SavedFilter {
  condition: Record<string, unknown> | undefined;
  sort: string;
}

/** The form under the grid's filters: a name and a save button, or the collection being edited. */
export function SmartCollectionForm({ filter, editing }: { filter: SavedFilter; editing: string | undefined }) {
  const { route } = useLocation();
  const existing = useAsync(
    (signal) => (editing ? get<Collection>(`/collections/${editing}`, { signal }) : Promise.resolve(null)),
    [editing],
  );
  const [open, setOpen] = useState(false);
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  if (!canEditLists.value) return null;
  const current = existing.data;
  const shownName = name ?? current?.name ?? '';

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    if (!filter.condition) return;
    const body = { name: shownName.trim(), condition: filter.condition, sort: filter.sort };
    try {
      const saved = current
        ? await patch<Collection>(`/collections/${current.id}`, body)
        : await post<Collection>('/collections', { ...body, target: 'series' });
      route(`/collections/${saved.id}`);
    } catch (failure) {
      setError(failure);
    }
  }

  if (!current && !open) {
    return (
      <div class="toolbar">
        {/* Every series of every library is no filter to save (a condition cannot be empty). */}
        <button type="button" class="button" disabled={!filter.condition} onClick={() => setOpen(true)}>
          {t('smart.save')}
        </button>
        {!filter.condition && <span class="muted">{t('smart.needsFilter')}</span>}
      </div>
    );
  }
  return (
    <form class="toolbar" data-smart-collection onSubmit={(event) => void submit(event)}>
      {current && <span class="muted">{t('smart.editing', { name: current.name })}</span>}
      <label class="visually-hidden" for="smart-collection-name">
        {t('smart.name')}
      </label>
      <input
        id="smart-collection-name"
        class="field__input"
        required
        maxLength={200}
        placeholder={t('smart.name')}
        value={shownName}
        onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)}
      />
      <button type="submit" class="button" disabled={!filter.condition}>
        {current ? t('smart.update') : t('app.save')}
      </button>
      {!current && (
        <button type="button" class="button" onClick={() => setOpen(false)}>
          {t('app.cancel')}
        </button>
      )}
      <ErrorMessage error={error} />
    </form>
  );
}
