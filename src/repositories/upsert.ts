/**
 * What an upsert's `ON CONFLICT … DO UPDATE` shares: columns that take the value the INSERT proposed.
 */
import { getTableColumns, type SQL, sql, type Table } from 'drizzle-orm';

/**
 * A `set` in which each of `keys` takes the proposed row's value (`excluded.<column>`), by its column's name as
 * written in the table, so the SQL is the same as spelling each out.
 */
export function fromExcluded<T extends Table, K extends keyof T['_']['columns'] & string>(
  table: T,
  keys: readonly K[],
): Record<K, SQL> {
  const columns = getTableColumns(table);
  return Object.fromEntries(keys.map((key) => [key, sql.raw(`excluded.${columns[key]?.name}`)])) as Record<K, SQL>;
}
