/**
 * The D1 statements a migration costs: the migrate command's own code (scripts/migrate/run.ts) reading the Komga
 * database, its requests handed to Longbox's app itself (createApp: the same routes, services and repositories
 * as the worker) in Node over a libSQL connection to a copy of the benchmark's D1 file, counting every statement
 * each request sends to the database (a batch counts each of its statements).
 *
 *   node --import tsx --import ./bench/lib/wasm-modules.mjs bench/lib/migrate-statements.ts <d1 copy> <komga.sqlite> <api key>
 *
 * Prints JSON: { requests, statements, routes: { "<METHOD path>": { requests, statements, most } } }.
 */
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { MigrationClient } from '../../scripts/migrate/client';
import { readKomga } from '../../scripts/migrate/komga';
import { migrate } from '../../scripts/migrate/run';
import { createApp } from '../../src/app';
import { type Database, schema } from '../../src/db/client';

async function main() {
  const [file, komga, key] = process.argv.slice(2) as [string, string, string];
  const libsql = createClient({ url: `file:${file}` });
  let statements = 0;
  // What reaches the database: one statement per execute, each statement of a batch.
  const client = new Proxy(libsql, {
    get(target, name, receiver) {
      const member = Reflect.get(target, name, receiver);
      if (name === 'execute') {
        return (...args: unknown[]) => {
          statements += 1;
          return member.apply(target, args);
        };
      }
      if (name === 'batch') {
        return (list: unknown[], ...rest: unknown[]) => {
          statements += list.length;
          return member.apply(target, [list, ...rest]);
        };
      }
      return typeof member === 'function' ? member.bind(target) : member;
    },
  });
  const db = drizzle(client, { schema }) as unknown as Database;
  const app = createApp({ databaseFactory: () => db });
  const routes: Record<string, { requests: number; statements: number; most: number }> = {};
  const fetcher = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const before = statements;
    const response = await app.request(url.pathname + url.search, init, {} as Env);
    const route = `${init?.method ?? 'GET'} ${url.pathname}`;
    const spent = statements - before;
    routes[route] ??= { requests: 0, statements: 0, most: 0 };
    const entry = routes[route];
    entry.requests += 1;
    entry.statements += spent;
    entry.most = Math.max(entry.most, spent);
    return response;
  }) as typeof fetch;
  const migration = new MigrationClient('http://longbox.bench', key, fetcher);
  const report = await migrate(
    readKomga(komga),
    migration,
    { url: 'http://longbox.bench', libraryMap: [], dryRun: false, mergeUsers: false },
    () => {},
  );
  console.log(
    JSON.stringify({
      requests: migration.requests,
      statements,
      routes,
      progressWritten: report.progress.written,
      matched: report.books.total - report.books.unmatched.length,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
