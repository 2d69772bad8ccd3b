/**
 * The comic reader's overlays: its menu (reading mode, layout, fit, cover and split settings, the page
 * slider, next and previous book) built on the readers' shared parts (reader-menu.tsx), and the notice
 * shown at either end of the book.
 */
import { useState } from 'preact/hooks';
import type { Book } from '../api/types';
import { t } from '../i18n';
import type { BookEdge } from './comic-actions';
import type { FitMode } from './fit';
import type { ReadingMode, View } from './layout';
import { MenuBar, SettingsButton, SettingsPanel } from './reader-menu';
import { type ComicSettings, FIT_MODES, READING_MODES } from './settings';

interface ComicMenuProps {
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

export function ComicMenu(props: ComicMenuProps) {
  const { book, settings, mode } = props;
  const [settingsOpen, setSettingsOpen] = useState(false);
  return (
    <>
      <MenuBar title={book.title} onBack={props.onClose}>
        <SettingsButton open={settingsOpen} onToggle={() => setSettingsOpen(!settingsOpen)} />
        <button type="button" class="rd-button" onClick={props.onHelp} aria-label={t('reader.help')}>
          ?
        </button>
      </MenuBar>
      {settingsOpen && (
        <SettingsPanel
          book={book}
          kind="pages"
          offlineUrls={props.offlineUrls}
          incognito={settings.incognito}
          onIncognito={(incognito) => props.onSettings({ incognito })}
        >
          <label>
            {t('reader.mode')}
            <select
              value={props.modeOverridden ? mode : ''}
              onChange={(e) =>
                props.onMode(((e.currentTarget as HTMLSelectElement).value || null) as ReadingMode | null)
              }
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
                    props.onSettings({
                      layout: (e.currentTarget as HTMLSelectElement).value as ComicSettings['layout'],
                    })
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
        </SettingsPanel>
      )}
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

/** At the end (or start) of the book: the next (or previous) book to carry on with, if there is one. */
export function EdgeNotice({
  edge,
  target,
  onOpen,
  onDismiss,
}: {
  edge: BookEdge;
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
