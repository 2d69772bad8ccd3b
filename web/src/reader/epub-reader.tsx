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
import { progressSaver } from './reader-api';
import { HelpSheet, MenuBar, SettingsPanel } from './reader-menu';
import { useKeys, useWakeLock } from './use-viewport';

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

/** The CSS foliate-js puts into every section: the chosen font, size and colours. */
function bookCss(settings: EpubSettings): string {
  const theme = THEMES[settings.theme];
  const family =
    settings.font === 'serif'
      ? 'Georgia, "Times New Roman", serif'
      : settings.font === 'sans'
        ? 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'
        : null;
  return `
    html { color-scheme: ${settings.theme === 'dark' ? 'dark' : 'light'}; background: ${theme.bg} !important; color: ${theme.fg} !important; font-size: ${settings.size}% !important; }
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
  renderer: HTMLElement & { setStyles?(css: string): void; next(): Promise<void> };
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
      void progressSaver.flush();
      view?.close?.();
      view?.remove();
    };
  }, [book.id]);

  useEffect(() => {
    if (viewRef.current) applySettings(viewRef.current, settings);
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  }, [settings]);

  useKeys((event) => {
    if (!viewRef.current) return;
    if (event.key === 'ArrowRight') move((view) => view.goRight());
    else if (event.key === 'ArrowLeft') move((view) => view.goLeft());
    else if (event.key === ' ' || event.key === 'PageDown')
      move((view) => (event.shiftKey ? view.prev() : view.next()));
    else if (event.key === 'PageUp') move((view) => view.prev());
    else if (event.key === '?' || event.key === 'h') setPanel(panel === 'help' ? 'none' : 'help');
    else if (event.key === 'Escape') {
      if (panel !== 'none') setPanel('none');
      else route(`/books/${book.id}`);
    } else return;
    event.preventDefault();
  });

  const update = (next: Partial<EpubSettings>) => setSettings({ ...settings, ...next });
  const percent = Math.round((location?.fraction ?? start.percentage ?? 0) * 100);

  return (
    <div
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
      <button type="button" class="rd-zone rd-zone-left" aria-label="←" onClick={() => move((view) => view.goLeft())} />
      <button
        type="button"
        class="rd-zone rd-zone-middle"
        aria-label={t('reader.menu')}
        onClick={() => setPanel(panel === 'none' ? 'menu' : 'none')}
      />
      <button
        type="button"
        class="rd-zone rd-zone-right"
        aria-label="→"
        onClick={() => move((view) => view.goRight())}
      />
      <div class="rd-epub-status" aria-live="polite">
        <span class="rd-epub-chapter">{location?.tocItem?.label ?? ''}</span>
        <span data-testid="epub-progress">{t('reader.epub.progress', { percent })}</span>
      </div>
      {panel === 'menu' && (
        <>
          <MenuBar title={book.title} onBack={() => route(`/books/${book.id}`)}>
            <button type="button" class="rd-button" onClick={() => setPanel('toc')}>
              {t('reader.epub.toc')}
            </button>
          </MenuBar>
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
                onChange={(e) => update({ flow: (e.currentTarget as HTMLSelectElement).value as EpubSettings['flow'] })}
              >
                <option value="paginated">{t('reader.epub.flow.paginated')}</option>
                <option value="scrolled">{t('reader.epub.flow.scrolled')}</option>
              </select>
            </label>
            <label>
              {t('reader.epub.font')}
              <select
                value={settings.font}
                onChange={(e) => update({ font: (e.currentTarget as HTMLSelectElement).value as EpubSettings['font'] })}
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
      {panel === 'help' && <HelpSheet onClose={() => setPanel('none')} />}
    </div>
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

function applySettings(view: FoliateView, settings: EpubSettings): void {
  view.renderer.setAttribute('flow', settings.flow);
  view.renderer.setAttribute('margin', '40px');
  view.renderer.setAttribute('gap', '6%');
  view.renderer.setAttribute('max-inline-size', '720px');
  view.renderer.setStyles?.(bookCss(settings));
}
