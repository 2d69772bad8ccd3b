/** How provider answers and links are read (issue 32): numbers, statuses, ids, Retry-After. */
import { describe, expect, it } from 'vitest';
import { externalIdsFromLinks } from './external-ids';
import { normalizeTitle } from './names';
import { parseSpan } from './numbers';
import { retryAfterMs } from './provider-http';
import { aniList } from './providers/anilist';
import { mangaUpdates, stateOfStatus, volumesOfStatus } from './providers/mangaupdates';

describe('release numbers', () => {
  it('reads single chapters, fractions, ranges and split chapters; volumes keep whole numbers', () => {
    expect(parseSpan('12', false)).toEqual({ start: 12, end: 12 });
    expect(parseSpan('12.5', false)).toEqual({ start: 12.5, end: 12.5 });
    expect(parseSpan('10-12', false)).toEqual({ start: 10, end: 12 });
    expect(parseSpan('12 ~ 10', false)).toEqual({ start: 10, end: 12 });
    expect(parseSpan('113a', false)).toEqual({ start: 113, end: 113 });
    expect(parseSpan('v.3', true)).toEqual({ start: 3, end: 3 });
    expect(parseSpan('2.5', true)).toBeNull();
    expect(parseSpan('', false)).toBeNull();
    expect(parseSpan('oneshot', false)).toBeNull();
  });

  it('normalizes titles for matching: case, accents, punctuation', () => {
    expect(normalizeTitle('  Boku no Héro Academia!! ')).toBe('boku no hero academia');
    expect(normalizeTitle('月の記憶')).toBe('月の記憶');
  });
});

describe('MangaUpdates', () => {
  it('reads volume counts and states from its status text (as Komf reads it)', () => {
    expect(volumesOfStatus('38 Volumes (Ongoing)')).toBe(38);
    expect(volumesOfStatus('1 Volume (Complete)')).toBe(1);
    expect(volumesOfStatus('311 Chapters (Complete)')).toBeNull();
    expect(stateOfStatus('38 Volumes (Ongoing)')).toBe('ongoing');
    expect(stateOfStatus('10 Volumes (Complete) 2 Volumes (Ongoing)')).toBeNull();
    expect(stateOfStatus(null)).toBeNull();
  });

  it('takes numeric ids and base-36 page slugs, and nothing else', () => {
    expect(mangaUpdates.normalizeId('15180124327')).toBe('15180124327');
    expect(mangaUpdates.normalizeId('6z1uqw7')).toBe('15180124327');
    expect(mangaUpdates.normalizeId('not an id')).toBeNull();
    expect(mangaUpdates.seriesUrl('15180124327')).toBe('https://www.mangaupdates.com/series/6z1uqw7');
  });
});

describe('ids from web links (ComicInfo Web, Komf links)', () => {
  it('finds one id per provider, first link first; other sites and anime pages are ignored', () => {
    const found = externalIdsFromLinks([
      'https://example.com/series/1',
      'https://anilist.co/anime/21/One-Piece',
      'https://www.mangaupdates.com/series/6z1uqw7/tsuki-no-kioku',
      'https://anilist.co/manga/30013/One-Piece',
      'https://mangaupdates.com/series/pb8uwds',
      'not a url',
    ]);
    expect(found.map((f) => [f.provider.key, f.externalId])).toEqual([
      ['mangaupdates', '15180124327'],
      ['anilist', '30013'],
    ]);
    expect(aniList.idFromLink(new URL('https://anilist.co/manga/abc'))).toBeNull();
  });
});

describe('Retry-After', () => {
  it('is seconds or an HTTP date; missing or garbled, a minute', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 10:02:00 GMT', now)).toBe(120_000);
    expect(retryAfterMs(null, now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBe(60_000);
  });
});
