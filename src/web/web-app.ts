/**
 * The web app (DECISIONS.md §Web app): every GET or HEAD that no API route answered is handed to the
 * static-assets binding, which serves the built files of web/ (dist/web) and, for app paths such as
 * `/series/…`, its index.html (`not_found_handling = "single-page-application"`).
 *
 * The Worker runs first for every request (`run_worker_first = true`), so the API's own prefixes stay
 * the Worker's: an unknown `/api/…`, `/opds/…`, `/koreader/…` or `/komga/…` path is a JSON 404, never the
 * app's page. A missing file (`/assets/old-chunk.js` after a deploy) is a 404 too, not index.html with
 * 200, which a browser would try to run as a script.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { APP_CSP } from '../http/security-headers';
import { handleNotFound } from '../middleware/error-handler';

/** Paths the Worker owns besides the docs path: the app never answers for them. */
const WORKER_PREFIXES = ['/api', '/opds', '/koreader', '/komga', '/docs-assets', '/__scheduled'];

/** Content-hashed build output: safe to cache for a year. */
const HASHED_ASSETS = '/assets/';

export async function serveWebApp(c: Context<AppEnv>): Promise<Response> {
  const method = c.req.method;
  const path = c.req.path;
  const assets = (c.env as Partial<Env>).ASSETS;
  if ((method !== 'GET' && method !== 'HEAD') || !assets || isWorkerPath(path, c)) return handleNotFound(c);

  const response = await assets.fetch(c.req.raw);
  const isFallbackPage = (response.headers.get('Content-Type') ?? '').startsWith('text/html');
  if (isFallbackPage && hasFileExtension(path)) return handleNotFound(c);

  // A fresh Response: the binding's headers are immutable, and the app still adds X-Request-Id.
  const headers = new Headers(response.headers);
  if (path.startsWith(HASHED_ASSETS) && response.ok) {
    headers.set('Cache-Control', 'public, max-age=31536000, immutable');
  }
  // The app's policy on every file of the app, not only its page: the service worker (sw.js) runs under
  // the policy its own script arrives with. nosniff and the referrer policy come from security-headers.ts.
  headers.set('Content-Security-Policy', APP_CSP);
  if (isFallbackPage) headers.set('X-Frame-Options', 'DENY');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function isWorkerPath(path: string, c: Context<AppEnv>): boolean {
  const docs = c.get('config').LONGBOX_API__API_DOCS_PATH.replace(/\/+$/, '');
  return [...WORKER_PREFIXES, docs].some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** `/assets/x.js`, `/favicon.ico`: a file was asked for, so index.html is never the right answer. */
function hasFileExtension(path: string): boolean {
  return /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf('/') + 1)) && !path.endsWith('.html');
}
