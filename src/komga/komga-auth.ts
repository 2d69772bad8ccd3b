/**
 * Signing in as Komga's clients do (docs/notes/komga-clients.md §4.1, §4.2; DECISIONS.md §Reader apps):
 * - `X-API-Key` (a Longbox key, or one imported from Komga in Komga's format), or `Authorization: Basic` —
 *   Mihon's extension sends Basic only after a 401 with a Basic
 *   challenge, then relies on cookies, as do Mihon's tracker (no credentials of its own) and Komelia;
 * - the `KOMGA-SESSION` cookie (Path=/komga), set on the first request a header authenticated;
 * - the `komga-remember-me` cookie Komelia keeps across restarts, set by `users/me?remember-me=true`.
 *
 * A cookie holds a Longbox credential, never a password: a session token (a sessions row, so logging out
 * or disabling the user ends it) for a password sign-in, or the API key itself for a key sign-in, so the
 * key's narrower permissions keep applying. Permissions are the API's own, checked per route.
 */
import type { Context, Next } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Principal } from '../auth/principal';
import { looksLikeJwt } from '../auth/session-token';
import { describeRequirement, type Requirement, satisfies } from '../auth/permissions';
import type { AppEnv } from '../env';
import { AppError, forbidden, unauthorized } from '../lib/errors';
import { asCaller, type Speculation, whenChecked } from '../middleware/caller';
import { clientInfo } from '../http/client-info';

export const KOMGA_PREFIX = '/komga';
export const SESSION_COOKIE = 'KOMGA-SESSION';
export const REMEMBER_ME_COOKIE = 'komga-remember-me';
/** Komga's remember-me lasts two weeks; one holding a session token lasts as long as that session. */
const REMEMBER_API_KEY_SECONDS = 14 * 24 * 3600;

/** The credential the KOMGA-SESSION cookie holds for this request's caller, once known. */
const cookieCredentials = new WeakMap<Request, string>();

function rememberCredential(c: Context<AppEnv>, value: string | null): void {
  if (value) cookieCredentials.set(c.req.raw, value);
}

function cookieOptions(c: Context, maxAge?: number) {
  return {
    path: KOMGA_PREFIX,
    httpOnly: true,
    secure: new URL(c.req.url).protocol === 'https:',
    sameSite: 'Lax' as const,
    ...(maxAge === undefined ? {} : { maxAge }),
  };
}

async function fromCookie(c: Context<AppEnv>, name: string): Promise<Principal | null> {
  const value = getCookie(c, name);
  if (!value) return null;
  try {
    return await c.get('services').auth.authenticate({ authorization: `Bearer ${value}` }, clientInfo(c), {
      komgaKeys: true,
    });
  } catch {
    // A stale cookie is not an error: the client is asked to sign in again.
    deleteCookie(c, name, { path: KOMGA_PREFIX });
    return null;
  }
}

/** The API key the request's headers carry (`X-API-Key`, `Basic api:<key>` or `Bearer <key>`). */
function headerApiKey(c: Context<AppEnv>): string {
  const header = c.req.header('X-API-Key')?.trim();
  const authorization = c.req.header('Authorization') ?? '';
  const fromBasic = authorization.toLowerCase().startsWith('basic ')
    ? atob(authorization.slice(6).trim()).replace(/^api:/i, '')
    : authorization.replace(/^bearer\s+/i, '');
  return header ?? fromBasic.trim();
}

/**
 * Whether the KOMGA-SESSION cookie sent beside the header already is this principal's: the same API key,
 * or a session token signed for the same user (checked by signature, not by a second authentication; a
 * session ended meanwhile makes the next cookie-only call a 401 that clears the cookie).
 */
async function cookieIsPrincipals(c: Context<AppEnv>, principal: Principal, cookie: string): Promise<boolean> {
  if (principal.method === 'api_key') return cookie === headerApiKey(c);
  if (!looksLikeJwt(cookie)) return false;
  return (await c.get('services').auth.sessionTokenUserId(cookie)) === principal.user.id;
}

/**
 * The cookie credential for a principal signed in by header: the API key as sent, or a session token — the one
 * sent as Bearer, else a session of this client's, found or made in D1 (a promise: it is read beside the
 * request's own reads, and only sets a cookie).
 */
function cookieCredential(
  c: Context<AppEnv>,
  principal: Principal,
): { value: string; maxAge?: number } | Promise<{ value: string; maxAge?: number }> {
  if (principal.method === 'api_key') return { value: headerApiKey(c) };
  // A session token sent as Bearer is already a session: the cookie carries it instead of a new one.
  const bearer = /^bearer\s+(.+)$/i.exec(c.req.header('Authorization')?.trim() ?? '')?.[1];
  if (principal.method === 'session' && bearer) return { value: bearer };
  return c
    .get('services')
    .auth.sessionForClient(principal.user, clientInfo(c), () => whenChecked(c))
    .then((session) => ({ value: session.access_token, maxAge: session.expires_in }));
}

/**
 * Images and files get no new session cookie: a client sending credentials with every page (Paperback)
 * and keeping no cookies would otherwise leave a session row per page. Clients that rely on the cookie
 * receive it from the JSON calls they make first (libraries, series, users/me).
 */
const isMediaRequest = (path: string) => /\/(pages\/[^/]+|thumbnail|file)$/.test(path);

/**
 * An event stream answers as the caller for as long as it is open: it always waits for the check (the API's
 * streams subscribe beside it instead: routes/events).
 */
const isEventStream = (path: string) => /\/sse\//.test(path);

/**
 * Resolves the caller; sets `principal`. Unauthenticated → 401 with the Basic challenge. A credential the
 * isolate checked before lets a GET start beside its check, as the API's guard does (middleware/caller.ts;
 * docs/ARCHITECTURE.md, "The credential check beside the request"); the route's permission is `komgaRequire`'s.
 */
export function komgaAuthenticate() {
  return createMiddleware<AppEnv>(async function komgaAuthenticate(c, next) {
    const services = c.get('services');
    const apiKey = c.req.header('X-API-Key');
    const authorization = c.req.header('Authorization');
    const speculation: Speculation = isEventStream(c.req.path) ? 'never' : 'reads';
    if (apiKey !== undefined || authorization !== undefined) {
      // Komga accounts are e-mail addresses, and Mihon's settings ask for "the user account email": a
      // Basic name may be a Longbox user's e-mail address (looked up in the same statement as a username).
      // An API key imported from Komga, in Komga's format, signs in here (docs/DECISIONS.md §Imported credentials).
      return asCaller(c, () => withSessionCookie(c, next), {
        check: () =>
          services.auth.check({ authorization, apiKey }, clientInfo(c), { basicByEmail: true, komgaKeys: true }),
        admit: () => undefined,
        speculation,
      });
    }
    const sessionCookie = getCookie(c, SESSION_COOKIE);
    if (sessionCookie) {
      try {
        return await asCaller(
          c,
          () => {
            rememberCredential(c, sessionCookie);
            return next();
          },
          {
            check: () =>
              services.auth.check({ authorization: `Bearer ${sessionCookie}` }, clientInfo(c), { komgaKeys: true }),
            admit: () => undefined,
            speculation,
          },
        );
      } catch (error) {
        if (!(error instanceof AppError && error.kind === 'Unauthorized')) throw error;
        // A stale cookie is not an error: the remember-me cookie may still sign in, else the client is asked to.
        deleteCookie(c, SESSION_COOKIE, { path: KOMGA_PREFIX });
      }
    }
    const principal = await fromCookie(c, REMEMBER_ME_COOKIE);
    const remembered = getCookie(c, REMEMBER_ME_COOKIE);
    if (!principal || !remembered) throw unauthorized('Authentication required');
    setCookie(c, SESSION_COOKIE, remembered, cookieOptions(c));
    rememberCredential(c, remembered);
    c.set('principal', principal);
    await next();
  });
}

/**
 * The rest of a request signed in by header, with the KOMGA-SESSION cookie its client keeps from then on.
 * The session a password sign-in is given as a cookie is looked up beside the handler's reads (issue 30): it
 * only sets the cookie, so a failure to find or make one is logged and the answer goes without it (the
 * client's next call, which sends its credentials again, gets one). A new session row waits for the
 * credential check (`whenChecked`): nothing is written for a caller the check refuses.
 */
async function withSessionCookie(c: Context<AppEnv>, next: Next): Promise<void> {
  const principal = c.get('principal');
  let pendingCookie: Promise<{ value: string; maxAge?: number }> | null = null;
  if (!isMediaRequest(c.req.path)) {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (cookie && (await cookieIsPrincipals(c, principal, cookie))) {
      rememberCredential(c, cookie);
    } else {
      const credential = cookieCredential(c, principal);
      if (credential instanceof Promise) {
        pendingCookie = credential;
        pendingCookie.catch(() => {});
      } else {
        setCookie(c, SESSION_COOKIE, credential.value, cookieOptions(c, credential.maxAge));
        rememberCredential(c, credential.value);
      }
    }
  }
  await next();
  if (pendingCookie) {
    try {
      const credential = await pendingCookie;
      setCookie(c, SESSION_COOKIE, credential.value, cookieOptions(c, credential.maxAge));
    } catch (error) {
      c.get('logger').warn('no KOMGA-SESSION cookie for this answer', { error: String(error) });
    }
  }
}

/** The route's permission, as the API's own route for the same data requires it. */
export function komgaRequire(need: Requirement) {
  return createMiddleware<AppEnv>(async function komgaRequire(c, next) {
    if (!satisfies(c.get('principal').permissions, need)) {
      throw forbidden(`Missing permission: ${describeRequirement(need)}`);
    }
    await next();
  });
}

/** `users/me?remember-me=true`: the long-lived cookie Komelia persists (Path = the API's base path). */
export async function setRememberMe(c: Context<AppEnv>): Promise<void> {
  const principal = c.get('principal');
  if (principal.method === 'api_key') {
    const key = cookieCredentials.get(c.req.raw);
    if (key) setCookie(c, REMEMBER_ME_COOKIE, key, cookieOptions(c, REMEMBER_API_KEY_SECONDS));
    return;
  }
  // A GET may run beside its credential check: the session row waits for it.
  await whenChecked(c);
  const session = await c.get('services').auth.createSession(principal.user, clientInfo(c));
  setCookie(c, REMEMBER_ME_COOKIE, session.access_token, cookieOptions(c, session.expires_in));
}

export function clearKomgaCookies(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: KOMGA_PREFIX });
  deleteCookie(c, REMEMBER_ME_COOKIE, { path: KOMGA_PREFIX });
}
