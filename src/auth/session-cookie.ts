/**
 * The web app's session cookie (DECISIONS.md §Web app). `<img>` and `EventSource` cannot send an
 * Authorization header, so login also sets the session token as an HttpOnly, Secure, SameSite=Strict
 * cookie. It is accepted only on GET and HEAD requests (pages, thumbnails, files, event streams, reads):
 * a state-changing request must carry the header, which another site cannot make a browser send, so the
 * cookie opens no cross-site request forgery. Scripts never see the token through it.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { looksLikeApiKey } from './api-key-format';

export const SESSION_COOKIE = 'longbox_session';

const READ_METHODS = new Set(['GET', 'HEAD']);

export function setSessionCookie(c: Context, token: string, maxAgeSeconds: number): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: 'Strict',
    path: '/',
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
}

/**
 * `Bearer <token>` from the cookie, for a read request that sent no credentials of its own; otherwise
 * undefined. Only session tokens ride in the cookie, never API keys.
 */
export function cookieAuthorization(c: Context): string | undefined {
  if (!READ_METHODS.has(c.req.method)) return undefined;
  const token = getCookie(c, SESSION_COOKIE);
  return token && !looksLikeApiKey(token) ? `Bearer ${token}` : undefined;
}
