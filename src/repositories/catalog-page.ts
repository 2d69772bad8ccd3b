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
 * the outer query can re-apply the order without recomputing them; and `total`, the number of matching
 * rows when the CTE counts them itself (`countInPage`), else NULL.
 *
 * Counting in the page (`count(*) OVER ()`) suits a page that must visit and sort every match anyway
 * (a filter or a search drives it, no index serves its order): the total comes from the same pass
 * instead of a second statement evaluating the whole filter again. A page an index serves in order
 * stops after its rows, so it keeps the separate count.
 */
export function pageSelection(id: SQLWrapper, keys: readonly SortKey[], countInPage = false) {
  if (keys.length > MAX_SORT_KEYS) throw new Error(`at most ${MAX_SORT_KEYS} sort keys`);
  const slot = (i: number) => keys[i]?.expr ?? sql`NULL`;
  return {
    id: sql<string>`${id}`.as('id'),
    k0: sql<unknown>`${slot(0)}`.as('k0'),
    k1: sql<unknown>`${slot(1)}`.as('k1'),
    k2: sql<unknown>`${slot(2)}`.as('k2'),
    total: sql<number | null>`${countInPage ? sql`count(*) OVER ()` : sql`NULL`}`.as('total'),
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

/** The CTE's `total` as the outer query selects it (see pageSelection). */
export const PAGE_TOTAL = sql<number | null>`"page"."total"`;

/**
 * Runs a page (rows selecting PAGE_TOTAL as `pageTotal`) and finds the list's total: from the rows when
 * the page counted itself, except for a page past the end, which has no row to carry it; otherwise from
 * the count statement, run alongside. Statements are drizzle builders, which only run when awaited.
 */
export async function pageWithTotal<Row extends { pageTotal: number | null }>(
  rowsQuery: PromiseLike<Row[]>,
  countQuery: PromiseLike<Array<{ n: number }>>,
  countInPage: boolean,
  offset: number,
): Promise<{ rows: Array<Omit<Row, 'pageTotal'>>; total: number }> {
  const countOf = async (query: PromiseLike<Array<{ n: number }>>) => (await query)[0]?.n ?? 0;
  let rows: Row[];
  let total: number;
  if (countInPage) {
    rows = await rowsQuery;
    total = rows.length > 0 ? Number(rows[0]?.pageTotal) : offset > 0 ? await countOf(countQuery) : 0;
  } else {
    [rows, total] = await Promise.all([rowsQuery, countOf(countQuery)]);
  }
  return { rows: rows.map(({ pageTotal: _, ...row }) => row), total };
}
