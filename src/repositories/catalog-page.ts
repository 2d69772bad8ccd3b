/**
 * List pages in two steps inside one statement: a `page` CTE picks the ids of the requested page (only
 * the filter and sort columns are touched, so an index can serve the order and LIMIT stops early), then
 * the outer query joins and enriches just those rows (names, the user's progress, counts). Enrichment
 * therefore costs one query per page, whatever its size, and never runs for rows outside the page.
 */
import { asc, desc, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { WithSubqueryWithSelection } from 'drizzle-orm/sqlite-core';
import type { SortDirection } from '../catalog/sort';

/** One ORDER BY term. Lists tie-break on id, so pages never overlap or skip rows. */
export interface SortKey {
  expr: SQL;
  direction: SortDirection;
}

export const MAX_SORT_KEYS = 3;

/** `expr IS NULL` ascending before `expr`: rows without a value come last in both directions. */
export function nullsLast(expr: SQL, direction: SortDirection): SortKey[] {
  return [
    { expr: sql`(${expr}) IS NULL`, direction: 'asc' },
    { expr, direction },
  ];
}

/** Relevance of a full-text match joined as `m` (search-index.ts rankedMatches; bm25: lower is better). */
export const RELEVANCE: SortKey[] = [{ expr: sql`m.rank`, direction: 'asc' }];

const order = (expr: SQL, direction: SortDirection) => (direction === 'asc' ? asc(expr) : desc(expr));

/**
 * What a page CTE selects: the row id and the sort keys (k0..k2; unused slots are NULL), carried so
 * the outer query can re-apply the order without recomputing them.
 */
export function pageSelection(id: SQLWrapper, keys: readonly SortKey[]) {
  if (keys.length > MAX_SORT_KEYS) throw new Error(`at most ${MAX_SORT_KEYS} sort keys`);
  const slot = (i: number) => keys[i]?.expr ?? sql`NULL`;
  return {
    id: sql<string>`${id}`.as('id'),
    k0: sql<unknown>`${slot(0)}`.as('k0'),
    k1: sql<unknown>`${slot(1)}`.as('k1'),
    k2: sql<unknown>`${slot(2)}`.as('k2'),
  };
}

export type PageCte = WithSubqueryWithSelection<ReturnType<typeof pageSelection>, 'page'>;

/** ORDER BY of the page CTE: the keys, then the id. */
export function orderKeys(keys: readonly SortKey[], id: SQLWrapper): SQL[] {
  return [...keys.map((key) => order(key.expr, key.direction)), asc(sql`${id}`)];
}

/**
 * The CTE's columns as the outer query must name them: drizzle renders a CTE field unqualified, which
 * is ambiguous next to the joined table's own `id`.
 */
export const PAGE_ID = sql.raw('"page"."id"');
const CARRIED = [sql.raw('"page"."k0"'), sql.raw('"page"."k1"'), sql.raw('"page"."k2"')];

/** ORDER BY of the outer query, over the CTE's carried columns. */
export function orderPage(keys: readonly SortKey[]): SQL[] {
  return [...keys.map((key, i) => order(CARRIED[i] as SQL, key.direction)), asc(PAGE_ID)];
}
