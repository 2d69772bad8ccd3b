/**
 * First middleware of every request: request id (`X-Request-Id`, echoed back), configuration, the
 * structured logger, the service graph, and one access-log line when the response is ready.
 */
import { createMiddleware } from 'hono/factory';
import { readConfig } from '../config/config';
import { createD1Database, createLibsqlWebDatabase, type Database } from '../db/client';
import type { AppEnv } from '../env';
import { createLogger } from '../lib/logger';
import { createServices } from '../composition-root';

const REQUEST_ID_HEADER = 'X-Request-Id';
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** How the app reaches its database; tests over a libSQL file in Node pass their own. */
export type DatabaseFactory = (env: Env) => Database | Promise<Database>;

const libsqlDatabases = new WeakMap<object, Promise<Database>>();

export const defaultDatabaseFactory: DatabaseFactory = (env) => {
  const config = readConfig(env);
  if (!config.LONGBOX_DATABASE__URL) return createD1Database(env.DB);
  let db = libsqlDatabases.get(env);
  if (!db) {
    db = createLibsqlWebDatabase(config.LONGBOX_DATABASE__URL, config.LONGBOX_DATABASE__AUTH_TOKEN);
    libsqlDatabases.set(env, db);
  }
  return db;
};

export function requestContext(databaseFactory: DatabaseFactory) {
  return createMiddleware<AppEnv>(async function requestContext(c, next) {
    const incoming = c.req.header(REQUEST_ID_HEADER);
    const requestId = incoming && VALID_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set('requestId', requestId);
    c.header(REQUEST_ID_HEADER, requestId);
    const config = readConfig(c.env);
    c.set('config', config);
    const logger = createLogger({ requestId }, config.LONGBOX_LOG__LEVEL);
    c.set('logger', logger);
    const defer = (work: Promise<unknown>) => {
      const guarded = work.catch((error) => logger.error('deferred work failed', { error: String(error) }));
      try {
        c.executionCtx.waitUntil(guarded);
      } catch {
        // No execution context (in-process tests): the promise still runs to completion.
      }
    };
    const db = await databaseFactory(c.env);
    c.set('services', createServices({ db, config, env: c.env, defer }));
    const started = Date.now();
    await next();
    logger.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Date.now() - started,
    });
  });
}
