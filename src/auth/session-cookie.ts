/**
 * The web app's session cookie (DECISIONS.md §Web app, §Security). The web app keeps its session in this
 * cookie only: login sets the session token as an HttpOnly, SameSite=Strict cookie (Secure whenever the
 * request came over https), so no script — the app's or one smuggled in by a book — can ever read it.
 *
 * The cookie signs in every request that carries no credentials of its own (explicit Authorization or
 * X-API-Key always win). A state-changing request made with it must also prove it comes from one of this
 * server's own pages, the browser's word for which no other site can forge: `Sec-Fetch-Site: same-origin`
 * when the browser sends fetch metadata, else an `Origin` equal to the request's own; neither is a 403. With
 * SameSite=Strict (the cookie does not even travel with another site's requests) that closes cross-site
 * request forgery.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { forbidden } from '../lib/errors';
import { looksLikeApiKey } from './api-key-format';

export const SESSION_COOKIE = 'longbox_session';

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * `Secure` only over https: a browser drops a Secure cookie that arrives over plain http (other than
 * localhost), which would leave a phone on the home network (`HOST=0.0.0.0 npm start`) signed in to nothing.
 */
const isHttps = (c: Context) => new URL(c.req.url).protocol === 'https:';

export function setSessionCookie(c: Context, token: string, maxAgeSeconds: number): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: isHttps(c),
    sameSite: 'Strict',
    path: '/',
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { httpOnly: true, secure: isHttps(c), sameSite: 'Strict', path: '/' });
}

/**
 * `Bearer <token>` from the cookie, for a request that sent no credentials of its own; undefined without
 * the cookie. Only session tokens ride in the cookie, never API keys. A state-changing request made with
 * the cookie from anywhere but this server's own pages is refused (403).
 */
export function cookieAuthorization(c: Context): string | undefined {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token || looksLikeApiKey(token)) return undefined;
  if (!READ_METHODS.has(c.req.method) && !isSameOriginRequest(c)) {
    throw forbidden(
      'A change made with the session cookie must come from this server’s own pages (Sec-Fetch-Site or Origin); ' +
        'other clients send an Authorization header or an API key',
    );
  }
  return `Bearer ${token}`;
}

/**
 * The browser says the request comes from a page of this origin: its fetch metadata when it sends any
 * (secure contexts), else its `Origin` header, which browsers send with every state-changing request.
 */
export function isSameOriginRequest(c: Context): boolean {
  const site = c.req.header('Sec-Fetch-Site');
  if (site !== undefined) return site === 'same-origin';
  const origin = c.req.header('Origin');
  return origin !== undefined && origin === new URL(c.req.url).origin;
}
