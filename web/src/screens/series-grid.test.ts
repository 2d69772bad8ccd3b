import { describe, expect, it } from 'vitest';
import { gridAddressOf, seriesCondition } from './series-grid';

describe('the series filter sent to POST /series/list', () => {
  it('is absent when nothing narrows the list', () => {
    expect(seriesCondition(null, { status: '', publisher: '' })).toBeUndefined();
  });

  it('combines library, read status and publisher with allOf', () => {
    expect(seriesCondition('lib-1', { status: 'in_progress', publisher: 'Dark' })).toEqual({
      allOf: [
        { libraryId: { operator: 'is', value: 'lib-1' } },
        { readStatus: { operator: 'is', value: 'in_progress' } },
        { publisher: { operator: 'contains', value: 'Dark' } },
      ],
    });
  });
});

describe('a smart collection opened again in the grid (Edit filter)', () => {
  it('gets back the library, filters and sort it was saved with', () => {
    const condition = seriesCondition('lib-1', { status: 'unread', publisher: 'Dark', name: 'Saga', genre: 'Drama' });
    const address = gridAddressOf(condition, 'date_added,desc', 'col-1') ?? '';
    const url = new URL(address, 'http://x');
    expect(url.pathname).toBe('/libraries/lib-1');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      genre: 'Drama',
      status: 'unread',
      publisher: 'Dark',
      name: 'Saga',
      sort: 'date_added',
      order: 'desc',
      collection: 'col-1',
    });
  });

  it('is every library without a library leaf, and null for a condition the grid cannot show', () => {
    expect(gridAddressOf(seriesCondition(null, { name: 'A' }), null, 'c')).toBe('/libraries/all?name=A&collection=c');
    expect(gridAddressOf({ anyOf: [{ name: { operator: 'contains', value: 'A' } }] }, null, 'c')).toBeNull();
    expect(gridAddressOf({ allOf: [{ name: { operator: 'beginsWith', value: 'A' } }] }, null, 'c')).toBeNull();
  });
});
