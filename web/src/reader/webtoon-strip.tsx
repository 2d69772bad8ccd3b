/**
 * Webtoon mode: every page stacked in one continuous scroll, each box sized from the page dimensions so
 * the scroll position is stable while images load (kavita#2088). Near the end the next book's pages are
 * appended and reading carries on into it (kavita#1942); the address and progress follow the book being
 * read.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { completesAtPage, lastPage } from '../../../src/progress/rules';
import type { Book, BookPageEntry } from '../api/types';
import { t } from '../i18n';
import { sizeView, type Viewport } from './fit';
import { pageUrl } from './page-url';
import { fetchPages } from './book-requests';
import { progressSaver } from './reader-api';
import type { Point } from './zoom';

interface Segment {
  book: Book;
  pages: BookPageEntry[];
}

export interface WebtoonStripProps {
  book: Book;
  pages: BookPageEntry[];
  viewport: Viewport;
  startPage: number;
  nextBook: Book | undefined;
  seriesBooks: Book[] | null;
  incognito: boolean;
  /** A tap toggles the menu (scrolling does the reading). */
  onTap: (point: Point) => void;
}

/** The next book is appended once the reader is this many screens from the end. */
const APPEND_WITHIN_SCREENS = 3;

export function WebtoonStrip(props: WebtoonStripProps) {
  const { viewport } = props;
  const [segments, setSegments] = useState<Segment[]>([{ book: props.book, pages: props.pages }]);
  const [current, setCurrent] = useState({ bookId: props.book.id, page: props.startPage });
  const scroller = useRef<HTMLDivElement>(null);
  const appending = useRef(false);
  // Opening the strip (and scrolling it to the starting page) records nothing: the reader's own scroll
  // does (DECISIONS.md §Web app). A wheel, a touch, a key or a pointer on the scrollbar comes first.
  const scrolledByReader = useRef(false);
  useEffect(() => {
    const byReader = () => {
      scrolledByReader.current = true;
    };
    addEventListener('keydown', byReader);
    return () => removeEventListener('keydown', byReader);
  }, []);

  // Open at the starting page.
  useEffect(() => {
    scroller.current
      ?.querySelector(`[data-book="${props.book.id}"][data-page="${props.startPage}"]`)
      ?.scrollIntoView({ block: 'start' });
  }, []);

  const nextOf = (book: Book): Book | undefined => {
    const books = props.seriesBooks ?? [];
    const index = books.findIndex((b) => b.id === book.id);
    return index >= 0 ? books[index + 1] : undefined;
  };

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    // The page under the middle of the screen is the one being read.
    const hit = document.elementFromPoint(viewport.width / 2, viewport.height / 2) as HTMLElement | null;
    const box = hit?.closest<HTMLElement>('[data-book]');
    if (box?.dataset.book && box.dataset.page) {
      const next = { bookId: box.dataset.book, page: Number(box.dataset.page) };
      if (next.bookId !== current.bookId || next.page !== current.page) setCurrent(next);
    }
    const remaining = element.scrollHeight - element.scrollTop - element.clientHeight;
    const last = segments[segments.length - 1]!;
    const following = nextOf(last.book);
    if (remaining < viewport.height * APPEND_WITHIN_SCREENS && following && !appending.current) {
      appending.current = true;
      fetchPages(following.id)
        .then((pages) => {
          if (pages.length > 0) setSegments((all) => [...all, { book: following, pages }]);
        })
        .catch(() => {})
        .finally(() => {
          appending.current = false;
        });
    }
  };

  // Progress and address follow the page being read; a book scrolled past is finished.
  useEffect(() => {
    const segmentIndex = segments.findIndex((s) => s.book.id === current.bookId);
    const segment = segments[segmentIndex];
    if (!segment) return;
    if (scrolledByReader.current) {
      progressSaver.save(
        segment.book.id,
        {
          currentPage: Math.min(current.page, segment.book.pageCount),
          completed: completesAtPage(current.page, segment.book.pageCount),
        },
        { incognito: props.incognito },
      );
    }
    if (segmentIndex > 0) {
      const previous = segments[segmentIndex - 1]!.book;
      progressSaver.save(
        previous.id,
        { currentPage: lastPage(previous.pageCount), completed: true },
        { incognito: props.incognito },
      );
    }
    if (!location.pathname.endsWith(`/read/${current.bookId}`)) {
      history.replaceState(history.state, '', `/read/${current.bookId}`);
      document.title = segment.book.title;
    }
  }, [current, segments, props.incognito]);

  const lastSegment = segments[segments.length - 1]!;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: Enter opens the menu from the keyboard (controls.ts)
    <div
      ref={scroller}
      class="rd-webtoon"
      onScroll={onScroll}
      onWheel={() => {
        scrolledByReader.current = true;
      }}
      onTouchMove={() => {
        scrolledByReader.current = true;
      }}
      onPointerDown={() => {
        scrolledByReader.current = true;
      }}
      onClick={(event) => props.onTap({ x: event.clientX, y: event.clientY })}
    >
      {segments.map((segment) => (
        <SegmentPages key={segment.book.id} segment={segment} viewport={viewport} />
      ))}
      <p class="rd-webtoon-end">{nextOf(lastSegment.book) ? t('app.loading') : t('reader.lastBook')}</p>
    </div>
  );
}

function SegmentPages({ segment, viewport }: { segment: Segment; viewport: Viewport }) {
  const geometry = useMemo(() => new Map(segment.pages.map((p) => [p.number, p])), [segment.pages]);
  return (
    <section class="rd-webtoon-book" aria-label={segment.book.title}>
      {segment.pages.map((page) => {
        const [size] = sizeView(
          { slots: [{ page: page.number, part: 'whole' }] },
          geometry,
          'width',
          viewport,
          'webtoon',
        );
        return (
          <div
            key={page.number}
            class="rd-slot"
            data-book={segment.book.id}
            data-page={page.number}
            style={{ width: `${size!.cssWidth}px`, height: `${size!.cssHeight}px` }}
          >
            <img
              src={pageUrl(segment.book.id, page.number, size!.requestWidth)}
              alt={t('reader.page', { page: page.number, total: segment.book.pageCount })}
              data-page={page.number}
              loading={page.number <= 2 ? 'eager' : 'lazy'}
              decoding="async"
              draggable={false}
              style={{ width: `${size!.cssWidth}px`, height: `${size!.cssHeight}px` }}
            />
          </div>
        );
      })}
    </section>
  );
}
