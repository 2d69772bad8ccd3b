/**
 * The comic reader (issue 12 point 3) for cbz, cbr, image EPUBs and PDFs, all read as the server's page
 * images. Paged left-to-right, right-to-left and vertical modes step through the layout engine's views;
 * webtoon mode scrolls every page and carries on into the next book. Images are requested at the width
 * they are drawn at and preloaded ahead; page boxes are sized from the API's page dimensions, so
 * nothing shifts when an image arrives.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { completesAtPage, lastPage } from '../../../src/progress/rules';
import type { Book, BookPageEntry } from '../api/types';
import { t } from '../i18n';
import { actionForKey, actionForSwipe, actionForTap, type ReaderAction, SHORTCUTS } from './controls';
import { type FitMode, roundUpToStep, type SlotSize, sizeView } from './fit';
import { buildViews, type PageGeometry, progressPageOf, type ReadingMode, type View, viewIndexOfPage } from './layout';
import { OfflineButton } from './offline-button';
import { pageUrl } from './page-url';
import { DEFAULT_PRELOAD, nearEnd, planPreload, viewUrls } from './preload';
import { progressSaver } from './reader-api';
import {
  type ComicSettings,
  FIT_MODES,
  layoutOptions,
  loadSettings,
  nextIn,
  overrideSeriesMode,
  READING_MODES,
  readingModeFor,
  saveSettings,
} from './settings';
import { useKeys, useViewport, useWakeLock } from './use-viewport';
import { WebtoonStrip } from './webtoon-strip';
import {
  clampZoom,
  distance,
  doubleTap,
  isZoomed,
  midpoint,
  NO_ZOOM,
  type Point,
  pan,
  type Zoom,
  zoomAround,
  zoomTransform,
} from './zoom';

export interface ComicReaderProps {
  book: Book;
  pages: BookPageEntry[];
  seriesBooks: Book[] | null;
  startPage: number;
}

const DOUBLE_TAP_MS = 280;
const TAP_TRAVEL = 12;
const MAX_PRELOADED = 24;

export function ComicReader({ book, pages, seriesBooks, startPage }: ComicReaderProps) {
  const { route } = useLocation();
  const viewport = useViewport();
  useWakeLock();
  const [settings, setSettings] = useState<ComicSettings>(() => loadSettings(localStorage));
  const [modeState, setModeState] = useState(() => readingModeFor(localStorage, book.seriesId, book.readingDirection));
  const mode = modeState.mode;
  const geometry = useMemo(() => new Map<number, PageGeometry>(pages.map((p) => [p.number, p])), [pages]);
  const views = useMemo(() => buildViews(pages, layoutOptions(settings, mode)), [pages, settings, mode]);
  const [position, setPosition] = useState({ page: startPage, part: 'whole' as string });
  const [menu, setMenu] = useState(false);
  const [help, setHelp] = useState(false);
  const [edge, setEdge] = useState<'end' | 'start' | null>(null);
  const [zoom, setZoom] = useState<Zoom>(NO_ZOOM);

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
  const goToIndex = (target: number) => {
    const clamped = Math.max(0, Math.min(views.length - 1, target));
    indexRef.current = clamped;
    const slot = views[clamped]?.slots[0];
    if (slot) setPosition({ page: slot.page, part: slot.part });
    setEdge(null);
  };

  const updateSettings = (next: Partial<ComicSettings>) => {
    const merged = { ...settings, ...next };
    saveSettings(localStorage, merged);
    setSettings(merged);
  };
  const setMode = (next: ReadingMode | null) => {
    overrideSeriesMode(localStorage, book.seriesId, next);
    setModeState(readingModeFor(localStorage, book.seriesId, book.readingDirection));
  };

  const openBook = (target: Book | undefined) => {
    if (target) route(`/read/${target.id}`);
  };

  const act = (action: ReaderAction) => {
    switch (action) {
      case 'next':
        if (indexRef.current < views.length - 1) goToIndex(indexRef.current + 1);
        else if (edge === 'end' && nextBook) openBook(nextBook);
        else setEdge('end');
        return;
      case 'previous':
        if (indexRef.current > 0) goToIndex(indexRef.current - 1);
        else if (edge === 'start' && previousBook) openBook(previousBook);
        else setEdge('start');
        return;
      case 'first':
        return goToIndex(0);
      case 'last':
        return goToIndex(views.length - 1);
      case 'nextBook':
        return openBook(nextBook);
      case 'previousBook':
        return openBook(previousBook);
      case 'toggleMenu':
        return setMenu(!menu);
      case 'toggleHelp':
        return setHelp(!help);
      case 'toggleLayout':
        return updateSettings({ layout: settings.layout === 'single' ? 'double' : 'single' });
      case 'cycleFit':
        return updateSettings({ fit: nextIn(FIT_MODES, settings.fit) });
      case 'cycleMode':
        return setMode(nextIn(READING_MODES, mode));
      case 'toggleSplit':
        return updateSettings({ splitWide: !settings.splitWide });
      case 'toggleFullscreen':
        if (document.fullscreenElement) void document.exitFullscreen();
        else void document.documentElement.requestFullscreen?.().catch(() => {});
        return;
      case 'close':
        if (help) return setHelp(false);
        if (menu) return setMenu(false);
        return route(`/books/${book.id}`);
    }
  };

  useKeys((event) => {
    const action = actionForKey(event, mode);
    if (!action) return;
    event.preventDefault();
    act(action);
  });

  // Progress: recorded on every page change, sent later by the saver (never in the way of a page load).
  const lastView = index === views.length - 1;
  useEffect(() => {
    if (!view || mode === 'webtoon') return;
    const page = lastView ? lastPage(book.pageCount) : progressPageOf(view);
    const completed = completesAtPage(page, book.pageCount);
    progressSaver.save(book.id, { currentPage: page, completed }, { incognito: settings.incognito });
  }, [view, lastView, mode, settings.incognito, book.id, book.pageCount]);
  useEffect(() => () => void progressSaver.flush(), []);

  // Zoom resets on every page turn (komga#602); the new page starts at its top.
  const stageRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    setZoom(NO_ZOOM);
    stageRef.current?.scrollTo(0, 0);
  }, [index]);

  // Preload the next views at the width they will be shown, and the next book's first page near the end.
  const preloaded = useRef(new Map<string, HTMLImageElement>());
  useEffect(() => {
    if (mode === 'webtoon' || !view) return;
    const urls = planPreload(book.id, views, geometry, index, {
      ...DEFAULT_PRELOAD,
      fit: settings.fit,
      mode,
      viewport,
    });
    if (nextBook && nearEnd(views, index, DEFAULT_PRELOAD.ahead)) {
      urls.push(pageUrl(nextBook.id, 1, roundUpToStep(viewport.width * viewport.devicePixelRatio)));
    }
    const cache = preloaded.current;
    let cancelled = false;
    // The view on screen first: preloads sent beside its images would share the connection and the
    // server's time with them (the first page of a book is the one the reader is waiting for).
    whenImagesLoaded(stageRef.current).then(() => {
      if (cancelled) return;
      for (const url of urls) {
        if (cache.has(url)) continue;
        const image = new Image();
        image.decoding = 'async';
        image.src = url;
        image.decode().catch(() => {});
        cache.set(url, image);
      }
      while (cache.size > MAX_PRELOADED) cache.delete(cache.keys().next().value!);
    });
    return () => {
      cancelled = true;
    };
  }, [index, views, geometry, settings.fit, mode, viewport, book.id, nextBook, view]);

  const sizes = useMemo(
    () => (view ? sizeView(view, geometry, settings.fit, viewport, mode) : []),
    [view, geometry, settings.fit, viewport, mode],
  );

  const gestures = useGestures({
    zoom,
    setZoom,
    size: { width: viewport.width, height: viewport.height },
    onTap: (point) => act(actionForTap(point.x, point.y, viewport.width, viewport.height, mode)),
    onSwipe: (dx, dy) => {
      const action = actionForSwipe(dx, dy, mode);
      if (action) act(action);
    },
  });

  const currentPage = view ? progressPageOf(view) : 1;

  return (
    <div class={`rd rd-mode-${mode}`} data-mode={mode} data-layout={settings.layout} data-fit={settings.fit}>
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
              <PageSlot key={`${slot.page}-${slot.part}`} bookId={book.id} slot={slot} />
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
        <ReaderMenu
          book={book}
          views={views}
          index={index}
          currentPage={currentPage}
          settings={settings}
          mode={mode}
          modeOverridden={modeState.overridden}
          nextBook={nextBook}
          previousBook={previousBook}
          offlineUrls={() => comicOfflineUrls(book.id, views, geometry, settings.fit, viewport, mode)}
          onSettings={updateSettings}
          onMode={setMode}
          onGoTo={goToIndex}
          onOpenBook={openBook}
          onHelp={() => setHelp(true)}
          onClose={() => route(`/books/${book.id}`)}
        />
      )}
      {help && <HelpSheet onClose={() => setHelp(false)} />}
    </div>
  );
}

/** One page (or half page) box, sized before the image arrives. */
function PageSlot({ bookId, slot }: { bookId: string; slot: SlotSize }) {
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
        alt={t('reader.page', { page: slot.page, total: '' }).trim()}
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

/** Every image URL of the book as this device shows it now, plus the API answers the reader opens with. */
function comicOfflineUrls(
  bookId: string,
  views: View[],
  geometry: Map<number, PageGeometry>,
  fit: FitMode,
  viewport: ReturnType<typeof useViewport>,
  mode: ReadingMode,
): string[] {
  return [...new Set(views.flatMap((view) => viewUrls(bookId, view, geometry, fit, viewport, mode)))];
}

interface GestureOptions {
  zoom: Zoom;
  setZoom: (zoom: Zoom) => void;
  size: { width: number; height: number };
  onTap: (point: Point) => void;
  onSwipe: (dx: number, dy: number) => void;
}

/**
 * Pointer gestures on the page: one finger taps (edges turn at once; the middle waits a moment for a
 * double tap, which zooms), swipes or pans a zoomed page; two fingers pinch.
 */
function useGestures(options: GestureOptions) {
  const state = useRef({
    pointers: new Map<number, Point>(),
    start: null as null | { x: number; y: number; time: number },
    last: null as null | Point,
    pinch: null as null | { distance: number; zoom: Zoom },
    pinched: false,
    lastTap: null as null | { x: number; y: number; time: number },
    tapTimer: 0 as ReturnType<typeof setTimeout> | 0,
  });
  const latest = useRef(options);
  latest.current = options;

  const point = (event: PointerEvent): Point => ({ x: event.clientX, y: event.clientY });

  return {
    down(event: PointerEvent) {
      const s = state.current;
      (event.currentTarget as HTMLElement).setPointerCapture?.(event.pointerId);
      s.pointers.set(event.pointerId, point(event));
      if (s.pointers.size === 1) {
        s.start = { ...point(event), time: Date.now() };
        s.last = point(event);
        s.pinched = false;
      } else if (s.pointers.size === 2) {
        const [a, b] = [...s.pointers.values()] as [Point, Point];
        s.pinch = { distance: distance(a, b), zoom: latest.current.zoom };
        s.pinched = true;
      }
    },
    move(event: PointerEvent) {
      const s = state.current;
      if (!s.pointers.has(event.pointerId)) return;
      s.pointers.set(event.pointerId, point(event));
      const { setZoom, size, zoom } = latest.current;
      if (s.pointers.size === 2 && s.pinch) {
        const [a, b] = [...s.pointers.values()] as [Point, Point];
        const factor = distance(a, b) / Math.max(1, s.pinch.distance);
        setZoom(zoomAround(s.pinch.zoom, factor, midpoint(a, b), size));
      } else if (s.pointers.size === 1 && s.last && isZoomed(zoom)) {
        const now = point(event);
        setZoom(pan(zoom, now.x - s.last.x, now.y - s.last.y, size));
        s.last = now;
      }
    },
    up(event: PointerEvent) {
      const s = state.current;
      s.pointers.delete(event.pointerId);
      if (s.pointers.size > 0) return;
      s.pinch = null;
      const start = s.start;
      s.start = null;
      if (!start || s.pinched) return;
      const end = point(event);
      const dx = end.x - start.x;
      const dy = end.y - start.y;
      const { zoom, setZoom, size, onTap, onSwipe } = latest.current;
      if (Math.hypot(dx, dy) <= TAP_TRAVEL) {
        const now = Date.now();
        const previous = s.lastTap;
        if (
          previous &&
          now - previous.time < DOUBLE_TAP_MS &&
          Math.hypot(end.x - previous.x, end.y - previous.y) < 40
        ) {
          if (s.tapTimer) clearTimeout(s.tapTimer);
          s.tapTimer = 0;
          s.lastTap = null;
          setZoom(doubleTap(zoom, end, size));
          return;
        }
        // A double tap is two taps in the middle or on a zoomed page; quick taps on an edge turn pages.
        const middle = end.x > size.width / 3 && end.x < (size.width * 2) / 3;
        s.lastTap = middle || isZoomed(zoom) ? { ...end, time: now } : null;
        if (isZoomed(zoom)) return;
        if (!middle) {
          onTap(end);
          return;
        }
        s.tapTimer = setTimeout(() => {
          s.tapTimer = 0;
          if (s.lastTap && s.lastTap.time === now) onTap(end);
        }, DOUBLE_TAP_MS);
        return;
      }
      if (isZoomed(zoom)) {
        setZoom(clampZoom(zoom, size));
        return;
      }
      onSwipe(dx, dy);
    },
    cancel(event: PointerEvent) {
      const s = state.current;
      s.pointers.delete(event.pointerId);
      if (s.pointers.size === 0) {
        s.start = null;
        s.pinch = null;
      }
    },
  };
}

function EdgeNotice({
  edge,
  target,
  onOpen,
  onDismiss,
}: {
  edge: 'end' | 'start';
  target: Book | undefined;
  onOpen: (book: Book) => void;
  onDismiss: () => void;
}) {
  return (
    <div class="rd-edge" role="status">
      <p>{t(edge === 'end' ? 'reader.endOfBook' : 'reader.startOfBook')}</p>
      {target ? (
        <button type="button" class="rd-button" onClick={() => onOpen(target)}>
          {t(edge === 'end' ? 'reader.continueWith' : 'reader.previousBook', { title: target.title })}
        </button>
      ) : (
        edge === 'end' && <p class="rd-muted">{t('reader.lastBook')}</p>
      )}
      <button type="button" class="rd-button rd-secondary" onClick={onDismiss}>
        {t('app.close')}
      </button>
    </div>
  );
}

interface MenuProps {
  book: Book;
  views: View[];
  index: number;
  currentPage: number;
  settings: ComicSettings;
  mode: ReadingMode;
  modeOverridden: boolean;
  nextBook: Book | undefined;
  previousBook: Book | undefined;
  offlineUrls: () => string[];
  onSettings: (next: Partial<ComicSettings>) => void;
  onMode: (mode: ReadingMode | null) => void;
  onGoTo: (index: number) => void;
  onOpenBook: (book: Book | undefined) => void;
  onHelp: () => void;
  onClose: () => void;
}

function ReaderMenu(props: MenuProps) {
  const { book, settings, mode } = props;
  return (
    <>
      <header class="rd-bar rd-top">
        <button type="button" class="rd-button" onClick={props.onClose} aria-label={t('reader.backToBook')}>
          ←
        </button>
        <h1 class="rd-title">{book.title}</h1>
        <button type="button" class="rd-button" onClick={props.onHelp} aria-label={t('reader.help')}>
          ?
        </button>
      </header>
      <section class="rd-panel" aria-label={t('reader.settings')}>
        <label>
          {t('reader.mode')}
          <select
            value={props.modeOverridden ? mode : ''}
            onChange={(e) => props.onMode(((e.currentTarget as HTMLSelectElement).value || null) as ReadingMode | null)}
          >
            <option value="">
              {t('reader.mode.seriesDefault')} ({t(`reader.mode.${mode}` as 'reader.mode.ltr')})
            </option>
            {READING_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`reader.mode.${m}` as 'reader.mode.ltr')}
              </option>
            ))}
          </select>
        </label>
        {mode !== 'webtoon' && (
          <>
            <label>
              {t('reader.layout')}
              <select
                value={settings.layout}
                onChange={(e) =>
                  props.onSettings({ layout: (e.currentTarget as HTMLSelectElement).value as ComicSettings['layout'] })
                }
              >
                <option value="single">{t('reader.layout.single')}</option>
                <option value="double">{t('reader.layout.double')}</option>
              </select>
            </label>
            <label>
              {t('reader.fit')}
              <select
                value={settings.fit}
                onChange={(e) => props.onSettings({ fit: (e.currentTarget as HTMLSelectElement).value as FitMode })}
              >
                {FIT_MODES.map((f) => (
                  <option key={f} value={f}>
                    {t(`reader.fit.${f}` as 'reader.fit.screen')}
                  </option>
                ))}
              </select>
            </label>
            <label class="rd-check">
              <input
                type="checkbox"
                checked={settings.coverAlone}
                onChange={(e) => props.onSettings({ coverAlone: (e.currentTarget as HTMLInputElement).checked })}
              />
              {t('reader.coverAlone')}
            </label>
            <label class="rd-check">
              <input
                type="checkbox"
                checked={settings.splitWide}
                onChange={(e) => props.onSettings({ splitWide: (e.currentTarget as HTMLInputElement).checked })}
              />
              {t('reader.splitWide')}
            </label>
          </>
        )}
        <label class="rd-check">
          <input
            type="checkbox"
            checked={settings.incognito}
            onChange={(e) => props.onSettings({ incognito: (e.currentTarget as HTMLInputElement).checked })}
          />
          {t('reader.incognito')}
        </label>
        <OfflineButton book={book} kind="pages" urls={props.offlineUrls} />
      </section>
      <footer class="rd-bar rd-bottom">
        <button
          type="button"
          class="rd-button"
          disabled={!props.previousBook}
          onClick={() => props.onOpenBook(props.previousBook)}
          aria-label={t('reader.previousBook')}
        >
          «
        </button>
        {mode !== 'webtoon' && (
          <input
            type="range"
            class="rd-slider"
            min={1}
            max={Math.max(1, props.views.length)}
            value={props.index + 1}
            dir={mode === 'rtl' ? 'rtl' : 'ltr'}
            aria-label={t('reader.pageSlider')}
            onInput={(e) => props.onGoTo(Number((e.currentTarget as HTMLInputElement).value) - 1)}
          />
        )}
        <span class="rd-count">{t('reader.page', { page: props.currentPage, total: book.pageCount })}</span>
        <button
          type="button"
          class="rd-button"
          disabled={!props.nextBook}
          onClick={() => props.onOpenBook(props.nextBook)}
          aria-label={t('reader.nextBook')}
        >
          »
        </button>
      </footer>
    </>
  );
}

export function HelpSheet({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal?.();
  }, []);
  return (
    <dialog ref={ref} class="rd-help" onClose={onClose} aria-label={t('reader.help')}>
      <h2>{t('reader.help')}</h2>
      <table>
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.help}>
              <td>
                {shortcut.keys.map((key) => (
                  <kbd key={key}>{key === ' ' ? 'Space' : key.replace('Arrow', '')}</kbd>
                ))}
              </td>
              <td>{t(shortcut.help as 'reader.help.next')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{t('reader.help.touch')}</p>
      <form method="dialog">
        <button type="submit" class="rd-button">
          {t('app.close')}
        </button>
      </form>
    </dialog>
  );
}

/** Resolves once every image under `root` has loaded or failed (at once when there is none). */
function whenImagesLoaded(root: HTMLElement | null): Promise<void> {
  const pending = [...(root?.querySelectorAll('img') ?? [])].filter((image) => !image.complete);
  return Promise.all(
    pending.map(
      (image) =>
        new Promise((resolve) => {
          image.addEventListener('load', resolve, { once: true });
          image.addEventListener('error', resolve, { once: true });
        }),
    ),
  ).then(() => {});
}
