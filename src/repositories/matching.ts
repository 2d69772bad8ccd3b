/**
 * Equality conditions by column name: `matching(apiKeys, { id, userId })` is
 * `and(eq(apiKeys.id, id), eq(apiKeys.userId, userId))`, the lookup most account rows are read and deleted by.
 */
import { and, eq, getTableColumns, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';

type Columns<T extends SQLiteTable> = T['_']['columns'];

/** Rows of `table` whose named columns hold these values. Every value must be given: undefined is a bug, not "any". */
export function matching<T extends SQLiteTable>(
  table: T,
  values: { [K in keyof Columns<T>]?: Columns<T>[K]['_']['data'] | Placeholder },
): SQL {
  const columns = getTableColumns(table) as Record<string, Columns<T>[string]>;
  return and(
    ...Object.entries(values).map(([name, value]) => {
      if (value === undefined) throw new TypeError(`matching: no value for ${name}`);
      return eq(columns[name] as Columns<T>[string], value);
    }),
  ) as SQL;
}

/** For a prepared statement: each named column equals the placeholder of the same name. */
export function matchingPlaceholders<T extends SQLiteTable>(table: T, ...names: Array<keyof Columns<T> & string>): SQL {
  return matching(table, Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as never);
}
