/**
 * A series: its metadata, its release tracking, its books in reading order with the user's progress, mark all
 * read/unread.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { del, get, post } from '../api/client';
import type { Book, Page, Series, SeriesMetadata } from '../api/types';
import { canEdit, EditMetadataDialog, MetadataFacts } from '../components/metadata';
import { Main } from '../components/page-main';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { BookCard, CardPlaceholder, Cover } from '../components/cards';
import { AddToList, WantToReadToggle } from '../components/list-actions';
import { t } from '../i18n';
import { SelectionBar, useSelection } from '../components/selection';
import { catalogVersion } from '../state/live';
import { isAdmin } from '../state/session';
import { SeriesSharingTags } from '../admin/series-sharing-tags';
import { TrackingCard } from '../components/tracking-card';
import { notFoundFor } from './not-found';

/** A series has at most a few hundred books; 500 is the API's largest page. */
const BOOKS_PAGE = 500;

export function SeriesScreen({ seriesId }: { seriesId: string }) {
  const version = catalogVersion.value;
  const series = useAsync((signal) => get<Series>(`/series/${seriesId}`, { signal }), [seriesId, version]);
  const books = useAsync(
    (signal) => get<Page<Book>>(`/series/${seriesId}/books`, { query: { pageSize: BOOKS_PAGE }, signal }),
    [seriesId, version],
  );
  const metadata = useAsync(
    (signal) => get<SeriesMetadata>(`/series/${seriesId}/metadata`, { signal }),
    [seriesId, version],
  );
  // The age rating decides who sees the series: only users with UsersWrite get its field in the dialog.
  const me = useAsync((signal) => get<{ effectivePermissions: string[] }>('/auth/me', { signal }), []);
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState(false);
  const selection = useSelection();
  const { route } = useLocation();

  async function deleteFiles(info: Series) {
    const message =
      info.bookCount === 1
        ? t('delete.seriesConfirm.one', { title: info.title })
        : t('delete.seriesConfirm', { title: info.title, count: info.bookCount });
    if (!confirm(message)) return;
    setError(null);
    try {
      await del(`/series/${seriesId}/file`, { query: { confirm: true } });
      route(`/libraries/${info.libraryId}`);
    } catch (failure) {
      setError(failure);
    }
  }

  async function mark(state: 'read' | 'unread') {
    setError(null);
    try {
      await post(`/series/${seriesId}/${state}`);
      series.reload();
      books.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  // The book the Read button opens: the first not finished, passing over one nobody can open (its
  // analysis failed), as on deck does (DECISIONS.md §Books).
  const next = books.data?.data.find((book) => !book.readProgress?.completed && !book.analysisError);
  const missing = notFoundFor(series.error, 'app.seriesNotFound');
  if (missing) return missing;
  return (
    <Main title={series.data?.title}>
      <Async state={series}>
        {(info) => (
          <div class="detail">
            <div class="detail__cover">
              <Cover kind="series" id={info.id} version={info.coverVersion} alt={info.title} />
            </div>
            <div class="detail__body">
              <p class="muted">
                <a href={`/libraries/${info.libraryId}`}>{info.libraryName}</a>
              </p>
              <h1>{info.title}</h1>
              <p class="muted">
                {[info.publisher, info.year, t('series.bookCount', { count: info.bookCount })]
                  .filter(Boolean)
                  .join(' · ')}
                {info.unreadCount ? ` · ${t('series.unread', { count: info.unreadCount })}` : ''}
              </p>
              {info.ageRating !== null && (
                <p class="muted" data-age-rating>
                  {t('series.ageRating', { age: info.ageRating })}
                </p>
              )}
              {info.summary && <p class="summary">{info.summary}</p>}
              {metadata.data && <MetadataFacts metadata={metadata.data} />}
              <div class="toolbar">
                {next && (
                  <a class="button button--primary" href={`/read/${next.id}`}>
                    {next.readProgress ? t('book.continue', { page: next.readProgress.currentPage }) : t('book.read')}
                  </a>
                )}
                <button type="button" class="button" onClick={() => void mark('read')}>
                  {t('series.markRead')}
                </button>
                <button type="button" class="button" onClick={() => void mark('unread')}>
                  {t('series.markUnread')}
                </button>
                {/* Once /auth/me has answered: the dialog's fields (the age rating or not) are fixed when it opens. */}
                {canEdit('series') && metadata.data && !me.loading && (
                  <button type="button" class="button" data-edit onClick={() => setEditing(true)}>
                    {t('metadata.edit')}
                  </button>
                )}
                <WantToReadToggle kind="series" id={info.id} queued={info.wantToRead ?? false} />
              </div>
              <div class="toolbar">
                <AddToList kind="collection" ids={() => [info.id]} />
                <AddToList kind="readlist" ids={() => (books.data?.data ?? []).map((book) => book.id)} />
              </div>
              {editing && metadata.data && (
                <EditMetadataDialog
                  kind="series"
                  id={seriesId}
                  metadata={metadata.data}
                  rates={me.data?.effectivePermissions.some((p) => p === 'UsersWrite' || p === 'SystemAdmin') ?? false}
                  onClose={() => setEditing(false)}
                />
              )}
              <ErrorMessage error={error} />
              {isAdmin.value && <SeriesSharingTags seriesId={info.id} />}
              {isAdmin.value && (
                <div class="toolbar">
                  <button
                    type="button"
                    class="button button--danger"
                    data-delete-files
                    onClick={() => void deleteFiles(info)}
                  >
                    {t('delete.series')}
                  </button>
                </div>
              )}
            </div>
          </div>
        )}
      </Async>
      {series.data && <TrackingCard series={series.data} onChange={series.reload} />}
      <div class="section-head">
        <h2>{t('series.books')}</h2>
        <SelectionBar
          kind="books"
          selection={selection}
          onChanged={() => {
            series.reload();
            books.reload();
          }}
        />
      </div>
      <Async
        state={books}
        placeholder={
          <div class="grid">
            {[0, 1, 2, 3].map((index) => (
              <CardPlaceholder key={index} />
            ))}
          </div>
        }
      >
        {(page) => (
          <div class="grid" data-books>
            {page.data.map((book) => (
              <BookCard key={book.id} book={book} selection={selection.of(book.id)} />
            ))}
          </div>
        )}
      </Async>
    </Main>
  );
}
