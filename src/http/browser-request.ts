/**
 * Which requests a browser makes from inside one of Longbox's own pages — the web app's images, fetch
 * calls and event streams — as opposed to a page navigation or a reader app outside any browser. Those get
 * no Basic challenge on a 401: the browser would open its password dialog over the app (issue 31 point 9).
 */
import type { Context } from 'hono';

/**
 * A browser's request that is not a page navigation. Browsers send fetch metadata (`Sec-Fetch-Dest`) only
 * to secure origins; over plain http on a home network (`HOST=0.0.0.0 npm start`, a phone on the Wi-Fi)
 * there is none, and a request from one of this server's pages is known by its Referer (the referrer
 * policy, src/http/security-headers.ts, keeps it for the app's own requests) and an Accept header that is
 * not a page's.
 */
export function isInPageRequest(c: Context): boolean {
  const destination = c.req.header('Sec-Fetch-Dest');
  if (destination !== undefined) return destination !== 'document';
  return isFromThisOrigin(c) && !(c.req.header('Accept') ?? '').includes('text/html');
}

/** Made by a page of this origin: fetch metadata says so, or, without it, the Referer does. */
export function isFromThisOrigin(c: Context): boolean {
  const site = c.req.header('Sec-Fetch-Site');
  if (site !== undefined) return site === 'same-origin';
  const referer = c.req.header('Referer');
  return referer !== undefined && URL.canParse(referer) && new URL(referer).origin === new URL(c.req.url).origin;
}
