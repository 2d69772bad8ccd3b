/**
 * The catalog database: D1 by default, libSQL when `LONGBOX_DATABASE__URL` is set. Both are SQLite, so
 * one drizzle schema and one set of migrations serve both; code only sees the `Database` type.
 */
import { type DrizzleD1Database, drizzle as drizzleD1 } from 'drizzle-orm/d1';
import { retryWhenBusy } from './busy-retry';
import * as schema from './schema';

export type Schema = typeof schema;
/**
 * The D1 flavour of drizzle's async SQLite database. libSQL's has the same query-builder and `batch`
 * surface (only the raw run-result type differs, which no repository reads), so it is used as one.
 */
export type Database = DrizzleD1Database<Schema>;

const d1Databases = new WeakMap<D1Database, Database>();

/**
 * One drizzle instance per binding for the isolate's life: building one walks the whole schema for the
 * relational API, which costs more CPU than a simple query when done on every request.
 */
export function createD1Database(d1: D1Database): Database {
  let db = d1Databases.get(d1);
  if (!db) {
    db = drizzleD1(retryWhenBusy(d1), { schema });
    d1Databases.set(d1, db);
  }
  return db;
}

/**
 * A statement every authenticated request runs, prepared once per database for the isolate's life:
 * drizzle then neither rebuilds its SQL nor re-maps its columns on each call.
 */
export function preparedPerDatabase<Query>(prepare: (db: Database) => Query): (db: Database) => Query {
  const prepared = new WeakMap<Database, Query>();
  return (db) => {
    let query = prepared.get(db);
    if (!query) {
      query = prepare(db);
      prepared.set(db, query);
    }
    return query;
  };
}

/** libSQL over HTTP(S)/WebSockets from inside workerd (the `web` client has no native parts). */
export async function createLibsqlWebDatabase(url: string, authToken?: string): Promise<Database> {
  const { createClient } = await import('@libsql/client/web');
  const { drizzle } = await import('drizzle-orm/libsql/web');
  return drizzle(createClient({ url, authToken }), { schema }) as unknown as Database;
}

export { schema };
