/**
 * The reader's entry (lazily imported by the router at /read/:bookId): loads the book and its page list,
 * then opens the comic reader (page images: cbz, cbr, PDF, image EPUBs) or the EPUB reader (reflowable
 * EPUBs, whose page list is empty and whose page images answer 422; DECISIONS.md §Books).
 */
import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import type { Book } from '../api/types';
import { errorText } from '../components/async';
import { t } from '../i18n';
import { refreshCached } from '../offline/offline-library';
import { ComicReader } from './comic-reader';
import { buildViews, viewIndexOfPage } from './layout';
import { viewUrls } from './preload';
import { layoutOptions, loadSettings, readingModeFor } from './settings';
import { type BookAndPages, fetchReadListBooks, fetchSeriesBooks, loadBookAndPages } from './book-requests';
import { peekEarlyLoad, takeEarlyLoad } from './early-load';
import { startingPosition } from './reader-api';
import { apiUrl } from '../api/client';

export { progressSaver } from './reader-api';

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

type Loaded = BookAndPages;

/**
 * Starts fetching the first page's image as soon as the page list is known, at the URL the comic reader
 * will draw, while the app shell may still be starting.
 */
function warmFirstPage(loaded: Loaded): Loaded {
  const { book, pages, progress } = loaded;
  if (pages.length === 0) return loaded;
  warming.length = 0;
  const settings = loadSettings(localStorage);
  const { mode } = readingModeFor(localStorage, book.seriesId, book.readingDirection);
  const views = buildViews(pages, layoutOptions(settings, mode));
  const view = views[viewIndexOfPage(views, startingPosition(book.id, progress).page)];
  if (!view || mode === 'webtoon') return loaded;
  const viewport = { width: innerWidth, height: innerHeight, devicePixelRatio: devicePixelRatio || 1 };
  const geometry = new Map(pages.map((page) => [page.number, page]));
  for (const url of viewUrls(book.id, view, geometry, settings.fit, viewport, mode)) {
    const image = new Image();
    image.fetchPriority = 'high'; // ahead of anything else the page asks for meanwhile
    image.src = url;
    warming.push(image);
  }
  return loaded;
}
/** The first page's images being fetched, held until the reader draws them so the fetch is not dropped. */
const warming: HTMLImageElement[] = [];

/** Resolves when the first page's images have arrived (or failed), at once if none is being fetched. */
function firstPageFetched(): Promise<void> {
  return Promise.all(warming.map((image) => image.decode().catch(() => {}))).then(() => {});
}

// A book opened by address is already loading (early-load.ts): its first image starts as soon as it can.
peekEarlyLoad()
  ?.loading.then(warmFirstPage)
  .catch(() => {});

function loadOnce(bookId: string): Promise<Loaded> {
  return takeEarlyLoad(bookId) ?? loadBookAndPages(bookId).then(warmFirstPage);
}

export function ReaderScreen({ bookId }: { bookId: string }) {
  // `?readlist=<id>`: the book is read from a read list, whose order decides the next and previous book.
  const readListId = useLocation().query.readlist;
  return <ReaderForBook key={bookId} bookId={bookId} readListId={readListId} />;
}

function ReaderForBook({ bookId, readListId }: { bookId: string; readListId?: string }) {
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
        // Next/previous book is not needed for the first page: fetched once that page has arrived, so
        // the request does not share the connection and the server's time with it.
        void firstPageFetched().then(() => {
          if (cancelled) return;
          (readListId ? fetchReadListBooks(readListId) : fetchSeriesBooks(book.seriesId))
            .then((books) => !cancelled && setSeriesBooks(books))
            .catch(() => {});
          void refreshCached(bookId, apiUrl(`/books/${bookId}`)); // its progress opens the book offline
        });
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
