/**
 * The EPUB reader for reflowable books (issue 12 point 4): foliate-js renders the book, fed by Range
 * requests on the book file (epub-range-loader.ts) or by the offline copy. Paginated or scrolled, font,
 * size and theme, table of contents, and progress saved with the position's CFI as the `locator`
 * (DECISIONS.md §Reader apps), so any device reopens the book at the same place.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { completesAtFraction, pageAtFraction } from '../../../src/progress/rules';
import type { Book } from '../api/types';
import { t } from '../i18n';
import { offlineFile } from '../offline/offline-library';
import { cleanBookContent, openExternalLink } from './book-content';
import { BlobSource, HttpRangeSource, makeEpubLoader } from './epub-range-loader';
import type { FoliateBook, TocItem } from 'foliate-js/epub.js';
import { bookFileUrl } from './page-url';
import { progressSaver, readingClock } from './reader-api';
import { EPUB_SHORTCUTS, epubActionForKey, epubSwipe } from './epub-controls';
import { HelpSheet, MenuBar, SettingsButton, SettingsPanel } from './reader-menu';
import { useKeys, useWakeLock } from './use-viewport';
import type { EpubAction } from './epub-controls';

export interface EpubSettings {
  flow: 'paginated' | 'scrolled';
  font: 'publisher' | 'serif' | 'sans';
  size: number;
  theme: 'light' | 'sepia' | 'dark';
  incognito: boolean;
}

const SETTINGS_KEY = 'longbox.reader.epub';
/**
 * foliate-js's reasons for a relocation (its paginator's `#afterScroll`) that only the reader's own hand
 * causes inside the book: a swipe, a scroll. Turns and chapters asked for through this reader's keys, tap
 * zones and contents are known without one (a turn into the next chapter is reported as `anchor`, as a
 * resize is).
 */
const READER_MOVES = new Set(['page', 'snap', 'scroll']);
/** foliate-js reports where the last screen starts, which never reaches 1: within this of the end is the end. */
const END_SLACK = 0.005;
const DEFAULTS: EpubSettings = { flow: 'paginated', font: 'publisher', size: 100, theme: 'light', incognito: false };
const THEMES = {
  light: { bg: '#ffffff', fg: '#1b1e26', link: '#2563c9' },
  sepia: { bg: '#f4ecd8', fg: '#433422', link: '#8a4b0f' },
  dark: { bg: '#14161c', fg: '#e1e3ea', link: '#8ab4f8' },
} as const;

function loadEpubSettings(): EpubSettings {
  try {
    return { ...DEFAULTS, ...(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as Partial<EpubSettings>) };
  } catch {
    return { ...DEFAULTS };
  }
}

/**
 * The CSS foliate-js puts into every section: the chosen font, size and colours. `--theme-bg-color` is
 * foliate-js's own hook for the colour of the margins around the text, which it otherwise takes from the
 * section as first laid out: a switch from the light theme to the dark one left a white frame around the
 * page (issue 31 point 4).
 */
function bookCss(settings: EpubSettings): string {
  const theme = THEMES[settings.theme];
  const family =
    settings.font === 'serif'
      ? 'Georgia, "Times New Roman", serif'
      : settings.font === 'sans'
        ? 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'
        : null;
  return `
    html { --theme-bg-color: ${theme.bg}; color-scheme: ${settings.theme === 'dark' ? 'dark' : 'light'}; background: ${theme.bg} !important; color: ${theme.fg} !important; font-size: ${settings.size}% !important; }
    body { background: ${theme.bg} !important; color: ${theme.fg} !important; ${family ? `font-family: ${family} !important;` : ''} }
    a:link { color: ${theme.link} !important; }
    p, li, blockquote, dd { line-height: 1.5; }
    pre { white-space: pre-wrap !important; }
  `;
}

interface FoliateView extends HTMLElement {
  book: FoliateBook;
  /** The place of the last relocation. */
  lastLocation?: RelocateDetail;
  renderer: HTMLElement & {
    setStyles?(css: string): void;
    next(): Promise<void>;
    getContents?(): { doc: Document; index: number }[];
  };
  open(book: FoliateBook): Promise<void>;
  init(options: { lastLocation?: string | null; showTextStart?: boolean }): Promise<void>;
  goTo(target: string): Promise<unknown>;
  goToFraction(fraction: number): Promise<void>;
  goLeft(): Promise<void>;
  goRight(): Promise<void>;
  next(): Promise<void>;
  prev(): Promise<void>;
  close?(): void;
}

interface RelocateDetail {
  fraction: number;
  cfi: string;
  tocItem?: { label?: string } | null;
}

export interface EpubReaderProps {
  book: Book;
  start: { percentage: number | null; locator: string | null };
}

export function EpubReader({ book, start }: EpubReaderProps) {
  const { route } = useLocation();
  useWakeLock();
  const host = useRef<HTMLDivElement>(null);
  const viewRef = useRef<FoliateView | null>(null);
  const [settings, setSettings] = useState(loadEpubSettings);
  const [toc, setToc] = useState<TocItem[]>([]);
  const [location, setLocation] = useState<RelocateDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** True once the saved place is restored: from then on positions are saved (and tests may turn pages). */
  const [ready, setReady] = useState(false);
  const [panel, setPanel] = useState<'none' | 'menu' | 'toc' | 'help'>('none');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const panelRef = useRef(panel);
  panelRef.current = panel;
  /** Set once when a section of the book turns out to have had scripts, which were taken out. */
  const [scriptsRemoved, setScriptsRemoved] = useState<'no' | 'shown' | 'dismissed'>('no');
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  /** Set when the reader asked to move (a key, a tap zone, the contents): from then on places are saved. */
  const readerAsked = useRef(false);
  const move = (go: (view: FoliateView) => Promise<unknown>) => {
    const view = viewRef.current;
    if (!view) return;
    readerAsked.current = true;
    void go(view);
  };

  useEffect(() => {
    let cancelled = false;
    let view: FoliateView | null = null;
    let restored = false;
    let openedAt: string | null = null;
    let moved = false;
    (async () => {
      const [{ EPUB }] = await Promise.all([import('foliate-js/epub.js'), import('foliate-js/view.js')]);
      const offline = await offlineFile(bookFileUrl(book.id));
      const loader = await makeEpubLoader(
        offline ? new BlobSource(offline) : new HttpRangeSource(bookFileUrl(book.id)),
      );
      const parsed = await new EPUB(loader).init();
      if (cancelled) return;
      // Before any section becomes a frame: the book's markup and CSS lose what could run or reach
      // outside (DECISIONS.md §Security); the reader says so once if there was code.
      cleanBookContent(parsed, () => setScriptsRemoved((state) => (state === 'no' ? 'shown' : state)));
      view = document.createElement('foliate-view') as FoliateView;
      viewRef.current = view;
      view.setAttribute('class', 'rd-epub-view');
      host.current?.append(view);
      await view.open(parsed);
      applySettings(view, settingsRef.current);
      setToc(parsed.toc ?? []);
      view.addEventListener('relocate', (event) => setLocation((event as CustomEvent<RelocateDetail>).detail));
      // The renderer's own event says why the place changed, and comes after the view's (whose listener
      // open() added first, so `lastLocation` is already the new place). Opening the book records nothing:
      // restoring the saved place, a resize or a font change moves nobody; a page turned, a swipe, a scroll
      // or a chapter chosen does, away from where the book opened (DECISIONS.md §Web app: a finished book
      // opened to look at stays read).
      view.renderer.addEventListener('relocate', (event) => {
        const detail = view?.lastLocation;
        if (!restored || !detail) return;
        if (!moved) {
          const reason = (event as CustomEvent<{ reason?: string }>).detail?.reason ?? '';
          const byReader = readerAsked.current || READER_MOVES.has(reason);
          if (!byReader || detail.cfi === openedAt) return;
          moved = true;
        }
        const fraction = Math.min(1, Math.max(0, detail.fraction ?? 0));
        progressSaver.save(
          book.id,
          {
            currentPage: pageAtFraction(fraction, book.pageCount),
            completed: completesAtFraction(fraction, END_SLACK),
            percentage: fraction,
            ...(detail.cfi ? { locator: detail.cfi } : {}),
          },
          { incognito: settingsRef.current.incognito },
        );
      });
      // foliate-js would `window.open` a link out of the book with access back to this window: the app opens
      // web and mail links itself, in a tab that cannot reach it, and nothing else.
      view.addEventListener('external-link', (event) => {
        event.preventDefault();
        openExternalLink((event as CustomEvent<{ href: string }>).detail.href);
      });
      // Keys pressed while the book's text has focus. A listener on the section's document may not fire in
      // Safari (WebKit bug 218086, frames without allow-scripts): there the keys work again once focus is
      // back on the reader (any tap on its controls), and paging by tap never depends on the frame.
      view.addEventListener('load', (event) => {
        const doc = (event as CustomEvent<{ doc: Document }>).detail.doc;
        doc.addEventListener('keydown', (e) => dispatchEvent(new KeyboardEvent('keydown', e)));
        // Scrolled, the book's text has no zones over it (they would stop the scrolling): a tap on the text
        // that is not a link shows or hides the menu. In Safari this listener may not fire (above): the status
        // line's menu button is there in every layout.
        doc.addEventListener('click', (e) => {
          if (settingsRef.current.flow !== 'scrolled' || (e.target as Element | null)?.closest?.('a[href]')) return;
          setPanel(panelRef.current === 'none' ? 'menu' : 'none');
        });
      });
      if (start.locator) await view.init({ lastLocation: start.locator });
      else if (start.percentage) await view.goToFraction(start.percentage);
      else await view.init({ showTextStart: false });
      openedAt = view.lastLocation?.cfi ?? null;
      restored = true;
      setReady(true);
    })().catch((reason: Error) => {
      if (!cancelled) setError(reason.message);
    });
    return () => {
      cancelled = true;
      readingClock.end();
      void progressSaver.flush();
      view?.close?.();
      view?.remove();
    };
  }, [book.id]);

  useEffect(() => {
    if (viewRef.current) applySettings(viewRef.current, settings);
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  }, [settings]);

  const act = (action: EpubAction) => {
    if (action === 'right') move((view) => view.goRight());
    else if (action === 'left') move((view) => view.goLeft());
    else if (action === 'next') move((view) => view.next());
    else if (action === 'previous') move((view) => view.prev());
    else if (action === 'toggleMenu') setPanel(panel === 'none' ? 'menu' : 'none');
    else if (action === 'contents') setPanel(panel === 'toc' ? 'none' : 'toc');
    else if (action === 'toggleHelp') setPanel(panel === 'help' ? 'none' : 'help');
    else if (panel !== 'none') setPanel('none');
    else route(`/books/${book.id}`);
  };

  useKeys((event) => {
    if (!viewRef.current) return;
    const action = epubActionForKey(event);
    if (!action) return;
    act(action);
    event.preventDefault();
  });

  // A swipe across the zones turns the page, as a swipe on the text did before the zones covered it.
  const swipeStart = useRef<{ x: number; y: number } | null>(null);
  const swiped = useRef(false);
  const zoneGestures = {
    onPointerDown: (event: PointerEvent) => {
      swipeStart.current = { x: event.clientX, y: event.clientY };
      swiped.current = false;
    },
    onPointerUp: (event: PointerEvent) => {
      const start = swipeStart.current;
      swipeStart.current = null;
      if (!start) return;
      const side = epubSwipe(event.clientX - start.x, event.clientY - start.y);
      if (!side) return;
      swiped.current = true;
      act(side);
    },
  };
  /** A zone's tap, unless it ended a swipe (which already turned the page). */
  const onTap = (handler: (event: MouseEvent) => void) => (event: MouseEvent) => {
    if (swiped.current) {
      swiped.current = false;
      return;
    }
    handler(event);
  };

  const update = (next: Partial<EpubSettings>) => setSettings({ ...settings, ...next });
  const percent = Math.round((location?.fraction ?? start.percentage ?? 0) * 100);

  return (
    <main
      class={`rd rd-epub rd-theme-${settings.theme}`}
      data-flow={settings.flow}
      data-cfi={location?.cfi ?? ''}
      data-ready={ready ? 'true' : 'false'}
    >
      {error && (
        <p class="rd-error" role="alert">
          {t('reader.error', { message: error })}
        </p>
      )}
      <div ref={host} class="rd-epub-host" />
      {scriptsRemoved === 'shown' && (
        <p class="rd-notice" role="status" data-testid="epub-scripts-removed">
          <span>{t('reader.epub.scriptsRemoved')}</span>
          <button type="button" class="rd-button rd-secondary" onClick={() => setScriptsRemoved('dismissed')}>
            {t('app.close')}
          </button>
        </p>
      )}
      <div class="rd-zones" {...zoneGestures}>
        <button type="button" class="rd-zone rd-zone-left" aria-label="←" onClick={onTap(() => act('left'))} />
        <button
          type="button"
          class="rd-zone rd-zone-middle"
          aria-label={t('reader.menu')}
          aria-expanded={panel === 'menu'}
          onClick={onTap((event) => {
            // The zone lies over the text: a tap on a link of the book follows it, any other tap is the menu's.
            const view = viewRef.current;
            if (!view || !followLinkAt(view, event.clientX, event.clientY)) act('toggleMenu');
            // A link followed moves the reader, as a turn does: from then on places are saved.
            else readerAsked.current = true;
          })}
        />
        <button type="button" class="rd-zone rd-zone-right" aria-label="→" onClick={onTap(() => act('right'))} />
      </div>
      <div class="rd-epub-status">
        <button
          type="button"
          class="rd-status-menu"
          aria-label={t('reader.menu')}
          aria-expanded={panel === 'menu'}
          onClick={() => act('toggleMenu')}
        >
          ☰
        </button>
        <span class="rd-epub-chapter">{location?.tocItem?.label ?? ''}</span>
        <span data-testid="epub-progress" aria-live="polite">
          {t('reader.epub.progress', { percent })}
        </span>
      </div>
      {panel === 'menu' && (
        <>
          <MenuBar title={book.title} onBack={() => route(`/books/${book.id}`)}>
            <button type="button" class="rd-button" onClick={() => setPanel('toc')}>
              {t('reader.epub.toc')}
            </button>
            <SettingsButton open={settingsOpen} onToggle={() => setSettingsOpen(!settingsOpen)} />
            <button type="button" class="rd-button" onClick={() => setPanel('help')} aria-label={t('reader.help')}>
              ?
            </button>
          </MenuBar>
          {settingsOpen && (
            <SettingsPanel
              book={book}
              kind="epub"
              offlineUrls={() => [bookFileUrl(book.id)]}
              incognito={settings.incognito}
              onIncognito={(incognito) => update({ incognito })}
            >
              <label>
                {t('reader.epub.flow')}
                <select
                  value={settings.flow}
                  onChange={(e) =>
                    update({ flow: (e.currentTarget as HTMLSelectElement).value as EpubSettings['flow'] })
                  }
                >
                  <option value="paginated">{t('reader.epub.flow.paginated')}</option>
                  <option value="scrolled">{t('reader.epub.flow.scrolled')}</option>
                </select>
              </label>
              <label>
                {t('reader.epub.font')}
                <select
                  value={settings.font}
                  onChange={(e) =>
                    update({ font: (e.currentTarget as HTMLSelectElement).value as EpubSettings['font'] })
                  }
                >
                  <option value="publisher">{t('reader.epub.font.publisher')}</option>
                  <option value="serif">{t('reader.epub.font.serif')}</option>
                  <option value="sans">{t('reader.epub.font.sans')}</option>
                </select>
              </label>
              <label>
                {t('reader.epub.size')} ({settings.size} %)
                <input
                  type="range"
                  min={70}
                  max={200}
                  step={10}
                  value={settings.size}
                  onInput={(e) => update({ size: Number((e.currentTarget as HTMLInputElement).value) })}
                />
              </label>
              <label>
                {t('reader.epub.theme')}
                <select
                  value={settings.theme}
                  onChange={(e) =>
                    update({ theme: (e.currentTarget as HTMLSelectElement).value as EpubSettings['theme'] })
                  }
                >
                  <option value="light">{t('reader.epub.theme.light')}</option>
                  <option value="sepia">{t('reader.epub.theme.sepia')}</option>
                  <option value="dark">{t('reader.epub.theme.dark')}</option>
                </select>
              </label>
            </SettingsPanel>
          )}
        </>
      )}
      {panel === 'toc' && (
        <nav class="rd-toc" aria-label={t('reader.epub.toc')}>
          <h2>{t('reader.epub.toc')}</h2>
          <TocList
            items={toc}
            onPick={(href) => {
              move((view) => view.goTo(href));
              setPanel('none');
            }}
          />
          <button type="button" class="rd-button rd-secondary" onClick={() => setPanel('none')}>
            {t('app.close')}
          </button>
        </nav>
      )}
      {panel === 'help' && (
        <HelpSheet shortcuts={EPUB_SHORTCUTS} touch="reader.help.epubTouch" onClose={() => setPanel('none')} />
      )}
    </main>
  );
}

function TocList({ items, onPick }: { items: TocItem[]; onPick: (href: string) => void }) {
  return (
    <ol>
      {items.map((item) => (
        <li key={item.href}>
          <button type="button" class="rd-link" onClick={() => onPick(item.href)}>
            {item.label}
          </button>
          {item.subitems?.length ? <TocList items={item.subitems} onPick={onPick} /> : null}
        </li>
      ))}
    </ol>
  );
}

/**
 * Follows the book's link under a tap on the middle zone, as foliate-js would have had the tap reached the
 * text: to its place in the book, or out of it through `openExternalLink`. Found from the app's side
 * (the section's document is laid out in a frame of the app's origin), so it works where listeners inside
 * the frame do not. False when no link is there.
 */
function followLinkAt(view: FoliateView, x: number, y: number): boolean {
  for (const { doc, index } of view.renderer.getContents?.() ?? []) {
    const frame = doc.defaultView?.frameElement;
    if (!frame) continue;
    const box = frame.getBoundingClientRect();
    if (x < box.left || x > box.right || y < box.top || y > box.bottom) continue;
    const link = doc.elementFromPoint(x - box.left, y - box.top)?.closest('a[href]');
    if (!link) continue;
    const raw = link.getAttribute('href') ?? '';
    const href = view.book.sections[index]?.resolveHref?.(raw) ?? raw;
    if (view.book.isExternal?.(href)) openExternalLink(href);
    else void view.goTo(href);
    return true;
  }
  return false;
}

function applySettings(view: FoliateView, settings: EpubSettings): void {
  view.renderer.setAttribute('flow', settings.flow);
  view.renderer.setAttribute('margin', '40px');
  view.renderer.setAttribute('gap', '6%');
  view.renderer.setAttribute('max-inline-size', '720px');
  view.renderer.setStyles?.(bookCss(settings));
}
