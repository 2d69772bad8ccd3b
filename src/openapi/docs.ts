/**
 * The interactive API reference (API.md §1): Swagger UI at `api.api_docs_path`, only while
 * `LONGBOX_API__ENABLE_API_DOCS=true`; otherwise those paths are 404 like any unknown route.
 *
 * Everything the page needs comes from this deployment, so it works without internet: the spec at
 * `<docs>/openapi.json`, and swagger-ui-dist's files from the Workers static-assets binding (`[assets]`
 * in wrangler.toml, where the web build copies them to docs-assets/) — kept out of the Worker bundle,
 * where they would cost about 0.5 MB gzip.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { AppError } from '../lib/errors';
import { handleNotFound } from '../middleware/error-handler';
import type { OpenApiDocument } from './document';

/** The swagger-ui-dist files the page loads, by the name they are served under below the docs path. */
const ASSET_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);
/** Where the web build (web/vite.config.ts) puts them inside the assets directory. */
const DOCS_ASSETS_DIR = '/docs-assets';

/**
 * Only our own origin: the page cannot reach anything outside the deployment (Swagger UI's online
 * validator included), and "Try it out" calls go to this API. Swagger UI styles elements inline.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function createDocsRouter(openApiDocument: () => OpenApiDocument) {
  let document: OpenApiDocument | undefined;
  return new Hono<AppEnv>().get('*', async function apiDocs(c, next) {
    const config = c.get('config');
    const base = config.LONGBOX_API__API_DOCS_PATH.replace(/\/+$/, '');
    const path = c.req.path;
    if (!path.startsWith(base) || (path.length > base.length && path[base.length] !== '/')) return next();
    if (!config.LONGBOX_API__ENABLE_API_DOCS) return handleNotFound(c);
    const file = path.slice(base.length + 1);
    if (file === '') return page(c, base);
    if (file === 'openapi.json') {
      document ??= openApiDocument();
      return c.json(document);
    }
    if (file === 'init.js') return initializer(c, base);
    if (ASSET_FILES.has(file)) return asset(c, file);
    return handleNotFound(c);
  });
}

function page(c: Context<AppEnv>, base: string): Response {
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  // `base` is a validated path ([A-Za-z0-9/_-]), safe inside attributes as is.
  return c.html(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Longbox API reference</title>
<link rel="icon" type="image/png" href="${base}/favicon-32x32.png">
<link rel="stylesheet" href="${base}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}/swagger-ui-bundle.js"></script>
<script src="${base}/init.js"></script>
</body>
</html>
`);
}

/** A script file rather than an inline one, so the page's policy can forbid inline scripts. */
function initializer(c: Context<AppEnv>, base: string): Response {
  const options = { url: `${base}/openapi.json`, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null };
  c.header('Content-Type', 'text/javascript; charset=utf-8');
  return c.body(`window.ui = SwaggerUIBundle(${JSON.stringify(options)});\n`);
}

async function asset(c: Context<AppEnv>, file: string): Promise<Response> {
  const assets = (c.env as Partial<Env>).ASSETS;
  if (!assets) throw new AppError('ServiceUnavailable', 'API docs assets are not deployed (no ASSETS binding)');
  const headers = new Headers();
  const etag = c.req.header('If-None-Match');
  if (etag) headers.set('If-None-Match', etag);
  const response = await assets.fetch(new URL(`${DOCS_ASSETS_DIR}/${file}`, c.req.url), { headers });
  // A fresh Response: the binding's headers are immutable, and the app still adds X-Request-Id.
  return new Response(response.body, response);
}
