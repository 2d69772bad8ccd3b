/**
 * The comic reader's settings as state: the device-wide settings and the series' reading mode, each
 * change saved to this device at once (settings.ts says what is kept and where).
 */
import { useState } from 'preact/hooks';
import type { Book } from '../api/types';
import type { ReadingMode } from './layout';
import { type ComicSettings, loadSettings, overrideSeriesMode, readingModeFor, saveSettings } from './settings';

export function useComicSettings(book: Book) {
  const [settings, setSettings] = useState<ComicSettings>(() => loadSettings(localStorage));
  const [modeState, setModeState] = useState(() => readingModeFor(localStorage, book.seriesId, book.readingDirection));

  const updateSettings = (next: Partial<ComicSettings>) => {
    const merged = { ...settings, ...next };
    saveSettings(localStorage, merged);
    setSettings(merged);
  };
  /** A mode for the whole series on this device, or null for the series' own direction. */
  const setMode = (next: ReadingMode | null) => {
    overrideSeriesMode(localStorage, book.seriesId, next);
    setModeState(readingModeFor(localStorage, book.seriesId, book.readingDirection));
  };

  return { settings, updateSettings, mode: modeState.mode, modeOverridden: modeState.overridden, setMode };
}
