/**
 * The reader's entry (lazily imported by the router at /read/:bookId): loads the book and its page list,
 * then opens the comic reader (page images: cbz, cbr, PDF, image EPUBs) or the EPUB reader (reflowable
 * EPUBs, whose page list is empty and whose page images answer 422; DECISIONS.md §Books).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Book, BookPageEntry } from '../api/types';
import { errorText } from '../components/async';
import { t } from '../i18n';
import { refreshCached } from '../offline/offline-library';
import { ComicReader } from './comic-reader';
import {
  fetchBook,
  fetchPages,
  fetchProgress,
  fetchSeriesBooks,
  type ServerProgress,
  startingPosition,
} from './reader-api';
import { apiUrl } from '../api/client';
import './reader.css';

type EpubReaderComponent = typeof import('./epub-reader').EpubReader;

/** The EPUB reader (and foliate-js) load only when an EPUB is opened. */
function LazyEpubReader(props: Parameters<EpubReaderComponent>[0]) {
  const [Reader, setReader] = useState<EpubReaderComponent | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    import('./epub-reader').then((module) => setReader(() => module.EpubReader), setError);
  }, []);
  if (error) {
    return (
      <main class="rd-message">
        <p role="alert">{t('reader.error', { message: errorText(error) })}</p>
      </main>
    );
  }
  if (!Reader) return <main class="rd-message">{t('reader.loading')}</main>;
  return <Reader {...props} />;
}

interface Loaded {
  book: Book;
  pages: BookPageEntry[];
  progress: ServerProgress | null;
}

function load(bookId: string): Promise<Loaded> {
  // The book, its pages and its progress in parallel: none needs another's answer.
  return Promise.all([fetchBook(bookId), fetchPages(bookId), fetchProgress(bookId).catch(() => null)]).then(
    ([book, pages, progress]) => ({
      book,
      pages,
      progress: progress ?? (book.readProgress as ServerProgress | undefined) ?? null,
    }),
  );
}

/**
 * A book opened by address (a link, a reload) starts loading as soon as this module does: main.tsx
 * imports it early for /read/ addresses, so the reader's code, the book and its pages arrive while the
 * app shell is still starting, instead of one after the other. Used once; later opens load afresh.
 */
const early = new Map<string, Promise<Loaded>>();
const opened = /^\/read\/([^/?#]+)/.exec(location.pathname)?.[1];
if (opened) early.set(opened, load(opened));

function loadOnce(bookId: string): Promise<Loaded> {
  const started = early.get(bookId);
  early.delete(bookId);
  return started ?? load(bookId);
}

export function ReaderScreen({ bookId }: { bookId: string }) {
  return <ReaderForBook key={bookId} bookId={bookId} />;
}

function ReaderForBook({ bookId }: { bookId: string }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [seriesBooks, setSeriesBooks] = useState<Book[] | null>(null);

  useEffect(() => {
    let cancelled = false;
    loadOnce(bookId)
      .then((result) => {
        if (cancelled) return;
        const { book } = result;
        document.title = book.title;
        setLoaded(result);
        // Next/previous book is not needed for the first page: fetched after it.
        fetchSeriesBooks(book.seriesId)
          .then((books) => !cancelled && setSeriesBooks(books))
          .catch(() => {});
        void refreshCached(bookId, apiUrl(`/books/${bookId}/progress`));
      })
      .catch((reason) => !cancelled && setError(reason));
    return () => {
      cancelled = true;
    };
  }, [bookId]);

  if (error) {
    return (
      <main class="rd-message">
        <p role="alert">{t('reader.error', { message: errorText(error) })}</p>
        <a href={`/books/${bookId}`}>{t('reader.backToBook')}</a>
      </main>
    );
  }
  if (!loaded) {
    return (
      <main class="rd-message" aria-busy="true">
        <p>{t('reader.loading')}</p>
      </main>
    );
  }
  const { book, pages, progress } = loaded;
  const start = startingPosition(bookId, progress);
  if (book.fileFormat === 'epub' && pages.length === 0 && book.pageCount > 0) {
    return <LazyEpubReader book={book} start={start} />;
  }
  if (pages.length === 0) {
    return (
      <main class="rd-message">
        <p role="alert">{t('reader.noPages')}</p>
        <a href={`/books/${bookId}`}>{t('reader.backToBook')}</a>
      </main>
    );
  }
  const page = Math.min(Math.max(1, start.page), pages.length);
  return <ComicReader book={book} pages={pages} seriesBooks={seriesBooks} startPage={page} />;
}
