/**
 * A book: metadata, the user's progress (kept current while the page is open, so progress made on
 * another device shows up here), mark read/unread, download, and Read. Progress is not an entity event
 * of API.md §6, so the open page asks for it again every few seconds while visible and whenever the tab
 * comes back into view.
 */
import { useEffect, useState } from 'preact/hooks';
import { readFraction } from '../../../src/progress/rules';
import { ApiError, apiUrl, del, get, post } from '../api/client';
import type { Book, BookMetadata, Page, ReadProgress } from '../api/types';
import { canEdit, EditMetadataDialog, MetadataFacts } from '../components/metadata';
import { Main } from '../components/page-main';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { Cover, ProgressBar } from '../components/cards';
import { AddToList, WantToReadToggle } from '../components/list-actions';
import { t } from '../i18n';
import { catalogVersion } from '../state/live';
import { notFoundFor } from './not-found';
import { isAdmin } from '../state/session';
import { useLocation } from 'preact-iso';

export const PROGRESS_REFRESH_MS = 4000;

async function fetchProgress(bookId: string): Promise<ReadProgress | null> {
  try {
    return await get<ReadProgress>(`/books/${bookId}/progress`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The user's progress in a book, refreshed while the page is visible. */
function useLiveProgress(bookId: string, initial: ReadProgress | null | undefined) {
  const [progress, setProgress] = useState<ReadProgress | null | undefined>(initial);
  useEffect(() => setProgress(initial), [initial]);
  useEffect(() => {
    let stopped = false;
    const refresh = () => {
      if (document.visibilityState !== 'visible') return;
      fetchProgress(bookId)
        .then((value) => !stopped && setProgress(value))
        .catch(() => {}); // offline for a moment: keep what is shown
    };
    const timer = setInterval(refresh, PROGRESS_REFRESH_MS);
    document.addEventListener('visibilitychange', refresh);
    addEventListener('focus', refresh);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
      removeEventListener('focus', refresh);
    };
  }, [bookId]);
  return [progress, setProgress] as const;
}

function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/**
 * The reader's code, fetched while the book page is read and again (a no-op by then) when the Read button
 * is pointed at, focused or touched: pressing it then waits only for the book's pages.
 */
function preloadReader(): void {
  import('../reader/index').catch(() => {}); // a failure shows when the reader itself is opened
}

export function BookScreen({ bookId }: { bookId: string }) {
  const version = catalogVersion.value;
  const book = useAsync((signal) => get<Book>(`/books/${bookId}`, { signal }), [bookId, version]);
  useEffect(() => {
    if (book.data) preloadReader();
  }, [book.data !== undefined]);
  const siblings = useAsync(
    (signal) =>
      book.data
        ? get<Page<Book>>(`/series/${book.data.seriesId}/books`, { query: { pageSize: 500 }, signal })
        : Promise.resolve(null),
    [book.data?.seriesId, version],
  );
  const [progress, setProgress] = useLiveProgress(bookId, book.data ? (book.data.readProgress ?? null) : undefined);
  const [error, setError] = useState<unknown>(null);
  const metadata = useAsync((signal) => get<BookMetadata>(`/books/${bookId}/metadata`, { signal }), [bookId, version]);
  const [editing, setEditing] = useState(false);
  const { route } = useLocation();

  async function deleteFile(info: Book) {
    if (!confirm(t('delete.bookConfirm', { title: info.title, path: info.path }))) return;
    setError(null);
    try {
      await del(`/books/${bookId}/file`, { query: { confirm: true } });
      // The series' last book takes the series with it: back to its library then.
      const others = (siblings.data?.data ?? []).filter((entry) => entry.id !== bookId);
      route(others.length > 0 ? `/series/${info.seriesId}` : `/libraries/${info.libraryId}`);
    } catch (failure) {
      setError(failure);
    }
  }

  async function mark(state: 'read' | 'unread') {
    setError(null);
    try {
      await post(`/books/${bookId}/${state}`);
      setProgress(await fetchProgress(bookId));
    } catch (failure) {
      setError(failure);
    }
  }

  const list = siblings.data?.data ?? [];
  const index = list.findIndex((entry) => entry.id === bookId);
  const previous = index > 0 ? list[index - 1] : undefined;
  const next = index >= 0 ? list[index + 1] : undefined;
  const missing = notFoundFor(book.error, 'app.bookNotFound');
  if (missing) return missing;

  return (
    <Main title={book.data?.title}>
      <Async state={book}>
        {(info) => {
          const fraction = readFraction(progress, info.pageCount);
          return (
            <div class="detail">
              <div class="detail__cover">
                <Cover kind="books" id={info.id} version={info.coverVersion} alt={info.title} />
              </div>
              <div class="detail__body">
                <p class="muted">
                  <a href={`/series/${info.seriesId}`}>{info.seriesName}</a>
                </p>
                <h1>{info.title}</h1>
                <div class="progress-line" data-progress>
                  <span>
                    {progress?.completed
                      ? t('book.completed')
                      : progress
                        ? t('book.progress', { page: progress.currentPage, total: info.pageCount })
                        : t('book.unread')}
                  </span>
                  <ProgressBar fraction={fraction} label={t('book.progressLabel')} />
                </div>
                <div class="toolbar">
                  <a
                    class="button button--primary"
                    href={`/read/${info.id}`}
                    onPointerEnter={preloadReader}
                    onFocus={preloadReader}
                    onTouchStart={preloadReader}
                  >
                    {progress && !progress.completed
                      ? t('book.continue', { page: progress.currentPage })
                      : t('book.read')}
                  </a>
                  {progress?.completed ? (
                    <button type="button" class="button" onClick={() => void mark('unread')}>
                      {t('series.markUnread')}
                    </button>
                  ) : (
                    <button type="button" class="button" onClick={() => void mark('read')}>
                      {t('series.markRead')}
                    </button>
                  )}
                  <WantToReadToggle kind="book" id={info.id} queued={info.wantToRead ?? false} />
                  <a class="button" href={apiUrl(`/books/${info.id}/file`)} download>
                    {t('book.download')}
                  </a>
                  {canEdit('books') && metadata.data && (
                    <button type="button" class="button" data-edit onClick={() => setEditing(true)}>
                      {t('metadata.edit')}
                    </button>
                  )}
                  {isAdmin.value && !info.deleted && (
                    <button
                      type="button"
                      class="button button--danger"
                      data-delete-file
                      onClick={() => void deleteFile(info)}
                    >
                      {t('delete.book')}
                    </button>
                  )}
                </div>
                {editing && metadata.data && (
                  <EditMetadataDialog
                    kind="books"
                    id={bookId}
                    metadata={metadata.data}
                    onClose={() => setEditing(false)}
                  />
                )}
                <ErrorMessage error={error} />
                <AddToList kind="readlist" ids={() => [info.id]} />
                {info.summary && <p class="summary">{info.summary}</p>}
                {metadata.data && <MetadataFacts metadata={metadata.data} />}
                <dl class="facts">
                  {metadata.data && (metadata.data.publisher || metadata.data.year) && (
                    <>
                      <dt>{t('metadata.publisher')}</dt>
                      <dd>{[metadata.data.publisher, metadata.data.year].filter(Boolean).join(' · ')}</dd>
                    </>
                  )}
                  <dt>{t('book.format')}</dt>
                  <dd>{info.fileFormat.toUpperCase()}</dd>
                  <dt>{t('book.pagesLabel')}</dt>
                  <dd>{info.pageCount}</dd>
                  {info.numberSort !== null && (
                    <>
                      <dt>{t('book.number')}</dt>
                      <dd>{info.numberSort}</dd>
                    </>
                  )}
                  <dt>{t('book.size')}</dt>
                  <dd>{formatSize(info.fileSize)}</dd>
                  <dt>{t('book.path')}</dt>
                  <dd class="facts__path">{info.path}</dd>
                </dl>
                {info.analysisError && <p class="error">{info.analysisError}</p>}
                <nav class="toolbar" aria-label={t('series.books')}>
                  {previous && (
                    <a class="button button--small" href={`/books/${previous.id}`} rel="prev">
                      ← {t('book.previous')}
                    </a>
                  )}
                  {next && (
                    <a class="button button--small" href={`/books/${next.id}`} rel="next">
                      {t('book.next')} →
                    </a>
                  )}
                </nav>
              </div>
            </div>
          );
        }}
      </Async>
    </Main>
  );
}
