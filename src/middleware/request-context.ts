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
import { readSession } from '../db/read-session';
import { requestBookmark, sendBookmark } from '../http/bookmark';
import { DeferredWork } from '../lib/deferred-work';
import { nestedContext, nestedRunOf } from '../http/speculation';

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

/** How a nested run reaches the app (http/speculation.ts): the app's own `fetch`. */
export type Dispatch = (request: Request, env: Env, ctx: ExecutionContext | undefined) => Response | Promise<Response>;

export function requestContext(databaseFactory: DatabaseFactory, dispatch: Dispatch) {
  return createMiddleware<AppEnv>(async function requestContext(c, next) {
    const nested = nestedRunOf(c);
    if (nested) {
      // The same request run again as another caller: its variables are the outer run's, and the outer run
      // writes the access-log line.
      const { shared } = nested;
      c.set('requestId', shared.requestId);
      c.set('config', shared.config);
      c.set('logger', shared.logger);
      c.set('services', shared.services);
      c.set('deferred', shared.deferred);
      c.set('dispatch', shared.dispatch);
      c.header(REQUEST_ID_HEADER, shared.requestId);
      await next();
      return;
    }
    const incoming = c.req.header(REQUEST_ID_HEADER);
    const requestId = incoming && VALID_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set('requestId', requestId);
    c.header(REQUEST_ID_HEADER, requestId);
    const config = readConfig(c.env);
    c.set('config', config);
    const logger = createLogger({ requestId }, config.LONGBOX_LOG__LEVEL);
    c.set('logger', logger);
    const ctx = executionContextOf(c);
    const deferred = new DeferredWork(
      // Without an execution context (in-process tests) the work still runs to completion.
      (work) => ctx?.waitUntil(work),
      (error, attempt) =>
        attempt.final
          ? logger.error('deferred work failed', { error: String(error), attempts: attempt.number })
          : logger.warn('deferred work failed; trying again', { error: String(error), attempt: attempt.number }),
    );
    c.set('deferred', deferred);
    c.set('dispatch', async (request, run) => dispatch(request, c.env, nestedContext(ctx, run)));
    const primary = await databaseFactory(c.env);
    // With read replicas, the request's statements go through one D1 session (db/read-session.ts).
    const session = config.LONGBOX_DATABASE__READ_REPLICAS ? readSession(c.env.DB, requestBookmark(c)) : null;
    c.set(
      'services',
      createServices({
        db: session?.db ?? primary,
        primary,
        config,
        env: c.env,
        defer: deferred.defer,
        deferUnheld: deferred.deferUnheld,
      }),
    );
    const started = Date.now();
    await next();
    if (session) sendBookmark(c, session.bookmark());
    logger.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Date.now() - started,
    });
  });
}

/** The request's execution context; in-process callers may have none. */
export function executionContextOf(c: { executionCtx: unknown }): ExecutionContext | undefined {
  try {
    return c.executionCtx as ExecutionContext;
  } catch {
    return undefined;
  }
}
