import { describe, expect, it } from 'vitest';
import { setLocale, t } from './index';
import { en } from './messages';

describe('the message catalogue', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(t('book.progress', { page: 3, total: 20 })).toBe('Page 3 of 20');
    expect(t('app.error')).toBe('Something went wrong: {message}');
  });

  it('uses the singular message for a count of one', () => {
    expect(t('series.bookCount', { count: 1 })).toBe('1 book');
    expect(t('series.bookCount', { count: 2 })).toBe('2 books');
  });

  it('falls back to English for a locale without a catalogue', () => {
    setLocale('fr-CA');
    expect(t('nav.home')).toBe(en['nav.home']);
  });
});
