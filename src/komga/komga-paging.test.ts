import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors';
import { DEFAULT_SIZE, MAX_SIZE, parsePaging, springPage, UNPAGED_LIMIT } from './komga-paging';

const query =
  (params: Record<string, string | string[]>) =>
  (name: string): string[] => {
    const value = params[name];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  };

describe('Komga paging (Spring Data as Mihon and Komelia send it)', () => {
  it('counts pages from 0 with 20 items by default, and turns them into Longbox page requests', () => {
    const paging = parsePaging(query({}));
    expect(paging).toMatchObject({ page: 0, size: DEFAULT_SIZE, unpaged: false, sort: [] });
    expect(paging.request).toEqual({ page: 1, pageSize: 20, offset: 0 });
    expect(parsePaging(query({ page: '3', size: '50' })).request).toEqual({ page: 4, pageSize: 50, offset: 150 });
  });

  it('clamps the size to 500 and reads size=0 as the default, as Spring does', () => {
    expect(parsePaging(query({ size: '100000' })).size).toBe(MAX_SIZE);
    expect(parsePaging(query({ size: '0' })).size).toBe(DEFAULT_SIZE);
  });

  it('reads unpaged=true as everything from the start, in bounded pages', () => {
    const paging = parsePaging(query({ unpaged: 'TRUE', page: '5' }));
    expect(paging).toMatchObject({ page: 0, unpaged: true });
    expect(paging.request).toEqual({ page: 1, pageSize: UNPAGED_LIMIT, offset: 0 });
  });

  it('applies a sort direction to every property before it; without one, ascending', () => {
    const paging = parsePaging(query({ sort: ['metadata.titleSort,desc', 'created', 'a,b,asc'] }));
    expect(paging.sort).toEqual([
      { property: 'metadata.titleSort', direction: 'desc' },
      { property: 'created', direction: 'asc' },
      { property: 'a', direction: 'asc' },
      { property: 'b', direction: 'asc' },
    ]);
  });

  it('answers a malformed page or size with a 400 naming it', () => {
    for (const [params, name] of [
      [{ page: '-1' }, 'page'],
      [{ page: 'two' }, 'page'],
      [{ size: '1.5' }, 'size'],
    ] as const) {
      const error = (() => {
        try {
          parsePaging(query(params));
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
      expect((error as AppError).message).toContain(name);
    }
  });

  it('writes the Spring Page JSON: totals, first/last, and an unpaged page sized by its content', () => {
    const page = springPage(['a', 'b'], 45, parsePaging(query({ page: '2', size: '20', sort: 'name' })));
    expect(page).toMatchObject({
      content: ['a', 'b'],
      totalElements: 45,
      totalPages: 3,
      number: 2,
      size: 20,
      first: false,
      last: true,
      numberOfElements: 2,
      empty: false,
      sort: { sorted: true, unsorted: false, empty: false },
      pageable: { offset: 40, pageNumber: 2, pageSize: 20, paged: true, unpaged: false },
    });
    const all = springPage([1, 2, 3], 3, parsePaging(query({ unpaged: 'true' })));
    expect(all).toMatchObject({ size: 3, totalPages: 1, first: true, last: true, pageable: { paged: false } });
    expect(springPage([], 0, parsePaging(query({})))).toMatchObject({ empty: true, totalPages: 0, last: true });
  });
});
