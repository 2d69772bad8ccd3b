/** Reader settings (issue 12 point 3): the reading direction comes from the series unless overridden for it. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, loadSettings, overrideSeriesMode, readingModeFor, saveSettings } from './settings';

class MemoryStore {
  readonly data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
}

describe('reader settings', () => {
  it('reads in the series direction until the reader overrides it for that series only', () => {
    const store = new MemoryStore();
    expect(readingModeFor(store, 's1', 'rtl')).toEqual({ mode: 'rtl', overridden: false });
    expect(readingModeFor(store, 's1', null)).toEqual({ mode: 'ltr', overridden: false });
    overrideSeriesMode(store, 's1', 'webtoon');
    expect(readingModeFor(store, 's1', 'rtl')).toEqual({ mode: 'webtoon', overridden: true });
    expect(readingModeFor(store, 's2', 'rtl')).toEqual({ mode: 'rtl', overridden: false });
    overrideSeriesMode(store, 's1', null);
    expect(readingModeFor(store, 's1', 'rtl')).toEqual({ mode: 'rtl', overridden: false });
  });

  it('keeps settings and falls back to defaults for anything unreadable', () => {
    const store = new MemoryStore();
    expect(loadSettings(store)).toEqual(DEFAULT_SETTINGS);
    saveSettings(store, { ...DEFAULT_SETTINGS, layout: 'double', fit: 'height', incognito: true });
    expect(loadSettings(store)).toMatchObject({ layout: 'double', fit: 'height', incognito: true });
    store.setItem('longbox.reader.settings', '{"fit":"sideways","layout":3}');
    expect(loadSettings(store)).toEqual(DEFAULT_SETTINGS);
    store.setItem('longbox.reader.settings', 'not json');
    expect(loadSettings(store)).toEqual(DEFAULT_SETTINGS);
  });
});
