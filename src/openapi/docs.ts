/**
 * The interactive API reference (API.md §1): served at `api.api_docs_path` only when
 * `LONGBOX_API__ENABLE_API_DOCS=true`; otherwise those paths are 404 like any unknown route.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { handleNotFound } from '../middleware/error-handler';

export const docsRouter = new Hono<AppEnv>().get('*', async (c, next) => {
  const config = c.get('config');
  const base = config.LONGBOX_API__API_DOCS_PATH.replace(/\/+$/, '');
  const path = c.req.path;
  if (!path.startsWith(base) || (path.length > base.length && path[base.length] !== '/')) return next();
  if (!config.LONGBOX_API__ENABLE_API_DOCS) return handleNotFound(c);
  return c.text('API docs page: under construction', 200);
});
