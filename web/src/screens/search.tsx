/**
 * Instant search: series by relevance (POST /series/search) and books (POST /books/list with
 * `fullTextSearch`) as the user types, the query kept in the address (?q=) so results can be shared.
 */
import { useLocation } from 'preact-iso';
import { useEffect, useRef, useState } from 'preact/hooks';
import { post } from '../api/client';
import type { Book, Page, Series } from '../api/types';
import { Main } from '../components/page-main';
import { Async, useAsync } from '../components/async';
import { BookCard, SeriesCard } from '../components/cards';
import { t } from '../i18n';

const TYPING_PAUSE_MS = 150;
const RESULTS = 24;

export function SearchScreen() {
  const { query, route } = useLocation();
  const [text, setText] = useState(query.q ?? '');
  const [term, setTerm] = useState((query.q ?? '').trim());
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    const trimmed = text.trim();
    // Nothing typed since the address was read: no timer. The router keeps this screen mounted while the
    // next screen's code loads, so a timer left running here could send someone who just clicked away
    // (the Account link, on a slow connection) back to Search.
    if (trimmed === term) return;
    const timer = setTimeout(() => {
      setTerm(trimmed);
      route(trimmed ? `/search?q=${encodeURIComponent(trimmed)}` : '/search', true);
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const results = useAsync(
    async (signal) => {
      if (!term) return null;
      const [series, books] = await Promise.all([
        post<Page<Series>>('/series/search', { query: term }, { query: { pageSize: RESULTS }, signal }),
        post<Page<Book>>('/books/list', { fullTextSearch: term }, { query: { pageSize: RESULTS }, signal }),
      ]);
      return { series, books };
    },
    [term],
  );

  return (
    <Main title={term ? t('search.titleWith', { query: term }) : t('nav.search')}>
      <h1>{t('nav.search')}</h1>
      <search>
        <form onSubmit={(event) => event.preventDefault()}>
          <label class="visually-hidden" for="search-input">
            {t('search.placeholder')}
          </label>
          <input
            id="search-input"
            ref={input}
            class="field__input search-input"
            type="search"
            autoComplete="off"
            placeholder={t('search.placeholder')}
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
          />
        </form>
      </search>
      <div aria-live="polite">
        {term && (
          <Async state={results}>
            {(found) =>
              !found ? null : found.series.total === 0 && found.books.total === 0 ? (
                <p class="muted">{t('search.noResults', { query: term })}</p>
              ) : (
                <>
                  {found.series.total > 0 && (
                    <section>
                      <h2>
                        {t('search.series')} ({found.series.total})
                      </h2>
                      <div class="grid" data-results="series">
                        {found.series.data.map((series) => (
                          <SeriesCard key={series.id} series={series} />
                        ))}
                      </div>
                    </section>
                  )}
                  {found.books.total > 0 && (
                    <section>
                      <h2>
                        {t('search.books')} ({found.books.total})
                      </h2>
                      <div class="grid" data-results="books">
                        {found.books.data.map((book) => (
                          <BookCard key={book.id} book={book} showSeries />
                        ))}
                      </div>
                    </section>
                  )}
                </>
              )
            }
          </Async>
        )}
      </div>
    </Main>
  );
}
