/**
 * Builds the Hono app: request context, body limits, `/api/v1` routers, the OpenAPI document, the
 * optional docs page, and the error envelope for everything that fails.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { MAX_COVER_BYTES } from './services/covers.service';
import { mountKomgaApi } from './komga/komga.app';
import { mountKoboApi } from './kobo/kobo.app';
import type { AppEnv } from './env';
import { AppError, badRequest } from './lib/errors';
import { defaultDatabaseFactory, type DatabaseFactory, requestContext } from './middleware/request-context';
import { handleError } from './middleware/error-handler';
import { apiRouters } from './routes';
import { buildOpenApiDocument, registerOpenApi } from './openapi/document';
import { createDocsRouter } from './openapi/docs';
import { OPDS1_BASE } from './opds/v1/atom-feed';
import { opds1Router } from './opds/v1/opds1.routes';
import { OPDS2_BASE } from './opds/v2/opds2-documents';
import { opds2Router } from './opds/v2/opds2.routes';
import { securityHeaders } from './http/security-headers';
import { nestedRunOf } from './http/speculation';
import { serveWebApp } from './web/web-app';
import { KOREADER_BASE, koreaderRouter } from './koreader/kosync.routes';

export const API_PREFIX = '/api/v1';
/** JSON bodies are small; file uploads have their own streaming routes without this limit. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

export interface AppOptions {
  databaseFactory?: DatabaseFactory;
}

export function createApp({ databaseFactory = defaultDatabaseFactory }: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>();
  // Outermost: nosniff, the referrer policy and a content policy on every answer, /komga's included.
  app.use('*', securityHeaders());
  // Then: /komga requests go to the Komga-compatible API before the API's own middleware runs.
  mountKomgaApi(app, databaseFactory);
  // Kobo e-readers: the API key is in the path, and the device's own conventions apply (src/kobo/kobo.app.ts).
  mountKoboApi(app, databaseFactory);
  app.onError(handleError);
  // Anything no route answers: the web app's files and pages, or the JSON 404 (src/web/web-app.ts).
  app.notFound(serveWebApp);
  app.use(
    '*',
    requestContext(databaseFactory, (request, env, ctx) => app.fetch(request, env, ctx)),
  );
  const jsonLimit = bodyLimit({
    maxSize: MAX_JSON_BODY_BYTES,
    onError: () => {
      throw new AppError('PayloadTooLarge', `Request body exceeds ${MAX_JSON_BODY_BYTES} bytes`);
    },
  });
  const coverLimit = bodyLimit({
    maxSize: MAX_COVER_BYTES + 64 * 1024,
    onError: () => {
      throw badRequest(`The cover is larger than ${MAX_COVER_BYTES / 1024 / 1024} MB`);
    },
  });
  app.use(`${API_PREFIX}/*`, async (c, next) => {
    // Safe to skip in a nested run: its body is the copy of one the outer run read through this limit.
    if (nestedRunOf(c) || isStreamingUpload(c.req.path, c.req.method)) return next();
    return isCoverUpload(c.req.path, c.req.method) ? coverLimit(c, next) : jsonLimit(c, next);
  });
  for (const router of apiRouters) app.route(API_PREFIX, router);
  // Reader apps (DECISIONS.md §Reader apps): outside /api/v1, with their own formats and auth challenge.
  app.route(OPDS1_BASE, opds1Router);
  app.route(OPDS2_BASE, opds2Router);
  app.route(KOREADER_BASE, koreaderRouter);
  registerOpenApi(app);
  const docsRouter = createDocsRouter(() => buildOpenApiDocument(app));
  app.route('/', docsRouter);
  return app;
}

/** `POST /series|books/{id}/cover` and a migration's covers carry an image up to the cover limit (covers.service.ts). */
function isCoverUpload(path: string, method: string): boolean {
  return (
    method === 'POST' &&
    (/^\/api\/v1\/(series|books)\/[^/]+\/cover$/.test(path) || path === `${API_PREFIX}/admin/import/covers`)
  );
}

/**
 * `PUT /libraries/{id}/files/...` streams book files into R2, and a ComicRack reading list and a KOReader
 * statistics database may be larger than a JSON body: each has its own size rule.
 */
function isStreamingUpload(path: string, method: string): boolean {
  if (method === 'POST' && path === `${API_PREFIX}/readlists/import/cbl`) return true;
  // A KOReader statistics database: read within its own bound (routes/reading-stats, KOREADER_STATISTICS_MAX_BYTES).
  if (method === 'POST' && path === `${API_PREFIX}/reading-sessions/koreader`) return true;
  return (method === 'PUT' || method === 'POST') && /^\/api\/v1\/libraries\/[^/]+\/files\//.test(path);
}

export type App = ReturnType<typeof createApp>;
