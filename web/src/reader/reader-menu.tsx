/**
 * The parts both readers' menus are made of (the comic reader's in comic-menu.tsx, the EPUB reader's in
 * epub-reader.tsx): the top bar with the way back to the book, the settings panel that ends with
 * incognito and "download for offline", and the help sheet of each reader's keyboard shortcuts.
 *
 * The menu is its bars; the settings panel opens from the bar's Settings button (issue 31 point 3: opened
 * with the menu, the panel covered the middle of a phone's screen, so the tap meant to close the menu
 * landed on "Download for offline"). The middle of the screen stays the book's, open settings or not
 * (reader.css), so a tap there always closes the menu and two fingers there always zoom the page.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Book } from '../api/types';
import { t } from '../i18n';
import type { MessageKey } from '../i18n';
import { OfflineButton } from './offline-button';

/** The menu's top bar: back to the book, its title, and the reader's own button (`children`). */
export function MenuBar({
  title,
  onBack,
  children,
}: {
  title: string;
  onBack: () => void;
  children: ComponentChildren;
}) {
  return (
    <header class="rd-bar rd-top">
      <button type="button" class="rd-button" onClick={onBack} aria-label={t('reader.backToBook')}>
        ←
      </button>
      <h1 class="rd-title">{title}</h1>
      {children}
    </header>
  );
}

const SETTINGS_PANEL_ID = 'rd-settings';

/** The top bar's button that shows or hides the settings panel. */
export function SettingsButton({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      class="rd-button"
      aria-label={t('reader.settings')}
      aria-expanded={open}
      aria-controls={SETTINGS_PANEL_ID}
      onClick={onToggle}
    >
      ⚙
    </button>
  );
}

/** The settings panel: the reader's own settings (`children`), then incognito and the offline download. */
export function SettingsPanel({
  book,
  kind,
  offlineUrls,
  incognito,
  onIncognito,
  children,
}: {
  book: Book;
  kind: 'pages' | 'epub';
  offlineUrls: () => string[];
  incognito: boolean;
  onIncognito: (incognito: boolean) => void;
  children: ComponentChildren;
}) {
  return (
    <section id={SETTINGS_PANEL_ID} class="rd-panel" aria-label={t('reader.settings')}>
      {children}
      <label class="rd-check">
        <input
          type="checkbox"
          checked={incognito}
          onChange={(e) => onIncognito((e.currentTarget as HTMLInputElement).checked)}
        />
        {t('reader.incognito')}
      </label>
      <OfflineButton book={book} kind={kind} urls={offlineUrls} />
    </section>
  );
}

/** A row of a help sheet: the keys, and the catalogue key of what they do. */
export interface ShortcutHelp {
  keys: readonly string[];
  help: MessageKey;
}

/** The reader's own keys (`shortcuts`) and how its touch controls work (`touch`). */
export function HelpSheet({
  shortcuts,
  touch,
  onClose,
}: {
  shortcuts: readonly ShortcutHelp[];
  touch: MessageKey;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal?.();
  }, []);
  return (
    <dialog ref={ref} class="rd-help" onClose={onClose} aria-label={t('reader.help')}>
      <h2>{t('reader.help')}</h2>
      <table>
        <tbody>
          {shortcuts.map((shortcut) => (
            <tr key={shortcut.help}>
              <td>
                {shortcut.keys.map((key) => (
                  <kbd key={key}>{key === ' ' ? 'Space' : key.replace('Arrow', '')}</kbd>
                ))}
              </td>
              <td>{t(shortcut.help)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{t(touch)}</p>
      <form method="dialog">
        <button type="submit" class="rd-button">
          {t('app.close')}
        </button>
      </form>
    </dialog>
  );
}
