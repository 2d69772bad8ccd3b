/**
 * "Download for offline" in the reader's menu: keeps the book as this device reads it (page images at
 * the widths shown here, or the EPUB file) plus the API answers the reader opens with, and the app's
 * own files, so the book opens with no network (issue 12 point 7).
 */
import { useState } from 'preact/hooks';
import { apiUrl } from '../api/client';
import type { Book } from '../api/types';
import { t } from '../i18n';
import { downloadBook, isOffline, keepAppShell, offlineSupported, removeOfflineBook } from '../offline/offline-library';
import { SERIES_BOOKS_QUERY } from './book-requests';

/** The API answers a reader needs to open the book (the same URLs the API client asks for). */
export function readerApiUrls(book: Book): string[] {
  return [
    apiUrl(`/books/${book.id}`),
    apiUrl(`/books/${book.id}/pages`),
    apiUrl(`/books/${book.id}/progress`),
    apiUrl(`/series/${book.seriesId}/books`, SERIES_BOOKS_QUERY),
  ];
}

type State = { kind: 'idle' } | { kind: 'busy'; done: number; total: number } | { kind: 'error'; message: string };

export function OfflineButton({ book, kind, urls }: { book: Book; kind: 'pages' | 'epub'; urls: () => string[] }) {
  const [kept, setKept] = useState(() => isOffline(book.id));
  const [state, setState] = useState<State>({ kind: 'idle' });
  if (!offlineSupported()) return null;

  const download = async () => {
    const all = [...readerApiUrls(book), ...urls()];
    setState({ kind: 'busy', done: 0, total: all.length });
    try {
      await keepAppShell();
      await downloadBook({ bookId: book.id, title: book.title, kind, urls: all }, (done, total) =>
        setState({ kind: 'busy', done, total }),
      );
      setKept(true);
      setState({ kind: 'idle' });
    } catch (error) {
      setState({ kind: 'error', message: (error as Error).message });
    }
  };
  const remove = async () => {
    await removeOfflineBook(book.id);
    setKept(false);
  };

  return (
    <div class="rd-offline" data-offline={kept ? 'kept' : 'no'}>
      {state.kind === 'busy' ? (
        <span role="status">{t('reader.offline.downloading', { done: state.done, total: state.total })}</span>
      ) : kept ? (
        <>
          <span role="status">{t('reader.offline.downloaded')}</span>
          <button type="button" class="rd-button rd-secondary" onClick={remove}>
            {t('reader.offline.remove')}
          </button>
        </>
      ) : (
        <button type="button" class="rd-button" onClick={download}>
          {t('reader.offline.download')}
        </button>
      )}
      {state.kind === 'error' && <span role="alert">{t('reader.offline.failed', { message: state.message })}</span>}
    </div>
  );
}
