/**
 * The Komga-compatible API at /komga (DECISIONS.md §Reader apps; docs/notes/komga-clients.md §4.5):
 * its own Hono app so that Komga's conventions apply to every path under the prefix — trailing slashes
 * accepted (Paperback sends `genres/`), Spring-style error bodies, 401 with a Basic challenge — while
 * the data, permissions and services are the API's. app.ts hands /komga requests to it unless
 * `LONGBOX_KOMGA__ENABLED` is false.
 */
import { Hono } from 'hono';
import { readConfig } from '../config/config';
import type { AppEnv } from '../env';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../lib/errors';
import { type DatabaseFactory, executionContextOf, requestContext } from '../middleware/request-context';
import { KOMGA_PREFIX, komgaAuthenticate } from './komga-auth';
import { handleKomgaError, komgaErrorResponse } from './komga-errors';
import { registerCatalogRoutes } from './komga-catalog.routes';
import { registerMediaRoutes } from './komga-media.routes';
import type { KomgaApp } from './komga-http';
import { registerProgressRoutes } from './komga-progress.routes';
import { registerAnonymousFontRoute, registerReadiumRoutes } from './komga-readium.routes';
import { isThumbnailUpload, registerMetadataRoutes, THUMBNAIL_UPLOAD_LIMIT } from './komga-metadata.routes';
import { registerListRoutes } from './komga-lists.routes';
import { registerUserRoutes } from './komga-users.routes';

const MAX_BODY_BYTES = 1024 * 1024;

export function createKomgaApp(databaseFactory: DatabaseFactory) {
  const app: KomgaApp = new Hono<AppEnv>({ strict: false }).basePath(KOMGA_PREFIX);
  app.onError(handleKomgaError);
  app.notFound((c) => komgaErrorResponse(c, 404, `No endpoint ${c.req.method} ${c.req.path}`));
  app.use(
    '*',
    requestContext(databaseFactory, (request, env, ctx) => app.fetch(request, env, ctx)),
  );
  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new AppError('PayloadTooLarge', `Request body exceeds ${maxSize} bytes`);
      },
    });
  const [small, thumbnail] = [limit(MAX_BODY_BYTES), limit(THUMBNAIL_UPLOAD_LIMIT)];
  // Thumbnail uploads carry an image (Komf sends up to 1 MB, a user more); every other body stays small.
  app.use('*', (c, next) => (isThumbnailUpload(c.req.method, c.req.path) ? thumbnail : small)(c, next));
  registerAnonymousFontRoute(app);
  app.use('*', komgaAuthenticate());
  registerProgressRoutes(app);
  registerUserRoutes(app);
  registerCatalogRoutes(app);
  registerListRoutes(app);
  registerMediaRoutes(app);
  registerReadiumRoutes(app);
  registerMetadataRoutes(app);
  return app;
}

/**
 * Hands every /komga request to the Komga app, registered ahead of the API's middleware so that it runs
 * its own (request context, errors). Disabled, /komga paths fall through to the 404 of unknown routes.
 */
export function mountKomgaApi(app: Hono<AppEnv>, databaseFactory: DatabaseFactory): void {
  const komga = createKomgaApp(databaseFactory);
  app.all(`${KOMGA_PREFIX}/*`, (c, next) =>
    readConfig(c.env).LONGBOX_KOMGA__ENABLED ? komga.fetch(c.req.raw, c.env, executionContextOf(c)) : next(),
  );
}
