/**
 * Route guard: resolves the caller (session token, API key, or Basic) and checks the permission the
 * route declares. No or bad credentials → 401; a caller lacking the permission → 403 (API.md §7).
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { describeRequirement, type Requirement, satisfies } from '../auth/permissions';
import type { AppEnv } from '../env';
import { isInPageRequest } from '../http/browser-request';
import { clientInfo } from '../http/client-info';
import { AppError, forbidden } from '../lib/errors';
import { asCaller, type Speculation } from './caller';
import { cookieAuthorization } from '../auth/session-cookie';

/**
 * One realm for the API and the reader apps (DECISIONS.md §Reader apps), and Basic first: OPDS acquisition
 * links lead apps to GET /books/{id}/file here, and apps reuse the feed's credentials only within the same
 * realm; some (Thorium) prompt only when the challenge starts with `Basic`.
 */
export const REALM = 'Longbox';
const API_CHALLENGE = { 'WWW-Authenticate': `Basic realm="${REALM}", charset="UTF-8", Bearer realm="${REALM}"` };
/**
 * A browser's own requests other than page navigations (the web app's fetch calls, its images and event
 * streams) get no Basic challenge, which would open the browser's password dialog over the app
 * (src/http/browser-request.ts says which they are).
 */
export const IN_PAGE_CHALLENGE = { 'WWW-Authenticate': `Bearer realm="${REALM}"` };

export type Challenge = (c: Context<AppEnv>) => Record<string, string>;

const apiChallenge: Challenge = (c) => (isInPageRequest(c) ? IN_PAGE_CHALLENGE : API_CHALLENGE);

/** `need` omitted: any signed-in caller (e.g. /auth/me). */
export function authenticate(need?: Requirement, options?: GuardOptions) {
  return guard(need, apiChallenge, options);
}

export interface GuardOptions {
  /**
   * What of the route may run before the credential check returns (middleware/caller.ts); default `reads`:
   * a GET or HEAD handler, which must then write nothing before it answers.
   */
  speculation?: Speculation;
}

/** The guard with the challenge a 401 carries (reader apps need their own: reader-app-auth.ts). */
export function guard(need: Requirement | undefined, challenge: Challenge, options: GuardOptions = {}) {
  const speculation = options.speculation ?? 'reads';
  return createMiddleware<AppEnv>(async function authenticate(c, next) {
    const services = c.get('services');
    try {
      return await asCaller(c, next, {
        check: () => services.auth.check(credentials(c), clientInfo(c)),
        fallback: () => services.singleSignOn.accessPrincipal(c.req),
        admit: (principal) => {
          if (need && !satisfies(principal.permissions, need)) {
            throw forbidden(`Missing permission: ${describeRequirement(need)}`);
          }
        },
        speculation,
      });
    } catch (error) {
      if (error instanceof AppError && error.kind === 'Unauthorized') Object.assign(error.headers, challenge(c));
      throw error;
    }
  });
}

/** The request's own headers; without any, the web app's session cookie (src/auth/session-cookie.ts). */
function credentials(c: Context<AppEnv>): { authorization?: string; apiKey?: string } {
  const authorization = c.req.header('Authorization');
  const apiKey = c.req.header('X-API-Key');
  if (authorization !== undefined || apiKey !== undefined) return { authorization, apiKey };
  return { authorization: cookieAuthorization(c) };
}
