/**
 * Spring Data's paging as Komga speaks it: `page` counts from 0, `size` defaults to 20 and is clamped to
 * 500, `unpaged=true` returns everything, `sort=<property>,<asc|desc>` (repeatable). Responses are the
 * Spring `Page` JSON that komga-client's `Page<T>` and Mihon's `PageWrapperDto` deserialize.
 */
import type { PageRequest } from '../lib/pagination';
import { komgaBadRequest } from './komga-errors';

export const DEFAULT_SIZE = 20;
export const MAX_SIZE = 500;
/** `unpaged=true` still reads in bounded pages: a series of this many books is far beyond real ones. */
export const UNPAGED_LIMIT = 10_000;

export interface KomgaPaging {
  page: number;
  size: number;
  unpaged: boolean;
  sort: Array<{ property: string; direction: 'asc' | 'desc' }>;
  /** What the Longbox list services take. */
  request: PageRequest;
}

const NON_NEGATIVE = /^\d{1,9}$/;

export function parsePaging(query: (name: string) => string[]): KomgaPaging {
  const unpaged = query('unpaged')[0]?.toLowerCase() === 'true';
  const pageText = query('page')[0];
  const sizeText = query('size')[0];
  if (pageText !== undefined && !NON_NEGATIVE.test(pageText)) {
    throw komgaBadRequest(`page must be a whole number from 0, got '${pageText}'`);
  }
  if (sizeText !== undefined && !NON_NEGATIVE.test(sizeText)) {
    throw komgaBadRequest(`size must be a whole number from 1, got '${sizeText}'`);
  }
  const page = pageText === undefined ? 0 : Number(pageText);
  // Spring treats size=0 as the default size.
  const requested = sizeText === undefined || Number(sizeText) === 0 ? DEFAULT_SIZE : Number(sizeText);
  const size = Math.min(requested, MAX_SIZE);
  const sort = query('sort').flatMap(parseSort);
  const request: PageRequest = unpaged
    ? { page: 1, pageSize: UNPAGED_LIMIT, offset: 0 }
    : { page: page + 1, pageSize: size, offset: page * size };
  return { page: unpaged ? 0 : page, size, unpaged, sort, request };
}

/** `a,desc`, `a,b,asc` (Spring applies the direction to every property listed before it). */
function parseSort(value: string): KomgaPaging['sort'] {
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const last = parts.at(-1)?.toLowerCase();
  const hasDirection = last === 'asc' || last === 'desc';
  const direction: 'asc' | 'desc' = last === 'desc' ? 'desc' : 'asc';
  return (hasDirection ? parts.slice(0, -1) : parts).map((property) => ({ property, direction }));
}

export interface SpringPage<T> {
  content: T[];
  pageable: {
    sort: SpringSort;
    offset: number;
    pageNumber: number;
    pageSize: number;
    paged: boolean;
    unpaged: boolean;
  };
  totalElements: number;
  totalPages: number;
  last: boolean;
  size: number;
  number: number;
  sort: SpringSort;
  first: boolean;
  numberOfElements: number;
  empty: boolean;
}

interface SpringSort {
  empty: boolean;
  sorted: boolean;
  unsorted: boolean;
}

export function springPage<T>(content: T[], total: number, paging: KomgaPaging): SpringPage<T> {
  const sorted = paging.sort.length > 0;
  const sort = { empty: !sorted, sorted, unsorted: !sorted };
  // Unpaged, Spring reports the whole content as one page of its own size.
  const size = paging.unpaged ? content.length : paging.size;
  const totalPages = paging.unpaged ? 1 : Math.ceil(total / size);
  return {
    content,
    pageable: {
      sort,
      offset: paging.unpaged ? 0 : paging.page * paging.size,
      pageNumber: paging.page,
      pageSize: size,
      paged: !paging.unpaged,
      unpaged: paging.unpaged,
    },
    totalElements: total,
    totalPages,
    last: paging.page + 1 >= totalPages,
    size,
    number: paging.page,
    sort,
    first: paging.page === 0,
    numberOfElements: content.length,
    empty: content.length === 0,
  };
}
