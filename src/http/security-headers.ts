/**
 * The headers every response carries (DECISIONS.md §Security): one middleware, ahead of every route, the
 * Komga API, the web app's files and the error and not-found answers alike.
 *
 * - `X-Content-Type-Options: nosniff`: a browser never second-guesses a declared type, so a page image
 *   whose bytes look like HTML or SVG is still only an image.
 * - `Referrer-Policy: same-origin`: addresses inside Longbox (book ids, search words) never travel to
 *   another site; the app's own requests keep their Referer, which tells the guard a request came from one
 *   of its pages (src/http/browser-request.ts).
 * - A Content-Security-Policy on every answer that has none of its own: what the worker serves is data —
 *   JSON, feeds, page images, book files, thumbnails — and a browser that opens one in a tab (an SVG, an XML
 *   feed) must not run anything in it, so the default forbids scripts, plugins and forms and puts the
 *   document in a sandbox of its own origin. The app's pages (src/web/web-app.ts), the API reference page
 *   (src/openapi/docs.ts) and Komga's EPUB resources set theirs.
 */
import { createMiddleware } from 'hono/factory';
import { nestedRunOf } from './speculation';

/**
 * Book content and every other answer that is data. `sandbox` (no allow-* at all) gives the document an
 * opaque origin: even a script that got past `script-src` could reach neither the app's storage nor its
 * cookies. Images and inline styles stay, so an SVG or an image opened in a tab still shows.
 */
export const DATA_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  "object-src 'none'",
  "img-src 'self' data:",
  "style-src 'unsafe-inline'",
  "font-src 'self' data:",
  "media-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  'sandbox',
].join('; ');

/**
 * An EPUB's own resources on `/komga` (chapters, their CSS, images, fonts), which Komga's reader apps load
 * into frames of their reader page and lay out from that page: Komga's `script-src 'none'; object-src
 * 'none'`, and nothing fetched from outside this server. `sandbox allow-same-origin` (no scripts, forms,
 * pop-ups or top navigation) keeps the resource's origin, because a Readium navigator styles and paginates
 * the chapter's document from its own page, which a fully sandboxed (opaque) document would refuse.
 */
export const EPUB_RESOURCE_CSP = [
  "default-src 'self' data:",
  "script-src 'none'",
  "object-src 'none'",
  "style-src 'self' 'unsafe-inline' data:",
  "base-uri 'none'",
  "form-action 'none'",
  'sandbox allow-same-origin',
].join('; ');

/**
 * The web app's pages and files (index.html, its scripts, the service worker). foliate-js renders EPUB
 * sections from `blob:` documents that inherit this policy, so it is also the second wall around book
 * content in the reader (the first is the frame's sandbox, web/src/reader/book-content.ts the third):
 * - scripts only from the app's own files: no inline script, no `blob:`, no eval;
 * - `blob:` frames, images, styles, fonts and media: the book's sections and their resources;
 * - `style-src 'unsafe-inline'`: foliate-js styles its paginator and each section with `<style>` elements,
 *   and books carry `<style>` and `style=""`; CSS cannot run code, and with every fetch limited to this
 *   origin it cannot send anything elsewhere either;
 * - `connect-src 'self'`: the API is the only server the app talks to;
 * - no plugins, no `<base>`, no form submissions (the app's forms are handled by script), never framed.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline' blob:",
  "img-src 'self' data: blob:",
  "font-src 'self' data: blob:",
  "media-src 'self' blob:",
  'frame-src blob:',
  "worker-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const REFERRER_POLICY = 'same-origin';

export function securityHeaders() {
  return createMiddleware(async function securityHeaders(c, next) {
    // Safe to skip: a nested run's answer reaches the client only as the outer run's, which this sets them on.
    if (nestedRunOf(c)) return next();
    await next();
    try {
      applyDefaults(c.res.headers);
    } catch {
      // A response whose headers are immutable (fetched, or from a cache): the same answer, made mutable.
      c.res = new Response(c.res.body, c.res);
      applyDefaults(c.res.headers);
    }
  });
}

function applyDefaults(headers: Headers): void {
  headers.set('X-Content-Type-Options', 'nosniff');
  if (!headers.has('Referrer-Policy')) headers.set('Referrer-Policy', REFERRER_POLICY);
  if (!headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', DATA_CSP);
}
