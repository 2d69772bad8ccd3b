/**
 * The parts both readers' menus are made of (the comic reader's in comic-menu.tsx, the EPUB reader's in
 * epub-reader.tsx): the top bar with the way back to the book, the settings panel that ends with
 * incognito and "download for offline", and the help sheet of keyboard shortcuts.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Book } from '../api/types';
import { t } from '../i18n';
import { SHORTCUTS } from './controls';
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
    <section class="rd-panel" aria-label={t('reader.settings')}>
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
