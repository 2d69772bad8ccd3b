/**
 * A D1 read replica that lags, for the read-replica tests (DECISIONS.md §Far readers): `REPLICA_SIM`, a second
 * local database, gets a copy of the catalog as it is now, and the worker's sessions read it where D1 would let
 * a replica answer (src/fault-injection/platform-faults.ts, LaggingReplica). Whatever the primary gets after the
 * copy, the replica lacks until the next copy: its lag.
 */
import { applyD1Migrations, env } from 'cloudflare:test';
import type { LaggingReplica } from '../../src/fault-injection/platform-faults';

/** Tables a migration keeps for itself, and the full-text index (its shadow tables are written through it). */
const SKIPPED = /^(sqlite_|_cf_|d1_migrations$)|^catalog_search/;

/** The replica, caught up with the primary as it is now. */
export async function laggingReplica(): Promise<LaggingReplica> {
  const replica = env.REPLICA_SIM;
  await applyD1Migrations(replica, env.TEST_MIGRATIONS);
  const session = env.DB.withSession('first-primary');
  const tables = (
    await session.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{ name: string }>()
  ).results
    .map((t) => t.name)
    .filter((name) => !SKIPPED.test(name));
  const copies: D1PreparedStatement[] = [replica.prepare('PRAGMA defer_foreign_keys = on')];
  for (const table of tables) {
    copies.push(replica.prepare(`DELETE FROM "${table}"`));
    const rows = (await session.prepare(`SELECT * FROM "${table}"`).all<Record<string, unknown>>()).results;
    for (const row of rows) {
      const columns = Object.keys(row);
      copies.push(
        replica
          .prepare(
            `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          )
          .bind(...columns.map((c) => row[c] ?? null)),
      );
    }
  }
  await replica.batch(copies);
  return { database: replica, caughtUpTo: session.getBookmark() ?? '', sessions: [] };
}
