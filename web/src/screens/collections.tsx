/**
 * Collections: every collection the user may see, and one collection's series (in its order, or what a
 * smart collection finds). Maintainers create, delete, and pin smart collections to everyone's home screen.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { apiUrl, del, get, patch, post } from '../api/client';
import type { Book, Collection, Page, Series } from '../api/types';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { BookCard, SeriesCard } from '../components/cards';
import { Main } from '../components/page-main';
import { t } from '../i18n';
import { catalogVersion } from '../state/live';
import { canEditLists } from '../state/session';
import { notFoundFor } from './not-found';
import { gridAddressOf } from './series-grid';

const PAGE = 500;

/** A list's card: its cover (made from its first visible member), name and size. */
export function ListCard({ href, cover, name, sub }: { href: string; cover: string; name: string; sub: string }) {
  return (
    <a class="card-link" href={href}>
      <div class="cover">
        <img src={apiUrl(cover)} alt="" loading="lazy" decoding="async" width={200} height={300} />
      </div>
      <span class="card-link__title">{name}</span>
      <span class="card-link__sub">{sub}</span>
    </a>
  );
}

/** A name and a create button: a new, empty list of that name. */
export function CreateListForm({ base, onCreated }: { base: string; onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  if (!canEditLists.value) return null;
  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      onCreated((await post<{ id: string }>(base, { name: name.trim() })).id);
    } catch (failure) {
      setError(failure);
    }
  }
  return (
    <form class="toolbar" onSubmit={(event) => void submit(event)} data-create-list>
      <label class="visually-hidden" for="new-list-name">
        {t('lists.name')}
      </label>
      <input
        id="new-list-name"
        class="field__input"
        required
        maxLength={200}
        placeholder={t('lists.name')}
        value={name}
        onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)}
      />
      <button type="submit" class="button">
        {t('lists.create')}
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}

export function CollectionsScreen() {
  const { route } = useLocation();
  const version = catalogVersion.value;
  const collections = useAsync(
    (signal) => get<Page<Collection>>('/collections', { query: { pageSize: PAGE }, signal }),
    [version],
  );
  return (
    <Main title={t('lists.collections')}>
      <h1>{t('lists.collections')}</h1>
      <CreateListForm base="/collections" onCreated={(id) => route(`/collections/${id}`)} />
      <Async state={collections}>
        {(page) =>
          page.total === 0 ? (
            <p class="notice">{t('lists.noCollections')}</p>
          ) : (
            <div class="grid" data-collections>
              {page.data.map((collection) => (
                <ListCard
                  key={collection.id}
                  href={`/collections/${collection.id}`}
                  cover={`/collections/${collection.id}/thumbnail`}
                  name={collection.name}
                  sub={
                    collection.automatic ? t('lists.smart') : t('lists.series', { count: collection.seriesCount ?? 0 })
                  }
                />
              ))}
            </div>
          )
        }
      </Async>
    </Main>
  );
}

/** A smart collection of series opens in the series grid with its filter, to be changed and saved again. */
function EditFilterLink({ collection }: { collection: Collection }) {
  const address = gridAddressOf(collection.condition, collection.sort, collection.id);
  if (!address) return <span class="muted">{t('smart.unknownFilter')}</span>;
  return (
    <a class="button" href={address}>
      {t('smart.editFilter')}
    </a>
  );
}

export function CollectionScreen({ collectionId }: { collectionId: string }) {
  const { route } = useLocation();
  const version = catalogVersion.value;
  const collection = useAsync(
    (signal) => get<Collection>(`/collections/${collectionId}`, { signal }),
    [collectionId, version],
  );
  const members = useAsync(
    (signal) =>
      collection.data
        ? get<Page<Series | Book>>(
            `/collections/${collectionId}/${collection.data.automatic && collection.data.target === 'books' ? 'books' : 'series'}`,
            { query: { pageSize: PAGE }, signal },
          )
        : Promise.resolve(null),
    [collectionId, collection.data?.updatedAt, version],
  );
  const [error, setError] = useState<unknown>(null);

  async function pin(pinned: boolean) {
    setError(null);
    try {
      collection.set(await patch<Collection>(`/collections/${collectionId}`, { pinnedToHome: pinned }));
    } catch (failure) {
      setError(failure);
    }
  }
  async function remove(name: string) {
    if (!confirm(t('lists.deleteConfirm', { name }))) return;
    try {
      await del(`/collections/${collectionId}`);
      route('/collections');
    } catch (failure) {
      setError(failure);
    }
  }

  const missing = notFoundFor(collection.error, 'app.listNotFound');
  if (missing) return missing;
  return (
    <Main title={collection.data?.name}>
      <Async state={collection}>
        {(info) => (
          <>
            <h1>{info.name}</h1>
            {info.summary && <p class="summary">{info.summary}</p>}
            {canEditLists.value && (
              <div class="toolbar">
                <label class="checkbox">
                  <input
                    type="checkbox"
                    checked={info.pinnedToHome}
                    data-pin
                    onChange={(event) => void pin((event.currentTarget as HTMLInputElement).checked)}
                  />{' '}
                  {t('lists.pin')}
                </label>
                {info.automatic && info.target === 'series' && <EditFilterLink collection={info} />}
                <button type="button" class="button button--danger" onClick={() => void remove(info.name)}>
                  {t('app.delete')}
                </button>
              </div>
            )}
            <ErrorMessage error={error} />
          </>
        )}
      </Async>
      <Async state={members}>
        {(page) =>
          !page ? null : page.total === 0 ? (
            <p class="notice">{t('lists.empty')}</p>
          ) : (
            <div class="grid" data-members>
              {page.data.map((item) =>
                'seriesId' in item ? (
                  <BookCard key={item.id} book={item as Book} showSeries />
                ) : (
                  <SeriesCard key={item.id} series={item as Series} />
                ),
              )}
            </div>
          )
        }
      </Async>
    </Main>
  );
}
