/** Single sign-on routes: OIDC sign-in (Codex-rs's three), the browser session, linked identities. */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { ACCESS_ASSERTION_HEADER } from '../../auth/cloudflare-access';
import { clearLoginCookie, loginCookie, setLoginCookie } from '../../auth/oidc/login-cookie';
import { SESSION_COOKIE, setSessionCookie } from '../../auth/session-cookie';
import type { AppEnv } from '../../env';
import { AppError } from '../../lib/errors';
import { createRouter } from '../../http/router';
import { PENDING_LOGIN_SECONDS } from '../../services/single-sign-on.service';
import { clientInfo } from '../../http/client-info';
import { signInFailurePage, wantsPage } from './sign-in-failure-page';
import { contracts as routes } from './sso.routes';

const requestOrigin = (c: Context<AppEnv>) => new URL(c.req.url).origin;

export const ssoRouter = createRouter()
  .openapi(routes.listProviders, (c) => c.json(c.get('services').singleSignOn.providers(), 200))
  .openapi(routes.startLogin, async (c) => {
    const { provider } = c.req.valid('param');
    const body = c.req.header('Content-Type') ? c.req.valid('json') : {};
    const { redirectUrl, browserBinding } = await c
      .get('services')
      .singleSignOn.startLogin(provider, body?.redirectUri, requestOrigin(c));
    setLoginCookie(c, browserBinding, PENDING_LOGIN_SECONDS);
    return c.json({ redirectUrl }, 200);
  })
  .openapi(routes.callback, async (c) => {
    const { provider } = c.req.valid('param');
    const binding = loginCookie(c);
    clearLoginCookie(c);
    try {
      const { session, returnTo } = await c
        .get('services')
        .singleSignOn.completeLogin(provider, c.req.valid('query'), binding, clientInfo(c));
      setSessionCookie(c, session.access_token, session.expires_in);
      c.header('Cache-Control', 'no-store');
      return c.redirect(returnTo, 303);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // The reason, never the code, state or any token (the access log records the path alone).
      c.get('logger').warn('single sign-on refused', { provider, status: error.status, reason: error.message });
      if (wantsPage(c)) return signInFailurePage(c, error);
      throw error;
    }
  })
  .openapi(routes.browserSession, async (c) => {
    const { session, via, fresh } = await c.get('services').singleSignOn.browserSession({
      assertion: c.req.header(ACCESS_ASSERTION_HEADER),
      cookieToken: getCookie(c, SESSION_COOKIE),
      client: clientInfo(c),
    });
    if (fresh) setSessionCookie(c, session.access_token, session.expires_in);
    c.header('Cache-Control', 'no-store');
    // Who and until when, never the token: it stays in the HttpOnly cookie (DECISIONS.md §Security).
    return c.json({ expires_in: session.expires_in, user: session.user, via }, 200);
  })
  .openapi(routes.listOwnIdentities, async (c) => {
    const { singleSignOn, ssoAccounts } = c.get('services');
    const identities = await ssoAccounts.list(c.get('principal').user.id);
    return c.json(
      identities.map((identity) => singleSignOn.identityView(identity)),
      200,
    );
  })
  .openapi(routes.unlinkOwnIdentity, async (c) => {
    await c.get('services').ssoAccounts.unlink(c.get('principal').user.id, c.req.valid('param').identityId);
    return c.body(null, 204);
  })
  .openapi(routes.listUserIdentities, async (c) => {
    const { users, singleSignOn, ssoAccounts } = c.get('services');
    const user = await users.record(c.req.valid('param').id);
    const identities = await ssoAccounts.list(user.id);
    return c.json(
      identities.map((identity) => singleSignOn.identityView(identity)),
      200,
    );
  })
  .openapi(routes.unlinkUserIdentity, async (c) => {
    const { id, identityId } = c.req.valid('param');
    const { users, ssoAccounts } = c.get('services');
    await ssoAccounts.unlink((await users.record(id)).id, identityId);
    return c.body(null, 204);
  })
  .openapi(routes.ssoConfiguration, (c) => c.json(c.get('services').singleSignOn.configuration(requestOrigin(c)), 200));
