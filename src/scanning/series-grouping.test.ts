import { describe, expect, it } from 'vitest';
import { emptyMetadata } from '../media/container';
import { splitKey } from './book-keys';
import { seriesGroupOf, sortTitle } from './series-grouping';

const groupOf = (libraryPath: string, key: string, metadata: { series?: string; title?: string } | null = null) =>
  seriesGroupOf(
    libraryPath,
    key,
    splitKey(libraryPath, key),
    metadata && { ...emptyMetadata(), series: metadata.series ?? null, title: metadata.title ?? null },
  );

describe('series grouping (README: Bringing a library in)', () => {
  it('makes the books of one folder one series, titled after the folder', () => {
    const first = groupOf('manga', 'manga/Berserk/Berserk v01.cbz');
    expect(first).toEqual({ groupKey: 'folder:Berserk', path: 'manga/Berserk', title: 'Berserk' });
    expect(groupOf('manga', 'manga/Berserk/Berserk v02.cbz')).toEqual(first);
  });

  it('keys a nested folder by its whole path and titles it after its own name', () => {
    expect(groupOf('comics', 'comics/Marvel/X-Men/X-Men 001.cbz')).toEqual({
      groupKey: 'folder:Marvel/X-Men',
      path: 'comics/Marvel/X-Men',
      title: 'X-Men',
    });
  });

  it('titles a folder series by the series name its metadata states', () => {
    expect(groupOf('manga', 'manga/berserk-scans/01.cbz', { series: 'Berserk' })).toEqual({
      groupKey: 'folder:berserk-scans',
      path: 'manga/berserk-scans',
      title: 'Berserk',
    });
  });

  it('makes a book in the library root its own series, titled by its metadata title or its file name', () => {
    expect(groupOf('comics', 'comics/Watchmen.cbz')).toEqual({
      groupKey: 'book:comics/Watchmen.cbz',
      path: 'comics/Watchmen.cbz',
      title: 'Watchmen',
    });
    expect(groupOf('comics', 'comics/wm.cbz', { title: 'Watchmen' })).toMatchObject({ title: 'Watchmen' });
  });

  it('puts root books whose metadata names the same series (any case) into one series', () => {
    const first = groupOf('comics', 'comics/saga-01.cbz', { series: 'Saga' });
    expect(first).toEqual({ groupKey: 'series:saga', path: 'comics', title: 'Saga' });
    expect(groupOf('comics', 'comics/saga-02.cbz', { series: 'SAGA ' }).groupKey).toBe(first.groupKey);
  });

  it('groups a library at the bucket root the same way', () => {
    expect(groupOf('', 'Berserk/Berserk v01.cbz')).toEqual({
      groupKey: 'folder:Berserk',
      path: 'Berserk',
      title: 'Berserk',
    });
  });
});

describe('sort titles', () => {
  it('moves a leading English article to the end and ignores case and outer spaces', () => {
    expect(sortTitle('The Walking Dead')).toBe('walking dead, the');
    expect(sortTitle(' A Silent Voice ')).toBe('silent voice, a');
    expect(sortTitle('An Embarrassment of Witches')).toBe('embarrassment of witches, an');
  });

  it('leaves titles that only start with the letters of an article alone', () => {
    expect(sortTitle('Theodore')).toBe('theodore');
    expect(sortTitle('Akira')).toBe('akira');
    expect(sortTitle('The')).toBe('the');
  });
});
