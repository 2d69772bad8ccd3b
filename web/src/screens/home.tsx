/**
 * Home: what to read next. Keep reading (books in progress), on deck (the next book of series the user
 * has started), recently added books and recently updated series. New books appear without a reload
 * (state/live.ts bumps `catalogVersion`).
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { get } from '../api/client';
import type { Book, Collection, Library, Page, Series, WantToReadEntry } from '../api/types';
import { Main } from '../components/page-main';
import { Async, useAsync } from '../components/async';
import { BookCard, CardPlaceholder, SeriesCard } from '../components/cards';
import { t } from '../i18n';
import { catalogVersion } from '../state/live';
import { isAdmin } from '../state/session';

const ROW_SIZE = 20;

function useRow<T>(path: string) {
  const version = catalogVersion.value;
  return useAsync((signal) => get<Page<T>>(path, { query: { pageSize: ROW_SIZE }, signal }), [path, version]);
}

export function HomeScreen() {
  const keepReading = useRow<Book>('/progress/currently-reading');
  const onDeck = useRow<Book>('/books/on-deck');
  const recentBooks = useRow<Book>('/books/recently-added');
  const recentSeries = useRow<Series>('/series/recently-updated');
  const wantToRead = useRow<WantToReadEntry>('/want-to-read');
  const pinned = useAsync(
    (signal) => get<Page<Collection>>('/collections', { query: { pinned: true, pageSize: 20 }, signal }),
    [catalogVersion.value],
  );
  const loaded = [keepReading, onDeck, recentBooks, recentSeries].every((row) => row.data);
  const empty = loaded && recentBooks.data?.total === 0 && recentSeries.data?.total === 0;

  return (
    <Main title={t('home.title')}>
      <h1 class="visually-hidden">{t('home.title')}</h1>
      {empty && (isAdmin.value ? <AdminEmptyNotice /> : <p class="notice">{t('home.empty')}</p>)}
      <Row title={t('home.keepReading')} id="keep-reading" state={keepReading} hideWhenEmpty>
        {(page) => page.data.map((book) => <BookCard key={book.id} book={book} showSeries />)}
      </Row>
      <Row title={t('home.onDeck')} id="on-deck" state={onDeck} hideWhenEmpty>
        {(page) => page.data.map((book) => <BookCard key={book.id} book={book} showSeries />)}
      </Row>
      <Row title={t('home.wantToRead')} id="want-to-read" state={wantToRead} hideWhenEmpty>
        {(page) =>
          page.data.map((entry) =>
            entry.series ? (
              <SeriesCard key={entry.id} series={entry.series} />
            ) : entry.book ? (
              <BookCard key={entry.id} book={entry.book} showSeries />
            ) : null,
          )
        }
      </Row>
      {(pinned.data?.data ?? []).map((collection) => (
        <PinnedRow key={collection.id} collection={collection} />
      ))}
      <Row title={t('home.recentlyAdded')} id="recently-added" state={recentBooks} hideWhenEmpty={empty}>
        {(page) => page.data.map((book) => <BookCard key={book.id} book={book} showSeries />)}
      </Row>
      <Row
        title={t('home.recentlyUpdated')}
        id="recently-updated"
        state={recentSeries}
        hideWhenEmpty={empty}
        seeAll="/libraries/all?sort=date_updated&order=desc"
      >
        {(page) => page.data.map((series) => <SeriesCard key={series.id} series={series} />)}
      </Row>
    </Main>
  );
}

/**
 * An administrator with nothing to read: without a library, the first-run wizard's library step (the
 * server's state decides it: a reload or a later visit still offers it); with empty ones, where to add books.
 */
function AdminEmptyNotice() {
  const libraries = useAsync((signal) => get<Library[]>('/libraries', { signal }), []);
  if (!libraries.data) return null;
  return libraries.data.length === 0 ? (
    <p class="notice" data-first-library>
      {t('home.noLibraries')} <a href="/setup">{t('home.createFirstLibrary')}</a>
    </p>
  ) : (
    <p class="notice">
      {t('home.emptyAdmin')} <a href="/admin/libraries">{t('admin.libraries')}</a>
    </p>
  );
}

/** A smart collection pinned to home: its first series (or books), re-evaluated on every visit. */
function PinnedRow({ collection }: { collection: Collection }) {
  const members = collection.automatic && collection.target === 'books' ? 'books' : 'series';
  const state = useRow<Series | Book>(`/collections/${collection.id}/${members}`);
  return (
    <Row
      title={collection.name}
      id={`collection-${collection.id}`}
      state={state}
      hideWhenEmpty
      seeAll={`/collections/${collection.id}`}
    >
      {(page) =>
        page.data.map((item) =>
          'seriesId' in item ? (
            <BookCard key={item.id} book={item as Book} showSeries />
          ) : (
            <SeriesCard key={item.id} series={item as Series} />
          ),
        )
      }
    </Row>
  );
}

/**
 * A row of cards that scrolls sideways. Where the row overflows, buttons scroll it a screenful at a time
 * (a mouse has no sideways swipe), and a row whose items have a screen of their own links to it with
 * "See all" (issue 31 point 12: rows were cut off at the right with no way on).
 */
function Row<T>({
  title,
  id,
  state,
  hideWhenEmpty = false,
  seeAll,
  children,
}: {
  title: string;
  id: string;
  state: ReturnType<typeof useRow<T>>;
  hideWhenEmpty?: boolean;
  /** The screen that shows every item of the row. */
  seeAll?: string;
  children: (page: Page<T>) => ComponentChildren;
}) {
  const row = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ start: true, end: true });
  const measure = () => {
    const element = row.current;
    if (!element) return;
    const next = {
      start: element.scrollLeft <= 1,
      end: element.scrollLeft + element.clientWidth >= element.scrollWidth - 1,
    };
    setEdges((previous) => (previous.start === next.start && previous.end === next.end ? previous : next));
  };
  useLayoutEffect(() => {
    measure();
    const element = row.current;
    if (!element) return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  });
  if (hideWhenEmpty && state.data?.total === 0) return null;
  const scroll = (direction: 1 | -1) =>
    row.current?.scrollBy({ left: direction * row.current.clientWidth * 0.9, behavior: 'smooth' });
  const placeholder = (
    <div class="row">
      {[0, 1, 2, 3, 4].map((index) => (
        <CardPlaceholder key={index} />
      ))}
    </div>
  );
  return (
    <section aria-labelledby={`row-${id}`} data-row={id}>
      <div class="section-head">
        <h2 id={`row-${id}`}>{title}</h2>
        <span class="row-controls">
          {!(edges.start && edges.end) && (
            <>
              <button
                type="button"
                class="button button--small row-controls__scroll"
                aria-label={t('home.scrollBack', { row: title })}
                disabled={edges.start}
                onClick={() => scroll(-1)}
              >
                ‹
              </button>
              <button
                type="button"
                class="button button--small row-controls__scroll"
                aria-label={t('home.scrollOn', { row: title })}
                disabled={edges.end}
                onClick={() => scroll(1)}
              >
                ›
              </button>
            </>
          )}
          {seeAll && (
            <a href={seeAll} data-see-all aria-label={t('home.seeAllOf', { row: title })}>
              {t('home.seeAll')}
            </a>
          )}
        </span>
      </div>
      <Async state={state} placeholder={placeholder}>
        {(page) => (
          <div class="row" ref={row} onScroll={measure}>
            {children(page)}
          </div>
        )}
      </Async>
    </section>
  );
}
