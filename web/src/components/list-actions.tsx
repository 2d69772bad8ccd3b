/**
 * What a series or book page offers for lists: a want-to-read toggle (each user's own queue) and, for
 * maintainers, "add to collection" / "add to read list" with an existing list or a new one named on the spot.
 */
import { useState } from 'preact/hooks';
import { del, get, post } from '../api/client';
import type { Collection, Page, ReadList } from '../api/types';
import { t } from '../i18n';
import { canEditLists } from '../state/session';
import { ErrorMessage } from './async';

export function WantToReadToggle({ kind, id, queued }: { kind: 'series' | 'book'; id: string; queued: boolean }) {
  const [on, setOn] = useState(queued);
  const [error, setError] = useState<unknown>(null);
  async function toggle() {
    setError(null);
    try {
      if (on) await del(`/want-to-read/${kind === 'series' ? 'series' : 'books'}/${id}`);
      else await post('/want-to-read', kind === 'series' ? { seriesId: id } : { bookId: id });
      setOn(!on);
    } catch (failure) {
      setError(failure);
    }
  }
  return (
    <>
      <button type="button" class="button" aria-pressed={on} data-want-to-read onClick={() => void toggle()}>
        {on ? `✓ ${t('lists.wantToRead')}` : t('lists.wantToRead')}
      </button>
      <ErrorMessage error={error} />
    </>
  );
}

const NEW = '';

/**
 * Adds `ids` (series to a collection, books to a read list) to the list chosen, or to a new one. Hidden from
 * readers, who may not write lists.
 */
export function AddToList({ kind, ids }: { kind: 'collection' | 'readlist'; ids: () => string[] }) {
  const [open, setOpen] = useState(false);
  const [lists, setLists] = useState<Array<Collection | ReadList> | null>(null);
  const [choice, setChoice] = useState(NEW);
  const [name, setName] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  if (!canEditLists.value) return null;
  const base = kind === 'collection' ? '/collections' : '/readlists';
  const members = kind === 'collection' ? 'seriesIds' : 'bookIds';
  const label = kind === 'collection' ? t('lists.addToCollection') : t('lists.addToReadList');

  async function openForm() {
    setOpen(true);
    setDone(null);
    try {
      const page = await get<Page<Collection | ReadList>>(base, { query: { pageSize: 500 } });
      // Smart collections choose their own series.
      setLists(page.data.filter((list) => !('automatic' in list && list.automatic)));
    } catch (failure) {
      setError(failure);
    }
  }

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      if (choice === NEW) {
        const created = await post<Collection | ReadList>(base, { name: name.trim(), [members]: ids() });
        setDone(created.name);
      } else {
        const updated = await post<Collection | ReadList>(
          `${base}/${choice}/${kind === 'collection' ? 'series' : 'books'}`,
          {
            [members]: ids(),
          },
        );
        setDone(updated.name);
      }
      setOpen(false);
      setName('');
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <div class="add-to-list" data-add-to={kind}>
      {!open && (
        <button type="button" class="button" onClick={() => void openForm()}>
          {label}
        </button>
      )}
      {open && (
        <form class="add-to-list__form" onSubmit={(event) => void submit(event)}>
          <label class="field">
            <span class="field__label">
              {kind === 'collection' ? t('lists.chooseCollection') : t('lists.chooseReadList')}
            </span>
            <select
              class="select"
              value={choice}
              onChange={(event) => setChoice((event.currentTarget as HTMLSelectElement).value)}
            >
              <option value={NEW}>{t('lists.create')}…</option>
              {(lists ?? []).map((list) => (
                <option key={list.id} value={list.id}>
                  {list.name}
                </option>
              ))}
            </select>
          </label>
          {choice === NEW && (
            <label class="field">
              <span class="field__label">{t('lists.newName')}</span>
              <input
                class="field__input"
                required
                maxLength={200}
                value={name}
                onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)}
              />
            </label>
          )}
          <div class="toolbar">
            <button type="submit" class="button button--primary">
              {t('lists.add')}
            </button>
            <button type="button" class="button" onClick={() => setOpen(false)}>
              {t('app.cancel')}
            </button>
          </div>
        </form>
      )}
      {done && (
        <p class="muted" role="status">
          {t('lists.added', { name: done })}
        </p>
      )}
      <ErrorMessage error={error} />
    </div>
  );
}
