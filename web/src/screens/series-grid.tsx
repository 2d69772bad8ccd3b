/**
 * A library's series (or every library's, at /libraries/all): the filters and sorts the API offers
 * (POST /series/list: read status, publisher, status, language…; `sort=<field>,<direction>`), kept in
 * the address so back and forward restore them, over a virtual grid that stays smooth at 10,000 series.
 */
import { useLocation } from 'preact-iso';
import { get, post } from '../api/client';
import type { Library, Page, Series } from '../api/types';
import { Main } from '../components/page-main';
import { Async, useAsync } from '../components/async';
import { CardPlaceholder, SeriesCard } from '../components/cards';
import { VirtualGrid } from '../components/virtual-grid';
import { t } from '../i18n';
import { SelectionBar, useSelection } from '../components/selection';
import { catalogVersion, reloadCatalog } from '../state/live';
import { SmartCollectionForm } from './smart-collection-form';

const PAGE_SIZE = 100;
export const SERIES_SORTS = [
  ['name', 'filter.sortName'],
  ['date_added', 'filter.sortCreated'],
  ['date_updated', 'filter.sortUpdated'],
  ['book_count', 'filter.sortBookCount'],
  ['release_date', 'filter.sortReleaseDate'],
] as const;
const READ_STATUSES = [
  ['', 'filter.all'],
  ['unread', 'filter.unread'],
  ['in_progress', 'filter.inProgress'],
  ['read', 'filter.read'],
] as const;

interface Filters {
  sort: string;
  order: 'asc' | 'desc';
  status: string;
  publisher: string;
  /** Words of the series' title. */
  name: string;
  /** Set by a click on an author, genre, tag or character of a series or book page. */
  author?: string;
  genre?: string;
  tag?: string;
  character?: string;
}

/** The metadata links of the detail pages (components/metadata.tsx): field name = query parameter. */
const METADATA_FILTERS = ['author', 'genre', 'tag', 'character'] as const;

/** The condition of POST /series/list for the library and filters (API.md §4 Advanced filtering). */
export function seriesCondition(
  libraryId: string | null,
  filters: Partial<Pick<Filters, 'status' | 'publisher' | 'name' | (typeof METADATA_FILTERS)[number]>>,
) {
  const leaves: Record<string, { operator: string; value: string }>[] = [];
  for (const field of METADATA_FILTERS) {
    const value = filters[field];
    if (value) leaves.push({ [field]: { operator: 'is', value } });
  }
  if (libraryId) leaves.push({ libraryId: { operator: 'is', value: libraryId } });
  if (filters.status) leaves.push({ readStatus: { operator: 'is', value: filters.status } });
  if (filters.publisher) leaves.push({ publisher: { operator: 'contains', value: filters.publisher } });
  if (filters.name) leaves.push({ name: { operator: 'contains', value: filters.name } });
  return leaves.length === 0 ? undefined : { allOf: leaves };
}

/** Each leaf seriesCondition writes: its field, operator and the grid's query parameter. */
const LEAVES: ReadonlyArray<[field: string, operator: string, param: string]> = [
  ...METADATA_FILTERS.map((field) => [field, 'is', field] as [string, string, string]),
  ['readStatus', 'is', 'status'],
  ['publisher', 'contains', 'publisher'],
  ['name', 'contains', 'name'],
];

/**
 * The grid address that shows a saved condition and sort again (a smart collection's "Edit filter"): the
 * inverse of seriesCondition, or null for a condition the grid cannot show (made through the API).
 */
export function gridAddressOf(condition: unknown, sort: string | null, collectionId: string): string | null {
  const leaves = (condition as { allOf?: unknown })?.allOf;
  if (!Array.isArray(leaves)) return null;
  const params = new URLSearchParams();
  let libraryId = 'all';
  for (const leaf of leaves) {
    const entries = Object.entries((leaf ?? {}) as Record<string, { operator?: string; value?: unknown }>);
    const [field, test] = entries[0] ?? [];
    if (entries.length !== 1 || !field || typeof test?.value !== 'string') return null;
    if (field === 'libraryId' && test.operator === 'is' && libraryId === 'all') {
      libraryId = test.value;
      continue;
    }
    const known = LEAVES.find(([f, operator]) => f === field && operator === test.operator);
    if (!known || params.has(known[2])) return null;
    params.set(known[2], test.value);
  }
  const [by, order] = (sort ?? 'name,asc').split(',');
  if (by && by !== 'name') params.set('sort', by);
  if (order === 'desc') params.set('order', 'desc');
  params.set('collection', collectionId);
  return `/libraries/${libraryId}?${params}`;
}

export function SeriesGridScreen({ libraryId }: { libraryId: string }) {
  const { query, path, route } = useLocation();
  const filters: Filters = {
    sort: query.sort ?? 'name',
    order: query.order === 'desc' ? 'desc' : 'asc',
    status: query.status ?? '',
    publisher: query.publisher ?? '',
    name: query.name ?? '',
    ...Object.fromEntries(METADATA_FILTERS.flatMap((f) => (query[f] ? [[f, query[f]]] : []))),
  };
  const scope = libraryId === 'all' ? null : libraryId;
  const version = catalogVersion.value;
  const listKey = JSON.stringify([scope, filters, version]);

  const library = useAsync(
    (signal) => (scope ? get<Library>(`/libraries/${scope}`, { signal }) : Promise.resolve(null)),
    [scope],
  );
  const loadPage = (page: number, signal?: AbortSignal) =>
    post<Page<Series>>(
      '/series/list',
      { condition: seriesCondition(scope, filters) },
      { query: { page: page + 1, pageSize: PAGE_SIZE, sort: `${filters.sort},${filters.order}` }, signal },
    );
  // The first page remembers the filters it answers: until the new filters' one arrives, the previous
  // answer is still shown, and the grid must not take it as the new list's first page.
  const first = useAsync((signal) => loadPage(0, signal).then((page) => Object.assign(page, { listKey })), [listKey]);

  function setFilter(change: Partial<Filters>) {
    const next = { ...filters, ...change };
    const params = new URLSearchParams();
    if (next.sort !== 'name') params.set('sort', next.sort);
    if (next.order !== 'asc') params.set('order', next.order);
    if (next.status) params.set('status', next.status);
    if (next.publisher) params.set('publisher', next.publisher);
    if (next.name) params.set('name', next.name);
    for (const field of METADATA_FILTERS) if (next[field]) params.set(field, next[field] as string);
    if (query.collection) params.set('collection', query.collection);
    const search = params.toString();
    route(`${path}${search ? `?${search}` : ''}`, true);
  }

  const title = scope ? (library.data?.name ?? '') : t('library.all');
  const selection = useSelection();
  return (
    <Main title={title || undefined}>
      <div class="section-head">
        <h1>{title || '\u00a0'}</h1>
        {first.data && <span class="muted">{t('library.series', { count: first.data.total })}</span>}
      </div>
      <form class="toolbar" aria-label={t('filter.title')} onSubmit={(event) => event.preventDefault()}>
        <label class="inline-field">
          <span>{t('filter.sort')}</span>
          <select
            class="select"
            value={filters.sort}
            onChange={(event) => setFilter({ sort: event.currentTarget.value })}
          >
            {SERIES_SORTS.map(([value, key]) => (
              <option key={value} value={value}>
                {t(key)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          class="button"
          aria-label={filters.order === 'asc' ? t('filter.asc') : t('filter.desc')}
          title={filters.order === 'asc' ? t('filter.asc') : t('filter.desc')}
          onClick={() => setFilter({ order: filters.order === 'asc' ? 'desc' : 'asc' })}
        >
          {filters.order === 'asc' ? '↑' : '↓'}
        </button>
        <label class="inline-field">
          <span>{t('filter.status')}</span>
          <select
            class="select"
            value={filters.status}
            onChange={(event) => setFilter({ status: event.currentTarget.value })}
          >
            {READ_STATUSES.map(([value, key]) => (
              <option key={value} value={value}>
                {t(key)}
              </option>
            ))}
          </select>
        </label>
        <label class="inline-field">
          <span>{t('filter.publisher')}</span>
          <input
            class="field__input"
            type="search"
            value={filters.publisher}
            size={12}
            onChange={(event) => setFilter({ publisher: event.currentTarget.value.trim() })}
          />
        </label>
        <label class="inline-field">
          <span>{t('filter.name')}</span>
          <input
            class="field__input"
            type="search"
            value={filters.name}
            size={12}
            onChange={(event) => setFilter({ name: event.currentTarget.value.trim() })}
          />
        </label>
      </form>
      <div class="toolbar">
        <SelectionBar kind="series" selection={selection} onChanged={reloadCatalog} />
      </div>
      <SmartCollectionForm
        filter={{ condition: seriesCondition(scope, filters), sort: `${filters.sort},${filters.order}` }}
        editing={query.collection}
      />
      <Async state={first}>
        {(page) =>
          page.total === 0 ? (
            <p class="muted">{t('library.empty')}</p>
          ) : (
            <VirtualGrid<Series>
              label={title}
              total={page.total}
              pageSize={PAGE_SIZE}
              listKey={listKey}
              loadPage={(index) =>
                index === 0 && page.listKey === listKey
                  ? Promise.resolve(page.data)
                  : loadPage(index).then((p) => p.data)
              }
              render={(series) => <SeriesCard series={series} selection={selection.of(series.id)} />}
              placeholder={<CardPlaceholder />}
            />
          )
        }
      </Async>
    </Main>
  );
}
