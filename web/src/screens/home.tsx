/**
 * Home: what to read next. Keep reading (books in progress), on deck (the next book of series the user
 * has started), recently added books and recently updated series. New books appear without a reload
 * (state/live.ts bumps `catalogVersion`).
 */
import type { ComponentChildren } from 'preact';
import { get } from '../api/client';
import type { Book, Page, Series } from '../api/types';
import { Main } from '../components/page-main';
import { Async, useAsync } from '../components/async';
import { BookCard, CardPlaceholder, SeriesCard } from '../components/cards';
import { t } from '../i18n';
import { catalogVersion } from '../state/live';

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
  const loaded = [keepReading, onDeck, recentBooks, recentSeries].every((row) => row.data);
  const empty = loaded && recentBooks.data?.total === 0 && recentSeries.data?.total === 0;

  return (
    <Main>
      <h1 class="visually-hidden">{t('home.title')}</h1>
      {empty && <p class="notice">{t('home.empty')}</p>}
      <Row title={t('home.keepReading')} id="keep-reading" state={keepReading} hideWhenEmpty>
        {(page) => page.data.map((book) => <BookCard key={book.id} book={book} showSeries />)}
      </Row>
      <Row title={t('home.onDeck')} id="on-deck" state={onDeck} hideWhenEmpty>
        {(page) => page.data.map((book) => <BookCard key={book.id} book={book} showSeries />)}
      </Row>
      <Row title={t('home.recentlyAdded')} id="recently-added" state={recentBooks} hideWhenEmpty={empty}>
        {(page) => page.data.map((book) => <BookCard key={book.id} book={book} showSeries />)}
      </Row>
      <Row title={t('home.recentlyUpdated')} id="recently-updated" state={recentSeries} hideWhenEmpty={empty}>
        {(page) => page.data.map((series) => <SeriesCard key={series.id} series={series} />)}
      </Row>
    </Main>
  );
}

function Row<T>({
  title,
  id,
  state,
  hideWhenEmpty = false,
  children,
}: {
  title: string;
  id: string;
  state: ReturnType<typeof useRow<T>>;
  hideWhenEmpty?: boolean;
  children: (page: Page<T>) => ComponentChildren;
}) {
  if (hideWhenEmpty && state.data?.total === 0) return null;
  const placeholder = (
    <div class="row">
      {[0, 1, 2, 3, 4].map((index) => (
        <CardPlaceholder key={index} />
      ))}
    </div>
  );
  return (
    <section aria-labelledby={`row-${id}`} data-row={id}>
      <h2 id={`row-${id}`}>{title}</h2>
      <Async state={state} placeholder={placeholder}>
        {(page) => <div class="row">{children(page)}</div>}
      </Async>
    </section>
  );
}
