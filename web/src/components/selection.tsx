/**
 * Choosing several series or books in a grid and acting on them at once (issue 31 point 10): "Select" turns
 * the grid's cards into checkboxes; a bar then marks the chosen ones read or unread and adds them to a
 * collection (series) or a read list (books). The server has one request per item for reading state, sent
 * a few at a time.
 */
import { useState } from 'preact/hooks';
import { post } from '../api/client';
import { t } from '../i18n';
import { ErrorMessage } from './async';
import { AddToList } from './list-actions';

/** What a card needs to be one of a selection. */
export interface Selectable {
  selected: boolean;
  onToggle(): void;
}

export interface SelectionState {
  /** True while cards are checkboxes. */
  active: boolean;
  /** The card's part in the selection, or undefined when not selecting. */
  of(id: string): Selectable | undefined;
  ids: string[];
  start(): void;
  stop(): void;
}

export function useSelection(): SelectionState {
  const [active, setActive] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  return {
    active,
    ids: [...chosen],
    of: (id) =>
      active
        ? {
            selected: chosen.has(id),
            onToggle: () => {
              const next = new Set(chosen);
              if (next.has(id)) next.delete(id);
              else next.add(id);
              setChosen(next);
            },
          }
        : undefined,
    start: () => setActive(true),
    stop: () => {
      setActive(false);
      setChosen(new Set());
    },
  };
}

/** Requests in flight at once when marking many items. */
const CONCURRENT = 4;

async function eachLimited(ids: string[], run: (id: string) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < ids.length) await run(ids[next++] as string);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT, ids.length) }, worker));
}

/** The grid's "Select" button, or, while selecting, the bar of what can be done with the chosen items. */
export function SelectionBar({
  kind,
  selection,
  onChanged,
}: {
  kind: 'series' | 'books';
  selection: SelectionState;
  /** The reading state of some items changed: reload what shows it. */
  onChanged(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!selection.active) {
    return (
      <button type="button" class="button" data-select onClick={selection.start}>
        {t('select.start')}
      </button>
    );
  }
  const ids = selection.ids;
  const mark = async (state: 'read' | 'unread') => {
    setBusy(true);
    setError(null);
    try {
      await eachLimited(ids, (id) => post(`/${kind}/${id}/${state}`));
      onChanged();
      selection.stop();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="selection-bar" aria-label={t('select.bar')} data-selection-bar>
      <span class="selection-bar__count" aria-live="polite">
        {t('select.count', { count: ids.length })}
      </span>
      <button type="button" class="button" disabled={busy || ids.length === 0} onClick={() => void mark('read')}>
        {t('series.markRead')}
      </button>
      <button type="button" class="button" disabled={busy || ids.length === 0} onClick={() => void mark('unread')}>
        {t('series.markUnread')}
      </button>
      {ids.length > 0 && <AddToList kind={kind === 'series' ? 'collection' : 'readlist'} ids={() => ids} />}
      <button type="button" class="button button--ghost" onClick={selection.stop}>
        {t('app.cancel')}
      </button>
      <ErrorMessage error={error} />
    </section>
  );
}
