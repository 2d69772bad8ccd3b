/**
 * The comic reader (issue 12 point 3) for cbz, cbr, image EPUBs and PDFs, all read as the server's page
 * images. Paged left-to-right, right-to-left and vertical modes step through the layout engine's views;
 * webtoon mode scrolls every page and carries on into the next book. Images are requested at the width
 * they are drawn at and preloaded ahead; page boxes are sized from the API's page dimensions, so
 * nothing shifts when an image arrives.
 *
 * This file composes the reader's parts: its settings (use-comic-settings.ts), what each action does
 * (comic-actions.ts), the pointer gestures and zoom (gestures.ts), preloading (use-preload.ts), the menu
 * and notices (comic-menu.tsx, on the readers' shared reader-menu.tsx) and the progress it records.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { completesAtPage, lastPage } from '../../../src/progress/rules';
import type { Book, BookPageEntry } from '../api/types';
import { t } from '../i18n';
import { type BookEdge, runComicAction, toggleFullscreen } from './comic-actions';
import { ComicMenu, EdgeNotice } from './comic-menu';
import { actionForKey, actionForSwipe, actionForTap, type ReaderAction, SHORTCUTS } from './controls';
import { type SlotSize, sizeView } from './fit';
import { usePageGestures } from './gestures';
import { buildViews, type PageGeometry, progressPageOf, type View, viewIndexOfPage } from './layout';
import { pageUrl } from './page-url';
import { allViewUrls } from './preload';
import { progressSaver, readingClock } from './reader-api';
import { HelpSheet } from './reader-menu';
import { layoutOptions } from './settings';
import { useComicSettings } from './use-comic-settings';
import { usePreload } from './use-preload';
import { useKeys, useViewport, useWakeLock } from './use-viewport';
import { WebtoonStrip } from './webtoon-strip';
import { isZoomed, zoomTransform } from './zoom';

export interface ComicReaderProps {
  book: Book;
  pages: BookPageEntry[];
  seriesBooks: Book[] | null;
  startPage: number;
}

export function ComicReader({ book, pages, seriesBooks, startPage }: ComicReaderProps) {
  const { route } = useLocation();
  const viewport = useViewport();
  useWakeLock();
  const { settings, updateSettings, mode, modeOverridden, setMode } = useComicSettings(book);
  const geometry = useMemo(() => new Map<number, PageGeometry>(pages.map((p) => [p.number, p])), [pages]);
  const views = useMemo(() => buildViews(pages, layoutOptions(settings, mode)), [pages, settings, mode]);
  const [position, setPosition] = useState({ page: startPage, part: 'whole' as string });
  const [menu, setMenu] = useState(false);
  const [help, setHelp] = useState(false);
  const [edge, setEdge] = useState<BookEdge | null>(null);

  const index = useMemo(() => {
    const exact = views.findIndex((v) => v.slots.some((s) => s.page === position.page && s.part === position.part));
    return exact >= 0 ? exact : viewIndexOfPage(views, position.page);
  }, [views, position]);
  const view: View | undefined = views[index];
  const bookIndex = seriesBooks?.findIndex((b) => b.id === book.id) ?? -1;
  const nextBook = bookIndex >= 0 ? seriesBooks?.[bookIndex + 1] : undefined;
  const previousBook = bookIndex > 0 ? seriesBooks?.[bookIndex - 1] : undefined;

  // Key presses can come faster than renders: turns count from the latest position, not the rendered one.
  const indexRef = useRef(index);
  indexRef.current = index;
  // Opening a book records no position, only turning a page does (DECISIONS.md §Web app): a finished
  // book opened to look at stays read.
  const turned = useRef(false);
  const goToIndex = (target: number) => {
    const clamped = Math.max(0, Math.min(views.length - 1, target));
    if (clamped !== indexRef.current) turned.current = true;
    indexRef.current = clamped;
    const slot = views[clamped]?.slots[0];
    if (slot) setPosition({ page: slot.page, part: slot.part });
    setEdge(null);
  };

  const openBook = (target: Book | undefined) => {
    // The query stays: a book read from a read list carries on through the list.
    if (target) route(`/read/${target.id}${location.search}`);
  };

  const act = (action: ReaderAction) =>
    runComicAction(
      action,
      {
        index: indexRef.current,
        viewCount: views.length,
        edge,
        menu,
        help,
        settings,
        mode,
        nextBook,
        previousBook,
      },
      {
        goToIndex,
        openBook,
        showEdge: setEdge,
        setMenu,
        setHelp,
        updateSettings,
        setMode,
        toggleFullscreen,
        close: () => route(`/books/${book.id}`),
      },
    );

  useKeys((event) => {
    const action = actionForKey(event, mode);
    if (!action) return;
    event.preventDefault();
    act(action);
  });

  // Progress: recorded on every page turn, sent later by the saver (never in the way of a page load).
  const lastView = index === views.length - 1;
  useEffect(() => {
    if (!view || mode === 'webtoon' || !turned.current) return;
    const page = lastView ? lastPage(book.pageCount) : progressPageOf(view);
    const completed = completesAtPage(page, book.pageCount);
    progressSaver.save(book.id, { currentPage: page, completed }, { incognito: settings.incognito });
  }, [view, lastView, mode, settings.incognito, book.id, book.pageCount]);
  useEffect(
    () => () => {
      readingClock.end();
      void progressSaver.flush();
    },
    [],
  );

  // A turned page starts at its top (its zoom resets in gestures.ts).
  const stageRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    stageRef.current?.scrollTo(0, 0);
  }, [index]);

  usePreload({ bookId: book.id, views, geometry, index, fit: settings.fit, mode, viewport, nextBook, stage: stageRef });

  const sizes = useMemo(
    () => (view ? sizeView(view, geometry, settings.fit, viewport, mode) : []),
    [view, geometry, settings.fit, viewport, mode],
  );

  const { zoom, handlers: gestures } = usePageGestures({
    turn: index,
    size: { width: viewport.width, height: viewport.height },
    onTap: (point) => act(actionForTap(point.x, point.y, viewport.width, viewport.height, mode)),
    onSwipe: (dx, dy) => {
      const action = actionForSwipe(dx, dy, mode);
      if (action) act(action);
    },
  });

  const currentPage = view ? progressPageOf(view) : 1;

  return (
    <main class={`rd rd-mode-${mode}`} data-mode={mode} data-layout={settings.layout} data-fit={settings.fit}>
      {mode === 'webtoon' ? (
        <WebtoonStrip
          book={book}
          pages={pages}
          viewport={viewport}
          startPage={position.page}
          nextBook={nextBook}
          seriesBooks={seriesBooks}
          incognito={settings.incognito}
          onTap={() => act('toggleMenu')}
        />
      ) : (
        <div
          ref={stageRef}
          class="rd-stage"
          data-zoomed={isZoomed(zoom) ? 'true' : 'false'}
          onPointerDown={gestures.down}
          onPointerMove={gestures.move}
          onPointerUp={gestures.up}
          onPointerCancel={gestures.cancel}
        >
          <div class="rd-view" style={{ transform: zoomTransform(zoom) }} dir="ltr">
            {sizes.map((slot) => (
              <PageSlot key={`${slot.page}-${slot.part}`} bookId={book.id} pageCount={book.pageCount} slot={slot} />
            ))}
          </div>
        </div>
      )}
      {edge && (
        <EdgeNotice
          edge={edge}
          target={edge === 'end' ? nextBook : previousBook}
          onOpen={openBook}
          onDismiss={() => setEdge(null)}
        />
      )}
      {menu && (
        <ComicMenu
          book={book}
          views={views}
          index={index}
          currentPage={currentPage}
          settings={settings}
          mode={mode}
          modeOverridden={modeOverridden}
          nextBook={nextBook}
          previousBook={previousBook}
          offlineUrls={() => allViewUrls(book.id, views, geometry, settings.fit, viewport, mode)}
          onSettings={updateSettings}
          onMode={setMode}
          onGoTo={goToIndex}
          onOpenBook={openBook}
          onHelp={() => setHelp(true)}
          onClose={() => route(`/books/${book.id}`)}
        />
      )}
      {help && <HelpSheet shortcuts={SHORTCUTS} touch="reader.help.touch" onClose={() => setHelp(false)} />}
    </main>
  );
}

/** One page (or half page) box, sized before the image arrives. */
function PageSlot({ bookId, pageCount, slot }: { bookId: string; pageCount: number; slot: SlotSize }) {
  const url = pageUrl(bookId, slot.page, slot.requestWidth);
  return (
    <div
      class="rd-slot"
      data-page={slot.page}
      data-part={slot.part}
      style={{ width: `${slot.cssWidth}px`, height: `${slot.cssHeight}px` }}
    >
      <img
        src={url}
        alt={t('reader.page', { page: slot.page, total: pageCount })}
        data-page={slot.page}
        draggable={false}
        decoding="async"
        style={{
          width: `${slot.imageCssWidth}px`,
          height: `${slot.cssHeight}px`,
          marginLeft: slot.part === 'right' ? `${-slot.cssWidth}px` : '0',
        }}
      />
    </div>
  );
}
