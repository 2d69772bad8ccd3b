/**
 * The comic reader's settings, kept on this device: layout, fit, cover-alone, split and incognito apply to
 * every book; the reading mode defaults to the series' direction (the book's effective
 * `readingDirection`) and can be overridden per series (manga, western comics and webtoons in one library
 * need different modes; notes §2 #11).
 */
import type { FitMode } from './fit';
import type { LayoutOptions, PageLayout, ReadingMode } from './layout';
import type { KeyValueStore } from './progress-saver';

export interface ComicSettings {
  layout: PageLayout;
  fit: FitMode;
  coverAlone: boolean;
  splitWide: boolean;
  incognito: boolean;
}

export const DEFAULT_SETTINGS: ComicSettings = {
  layout: 'single',
  fit: 'screen',
  coverAlone: true,
  splitWide: false,
  incognito: false,
};

const SETTINGS_KEY = 'longbox.reader.settings';
const seriesKey = (seriesId: string) => `longbox.reader.series.${seriesId}.mode`;

export const READING_MODES: readonly ReadingMode[] = ['ltr', 'rtl', 'ttb', 'webtoon'];
export const FIT_MODES: readonly FitMode[] = ['screen', 'width', 'height', 'original'];

function isMode(value: unknown): value is ReadingMode {
  return typeof value === 'string' && (READING_MODES as readonly string[]).includes(value);
}

export function loadSettings(store: KeyValueStore): ComicSettings {
  try {
    const stored = JSON.parse(store.getItem(SETTINGS_KEY) ?? '{}') as Partial<ComicSettings>;
    return {
      layout: stored.layout === 'double' ? 'double' : DEFAULT_SETTINGS.layout,
      fit: FIT_MODES.includes(stored.fit as FitMode) ? (stored.fit as FitMode) : DEFAULT_SETTINGS.fit,
      coverAlone: typeof stored.coverAlone === 'boolean' ? stored.coverAlone : DEFAULT_SETTINGS.coverAlone,
      splitWide: typeof stored.splitWide === 'boolean' ? stored.splitWide : DEFAULT_SETTINGS.splitWide,
      incognito: typeof stored.incognito === 'boolean' ? stored.incognito : DEFAULT_SETTINGS.incognito,
    };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function saveSettings(store: KeyValueStore, settings: ComicSettings): void {
  store.setItem(SETTINGS_KEY, JSON.stringify(settings));
}

/** The series' override if one is set, else the book's direction, else left to right. */
export function readingModeFor(store: KeyValueStore, seriesId: string, bookDirection: string | null | undefined) {
  const override = store.getItem(seriesKey(seriesId));
  if (isMode(override)) return { mode: override, overridden: true };
  return { mode: isMode(bookDirection) ? bookDirection : ('ltr' as ReadingMode), overridden: false };
}

/** Sets (or with null clears) the series' reading mode on this device. */
export function overrideSeriesMode(
  store: KeyValueStore & { removeItem(key: string): void },
  seriesId: string,
  mode: ReadingMode | null,
) {
  if (mode === null) store.removeItem(seriesKey(seriesId));
  else store.setItem(seriesKey(seriesId), mode);
}

export function layoutOptions(settings: ComicSettings, mode: ReadingMode): LayoutOptions {
  return { mode, layout: settings.layout, coverAlone: settings.coverAlone, splitWide: settings.splitWide };
}

export function nextIn<T>(values: readonly T[], current: T): T {
  return values[(values.indexOf(current) + 1) % values.length]!;
}
