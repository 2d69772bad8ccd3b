/**
 * List pages in two steps inside one statement: a `page` CTE picks the ids of the requested page (only
 * the filter and sort columns are touched, so an index can serve the order and LIMIT stops early), then
 * the outer query joins and enriches just those rows (names, the user's progress, counts). Enrichment
 * therefore costs one query per page, whatever its size, and never runs for rows outside the page.
 * Every list of books and series is read by `readList`.
 */
import { asc, count, desc, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { SQLiteTable, WithSubqueryWithSelection } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';

export type SortDirection = 'asc' | 'desc';

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

const orderBy = (expr: SQL, direction: SortDirection) => (direction === 'asc' ? asc(expr) : desc(expr));

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
function pageSelection(id: SQLWrapper, keys: readonly SortKey[], countInPage: boolean) {
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

/**
 * The CTE's columns as the outer query must name them: drizzle renders a CTE field unqualified, which
 * is ambiguous next to the joined table's own `id`.
 */
const PAGE_ID = sql.raw('"page"."id"');
const CARRIED = [sql.raw('"page"."k0"'), sql.raw('"page"."k1"'), sql.raw('"page"."k2"')];
const PAGE_TOTAL = sql<number | null>`"page"."total"`;

/** Which page of a list: its order, size and start. */
export interface PageWindow {
  keys: SortKey[];
  limit: number;
  offset: number;
}

/** A single row looked up by id through the same enrichment as a list's. */
export const ONE_ROW: PageWindow = { keys: [], limit: 1, offset: 0 };

/** Which rows a list holds and in what order. */
export interface ListSpec {
  /** The id of a listed row (the page CTE's `id`). */
  id: SQLWrapper;
  /** The rows the page reads (a table, or a source as SQL)… */
  from: SQLiteTable | SQL;
  /** …inner-joined to these tables. */
  joins?: ReadonlyArray<{ table: SQLiteTable; on: SQL }>;
  /** The rows the total counts, when another source serves the count better; default `from`. */
  countFrom?: SQLiteTable | SQL;
  where: SQL | undefined;
  /**
   * The total as one scalar expression, when a formula cheaper than counting the rows exists (an
   * unfiltered list for a restricted viewer: visibility.ts visibleCount); replaces countFrom.
   */
  total?: SQL<number>;
  /** Full-text matches (search-index.ts rankedMatches), joined as `m` on the row id. */
  match?: SQL;
  /** One listed row per group (a series listed from its books' progress rows). */
  groupBy?: SQLWrapper;
  window: PageWindow;
  /** The page visits every match anyway: it counts them itself (see pageSelection). */
  countInPage: boolean;
}

/** A list's page CTE, the statement counting the whole list, and what reading them needs. */
interface ListPage {
  cte: PageCte;
  count: PromiseLike<Array<{ n: number }>>;
  keys: readonly SortKey[];
  countInPage: boolean;
  offset: number;
}

/** `query` joined to the spec's tables and full-text matches. */
function joined<Q extends { innerJoin: (table: SQLiteTable | SQL, on: SQL) => unknown }>(spec: ListSpec, query: Q): Q {
  for (const { table, on } of spec.joins ?? []) query.innerJoin(table, on);
  if (spec.match) query.innerJoin(sql`(${spec.match}) AS m`, sql`m.entity_id = ${spec.id}`);
  return query;
}

/** The order of the spec's page: its sort keys, ties broken on id (pages never overlap or skip rows). */
const pageOrder = (spec: ListSpec) => [
  ...spec.window.keys.map((key) => orderBy(key.expr, key.direction)),
  asc(sql`${spec.id}`),
];

function listPage(db: Database, spec: ListSpec): ListPage {
  const countQuery = spec.total
    ? db.all<{ n: number }>(sql`SELECT ${spec.total} AS n`)
    : joined(
        spec,
        db
          .select({ n: spec.groupBy ? sql<number>`count(DISTINCT ${spec.groupBy})` : count() })
          .from((spec.countFrom ?? spec.from) as SQLiteTable)
          .$dynamic(),
      ).where(spec.where);
  const { keys, limit, offset } = spec.window;
  const pageQuery = joined(
    spec,
    db
      .select(pageSelection(spec.id, keys, spec.countInPage))
      .from(spec.from as SQLiteTable)
      .$dynamic(),
  ).where(spec.where);
  if (spec.groupBy) pageQuery.groupBy(sql`${spec.groupBy}`);
  const cte = db.$with('page').as(
    pageQuery
      .orderBy(...pageOrder(spec))
      .limit(limit)
      .offset(offset),
  );
  return { cte, count: countQuery, keys, countInPage: spec.countInPage, offset };
}

/**
 * The ids of the page `spec` asks for, in its order, as a statement not yet run: for lists only their
 * members' ids are wanted of (Komga's `seriesIds`), several of which go to D1 in one batch. No count, no
 * enrichment.
 */
export function pageIdsQuery(db: Database, spec: ListSpec) {
  const query = joined(
    spec,
    db
      .select({ id: sql<string>`${spec.id}`.as('id') })
      .from(spec.from as SQLiteTable)
      .$dynamic(),
  ).where(spec.where);
  if (spec.groupBy) query.groupBy(sql`${spec.groupBy}`);
  return query
    .orderBy(...pageOrder(spec))
    .limit(spec.window.limit)
    .offset(spec.window.offset);
}

/** What the outer query of a page reads from its CTE. */
export interface PageRows {
  cte: PageCte;
  /** The listed row's id, to join its table on. */
  id: SQL;
  /** Select it as `pageTotal`. */
  total: SQL<number | null>;
  /** ORDER BY of the outer query, over the CTE's carried sort keys. */
  order: SQL[];
}

/**
 * What the outer query of a page selects for the CTE's ids, in a caller's shape (the API's responses, the
 * Komga API's own rows): it selects `total` as `pageTotal` and orders by `order`.
 */
export type PageEnrichment<Row extends { pageTotal: number | null }> = (page: PageRows) => PromiseLike<Row[]>;

/**
 * Reads the page `spec` asks for with the rows `enrich` selects for the CTE's ids (selecting `total` as `pageTotal`, in
 * `order`) and finds the list's total: from the rows when the page counted itself, except for a page
 * past the end, which has no row to carry it; otherwise from the count statement, run alongside.
 * Statements are drizzle builders, which only run when awaited.
 *
 * Not one D1 batch: batched results come back as objects keyed by column name, which loses the joined
 * tables' same-named columns (title, id…); a plain query reads rows positionally.
 */
export async function readList<Row extends { pageTotal: number | null }>(
  db: Database,
  spec: ListSpec,
  enrich: PageEnrichment<Row>,
): Promise<{ rows: Array<Omit<Row, 'pageTotal'>>; total: number }> {
  const page = listPage(db, spec);
  const order = [...page.keys.map((key, i) => orderBy(CARRIED[i] as SQL, key.direction)), asc(PAGE_ID)];
  const read = () => enrich({ cte: page.cte, id: PAGE_ID, total: PAGE_TOTAL, order });
  const countOf = async () => (await page.count)[0]?.n ?? 0;
  let rows: Row[];
  let total: number;
  if (page.countInPage) {
    rows = await read();
    total = rows.length > 0 ? Number(rows[0]?.pageTotal) : page.offset > 0 ? await countOf() : 0;
  } else {
    [rows, total] = await Promise.all([read(), countOf()]);
  }
  return { rows: rows.map(({ pageTotal: _, ...row }) => row), total };
}
