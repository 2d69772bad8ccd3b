/**
 * The cookie that ties an OIDC sign-in to the browser that started it: set by `POST …/login`, read and
 * cleared by the callback. SameSite=Lax, because the callback is a top-level navigation coming from the
 * provider's site (a Strict cookie would not be sent); HttpOnly and scoped to the OIDC paths.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

const NAME = 'longbox_sso_login';
const PATH = '/api/v1/auth/oidc/';
const OPTIONS = { httpOnly: true, secure: true, sameSite: 'Lax', path: PATH } as const;

export function setLoginCookie(c: Context, value: string, maxAgeSeconds: number): void {
  setCookie(c, NAME, value, { ...OPTIONS, maxAge: maxAgeSeconds });
}

export function loginCookie(c: Context): string | undefined {
  return getCookie(c, NAME);
}

export function clearLoginCookie(c: Context): void {
  deleteCookie(c, NAME, OPTIONS);
}
