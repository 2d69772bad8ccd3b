/**
 * OIDC sign-in against a real OpenID Provider (panva's oidc-provider, in this process on loopback) and a
 * real Longbox (`wrangler dev`), over HTTP as a browser makes it (test/support/oidc-flow.ts): account
 * creation, linking by verified e-mail, the group→role mapping at every sign-in, the session it ends in,
 * and every way a sign-in must be refused — each refusal a 401 (400 when malformed; 503 when the provider
 * cannot be reached or is not who it says) with a plain message that creates or changes no account. The browser itself is driven in test/e2e/single-sign-on.test.ts.
 */
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/lib/errors';
import type { BrowserSession } from '../../src/schemas/sso.schema';
import { ADMIN, call, login, type Session, setupAdmin } from '../e2e/support/api';
import { type LongboxServer, startServer } from '../support/dev-server';
import { Browser, signIn, signInAtProvider, startSignIn } from '../support/oidc-flow';
import { longboxVars, startTestIdp, type TestAccount, type TestIdp } from '../support/oidc-provider';

const READER = { username: 'reader', email: 'reader@example.test', password: 'a reader passphrase' };

const accounts: Record<string, TestAccount> = {
  alice: { email: 'alice@example.test', emailVerified: true, groups: ['book-club'], name: 'Alice Liddell' },
  twin: { email: 'alice@example.test', emailVerified: true },
  editor: { email: 'editor@example.test', emailVerified: true, groups: ['longbox-editors'] },
  boss: { email: ADMIN.email, emailVerified: true, groups: ['longbox-admins'] },
  mallory: { email: READER.email, emailVerified: false },
  stranger: { email: 'stranger@example.test', emailVerified: true },
  newcomer: { email: 'newcomer@example.test', emailVerified: true },
  kiddo: { email: 'kiddo@example.test', emailVerified: true, groups: ['kids'] },
};

let idp: TestIdp;
/** A "provider" whose discovery document names another issuer (docs/DECISIONS.md: that is a 503). */
let imposter: Server;
let server: LongboxServer;
let admin: Session;
let readerId: string;

beforeAll(async () => {
  idp = await startTestIdp(accounts);
  imposter = createServer(async (_request, response) => {
    const real = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as object;
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify({ ...real, issuer: 'https://someone-else.example' }));
  });
  await new Promise<void>((resolve) => imposter.listen(0, '127.0.0.1', resolve));
  const imposterIssuer = `http://127.0.0.1:${(imposter.address() as AddressInfo).port}`;
  server = await startServer({
    vars: {
      ...longboxVars(idp, 'club', {
        DISPLAY_NAME: 'Book Club ID',
        AUTO_CREATE_USERS: 'true',
        GROUP_MAPPING: 'longbox-admins=role:admin, longbox-editors=role:maintainer',
      }),
      // The same provider, but allowed to sign in existing accounts only.
      ...longboxVars(idp, 'closed', { DISPLAY_NAME: 'Closed ID' }),
      // The same provider again, its groups granting libraries (by name, or every one).
      ...longboxVars(idp, 'family', {
        DISPLAY_NAME: 'Family ID',
        AUTO_CREATE_USERS: 'true',
        GROUP_MAPPING: 'kids=library:Kids Comics, grown-ups=library:*',
      }),
      // A provider that cannot be reached (nothing listens on the discard port), and one whose discovery
      // document names another issuer.
      ...longboxVars({ ...idp, issuer: 'http://127.0.0.1:9' }, 'down', { DISPLAY_NAME: 'Down ID' }),
      ...longboxVars({ ...idp, issuer: imposterIssuer }, 'imposter', { DISPLAY_NAME: 'Imposter ID' }),
    },
  });
  await idp.registerClient(
    ['club', 'closed', 'family'].map((name) => `${server.url}/api/v1/auth/oidc/${name}/callback`),
  );
  admin = await setupAdmin(server.url);
  readerId = (await call(server.url, 'POST', '/users', { token: admin.token, json: READER })).id;
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await idp?.close();
  imposter?.close();
}, 30_000);

/** Everything a refused sign-in must leave alone: every account and every linked identity. */
async function accountState(): Promise<unknown> {
  const users = (await call(server.url, 'GET', '/users', { token: admin.token, query: { pageSize: '500' } })).data;
  return Promise.all(
    users.map(async (user: { id: string }) => ({
      user,
      identities: await call(server.url, 'GET', `/users/${user.id}/identities`, { token: admin.token }),
    })),
  );
}

async function expectRefused(response: Response, status: number, message: RegExp, before: unknown): Promise<void> {
  const body = (await response.json()) as ErrorBody;
  expect({ status: response.status, error: body.error }).toEqual({
    status,
    error: status === 401 ? 'Unauthorized' : 'BadRequest',
  });
  expect(body.message).toMatch(message);
  expect(response.headers.getSetCookie().some((c) => c.startsWith('longbox_session=') && !/Max-Age=0/i.test(c))).toBe(
    false,
  );
  expect(await accountState()).toEqual(before);
}

/** The session a callback's cookie holds, read as the web app reads it. */
/**
 * `GET /auth/session` as the web app asks it, and the session token this browser holds: only in its
 * HttpOnly cookie, since the answer never carries it (DECISIONS.md §Security).
 */
async function browserSession(browser: Browser) {
  const response = await browser.fetch(`${server.url}/api/v1/auth/session`);
  const body = (await response.json()) as BrowserSession;
  return { status: response.status, body, token: browser.cookie(server.url, 'longbox_session') ?? '' };
}

async function me(token: string) {
  return call(server.url, 'GET', '/auth/me', { token });
}

describe('what the login screen and the admin see', () => {
  it('lists the configured providers, and shows the admin their callback URLs without any secret', async () => {
    const providers = await call(server.url, 'GET', '/auth/oidc/providers');
    expect(providers).toEqual({
      enabled: true,
      providers: [
        { name: 'closed', displayName: 'Closed ID', loginUrl: '/api/v1/auth/oidc/closed/login' },
        { name: 'club', displayName: 'Book Club ID', loginUrl: '/api/v1/auth/oidc/club/login' },
        { name: 'down', displayName: 'Down ID', loginUrl: '/api/v1/auth/oidc/down/login' },
        { name: 'family', displayName: 'Family ID', loginUrl: '/api/v1/auth/oidc/family/login' },
        { name: 'imposter', displayName: 'Imposter ID', loginUrl: '/api/v1/auth/oidc/imposter/login' },
      ],
      passwordLogin: true,
      cloudflareAccess: false,
    });
    const response = await fetch(`${server.url}/api/v1/admin/sso`, {
      headers: { Authorization: `Bearer ${admin.token}` },
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toContain(idp.clientSecret);
    const club = JSON.parse(text).oidc.providers.find((p: { name: string }) => p.name === 'club');
    expect(club).toMatchObject({
      issuer: idp.issuer,
      callbackUrl: `${server.url}/api/v1/auth/oidc/club/callback`,
      scopes: ['openid', 'email', 'profile', 'groups'],
      publicClient: false,
      autoCreateUsers: true,
      groupsClaim: 'groups',
      groupMapping: [
        { group: 'longbox-admins', target: 'role:admin' },
        { group: 'longbox-editors', target: 'role:maintainer' },
      ],
    });
    const reader = await login(server.url, READER.username, READER.password);
    expect(
      (await fetch(`${server.url}/api/v1/admin/sso`, { headers: { Authorization: `Bearer ${reader.token}` } })).status,
    ).toBe(403);
  });
});

describe('signing in', () => {
  it('creates an account for a new person, ending in the same session a password login gives', async () => {
    const browser = new Browser();
    const authorization = new URL(await startSignIn(browser, server.url, 'club'));
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: idp.clientId,
      redirect_uri: `${server.url}/api/v1/auth/oidc/club/callback`,
      scope: 'openid email profile groups',
      code_challenge_method: 'S256',
    });
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const callback = await signInAtProvider(browser, authorization.toString(), 'alice');
    const response = await browser.fetch(callback);
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/');
    // The session travels only in the HttpOnly cookie: never in the URL the browser is sent to.
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('longbox_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const session = await browserSession(browser);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ via: 'cookie', user: { username: 'alice', role: 'reader' } });
    expect(session.body).not.toHaveProperty('access_token');
    expect(session.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(response.headers.get('Location')).not.toContain(session.token);

    const user = await me(session.token);
    expect(user).toMatchObject({
      username: 'alice',
      email: 'alice@example.test',
      emailVerified: true,
      authMethod: 'session',
    });
    const identities = await call(server.url, 'GET', '/user/identities', { token: session.token });
    expect(identities).toEqual([
      expect.objectContaining({
        provider: 'club',
        providerName: 'Book Club ID',
        subject: 'alice',
        email: 'alice@example.test',
        groups: ['book-club'],
      }),
    ]);

    // Logging out ends it as it ends a password session, cookie included.
    const logout = await browser.fetch(`${server.url}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${session.token}` },
    });
    expect(logout.status).toBe(204);
    expect((await browserSession(browser)).status).toBe(401);
    expect(
      (
        await fetch(`${server.url}/api/v1/auth/me`, {
          headers: { Authorization: `Bearer ${session.token}` },
        })
      ).status,
    ).toBe(401);

    // The next sign-in finds the same account by its link.
    const again = await signIn(browser, server.url, 'club', 'alice');
    expect(again.status).toBe(303);
    expect((await browserSession(browser)).body.user.id).toBe(user.id);
    // Recorded as Komga records an OAuth2 sign-in (docs/DECISIONS.md §Auth, "Authentication activity").
    const activity = await fetch(`${server.url}/komga/api/v2/users/${user.id}/authentication-activity/latest`, {
      headers: { Authorization: `Bearer ${admin.token}` },
    });
    expect(activity.status).toBe(200);
    expect(await activity.json()).toMatchObject({ userId: user.id, success: true, source: 'OAuth2:Book Club ID' });
  });

  it('gives an account it created no password, until an admin sets one', async () => {
    const browser = new Browser();
    expect((await signIn(browser, server.url, 'club', 'newcomer')).status).toBe(303);
    const {
      token,
      body: { user },
    } = await browserSession(browser);
    expect(await me(token)).toMatchObject({ username: 'newcomer', hasPassword: false });
    // There is no current password to give, so changing it is refused with the reason (the account page hides it).
    const change = await fetch(`${server.url}/api/v1/auth/password`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ current_password: '!', new_password: 'a newcomer passphrase' }),
    });
    expect(change.status).toBe(403);
    expect(((await change.json()) as ErrorBody).message).toMatch(/has no password: it signs in through single sign-on/);
    // No password signs it in, the marker stored in a hash's place included.
    for (const password of ['!', 'any password']) {
      const refused = await fetch(`${server.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'newcomer', password }),
      });
      expect({ status: refused.status, message: ((await refused.json()) as ErrorBody).message }).toEqual({
        status: 401,
        message: 'Invalid username or password',
      });
    }

    await call(server.url, 'PUT', `/users/${user.id}`, {
      token: admin.token,
      json: { password: 'a newcomer passphrase' },
    });
    const withPassword = await login(server.url, 'newcomer', 'a newcomer passphrase');
    expect(await me(withPassword.token)).toMatchObject({ username: 'newcomer', hasPassword: true });
  });

  it('links an existing account by its verified e-mail address, and returns to the path asked for', async () => {
    const browser = new Browser();
    const start = await startSignIn(browser, server.url, 'club', { redirectUri: '/libraries?sort=name' });
    const response = await browser.fetch(await signInAtProvider(browser, start, 'boss'));
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/libraries?sort=name');
    const session = await browserSession(browser);
    expect(session.body.user).toEqual(admin.user);
    const identities = await call(server.url, 'GET', `/users/${admin.user.id}/identities`, { token: admin.token });
    expect(identities).toEqual([expect.objectContaining({ provider: 'club', subject: 'boss' })]);
  });

  it('maps the groups claim to the role at every sign-in', async () => {
    const browser = new Browser();
    expect((await signIn(browser, server.url, 'club', 'editor')).status).toBe(303);
    const first = await browserSession(browser);
    expect(first.body.user).toMatchObject({ username: 'editor', role: 'maintainer' });
    expect((await me(first.token)).effectivePermissions).toContain('LibrariesWrite');

    accounts.editor!.groups = ['book-club']; // left the editors at the provider
    expect((await signIn(browser, server.url, 'club', 'editor')).status).toBe(303);
    const second = await browserSession(browser);
    expect(second.body.user).toMatchObject({ id: first.body.user.id, role: 'reader' });
    // The role is read per request: the earlier session lost the permission at once.
    expect((await me(first.token)).effectivePermissions).not.toContain('LibrariesWrite');
  });
});

describe('groups granting libraries', () => {
  it('shares exactly the libraries the groups map to, reconciled at every sign-in', async () => {
    const kids = await call(server.url, 'POST', '/libraries', {
      token: admin.token,
      json: { name: 'Kids Comics', path: 'kids' },
    });
    await call(server.url, 'POST', '/libraries', { token: admin.token, json: { name: 'Late Night', path: 'late' } });
    const browser = new Browser();
    expect((await signIn(browser, server.url, 'family', 'kiddo')).status).toBe(303);
    const first = await browserSession(browser);
    expect(await me(first.token)).toMatchObject({ sharedAllLibraries: false, sharedLibraryIds: [kids.id] });
    const seen = await call(server.url, 'GET', '/libraries', { token: first.token });
    expect(seen.map((l: { name: string }) => l.name)).toEqual(['Kids Comics']);

    accounts.kiddo!.groups = ['grown-ups']; // grew up at the provider
    expect((await signIn(browser, server.url, 'family', 'kiddo')).status).toBe(303);
    expect(await me(first.token)).toMatchObject({ sharedAllLibraries: true, sharedLibraryIds: [] });

    accounts.kiddo!.groups = []; // left every group: no library is shared any more, from the next request on
    expect((await signIn(browser, server.url, 'family', 'kiddo')).status).toBe(303);
    expect(await me(first.token)).toMatchObject({ sharedAllLibraries: false, sharedLibraryIds: [] });
    expect(await call(server.url, 'GET', '/libraries', { token: first.token })).toEqual([]);
  });
});

describe('refusals: 401 with a plain message, no account created or changed', () => {
  it('refuses to link an address the provider has not verified', async () => {
    const before = await accountState();
    const response = await signIn(new Browser(), server.url, 'club', 'mallory');
    await expectRefused(response, 401, /has not verified the e-mail address reader@example\.test/, before);
    expect(await call(server.url, 'GET', `/users/${readerId}/identities`, { token: admin.token })).toEqual([]);
  });

  it('refuses a second identity claiming an account already linked to that provider', async () => {
    const before = await accountState();
    const response = await signIn(new Browser(), server.url, 'club', 'twin');
    await expectRefused(response, 401, /already linked to another Book Club ID identity/, before);
  });

  it('creates no account when the provider is not allowed to', async () => {
    const before = await accountState();
    const response = await signIn(new Browser(), server.url, 'closed', 'stranger');
    await expectRefused(response, 401, /No Longbox account uses stranger@example\.test/, before);
  });

  it('refuses an unknown state, and a callback without code or state', async () => {
    const browser = new Browser();
    await startSignIn(browser, server.url, 'club');
    const before = await accountState();
    const callback = `${server.url}/api/v1/auth/oidc/club/callback`;
    await expectRefused(
      await browser.fetch(`${callback}?code=abc&state=not-a-state-we-issued`),
      401,
      /unknown or was already used/,
      before,
    );
    await expectRefused(await browser.fetch(`${callback}?state=abc`), 400, /needs code/, before);
  });

  it('refuses a replayed callback and a replayed code', async () => {
    const browser = new Browser();
    const callback = await signInAtProvider(browser, await startSignIn(browser, server.url, 'club'), 'alice');
    expect((await browser.fetch(callback)).status).toBe(303);
    const before = await accountState();
    await expectRefused(await browser.fetch(callback), 401, /unknown or was already used/, before);

    // The used code under a fresh sign-in's state: the provider refuses it (used, and PKCE does not match).
    const fresh = new URL(await startSignIn(browser, server.url, 'club'));
    const replay = new URL(callback);
    replay.searchParams.set('state', fresh.searchParams.get('state')!);
    const exchanges = idp.tokenRequests();
    await expectRefused(await browser.fetch(replay.toString()), 401, /refused the authorization code/, before);
    expect(idp.tokenRequests()).toBe(exchanges + 1);
  });

  it('refuses a callback opened in another browser than the one that started the sign-in', async () => {
    const starter = new Browser();
    const callback = await signInAtProvider(starter, await startSignIn(starter, server.url, 'club'), 'alice');
    const before = await accountState();
    await expectRefused(await new Browser().fetch(callback), 401, /started in another browser/, before);
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    const browser = new Browser();
    const authorization = new URL(await startSignIn(browser, server.url, 'club'));
    authorization.searchParams.set('nonce', 'a-nonce-from-another-sign-in');
    const callback = await signInAtProvider(browser, authorization.toString(), 'alice');
    const before = await accountState();
    await expectRefused(await browser.fetch(callback), 401, /nonce mismatch/, before);
  });

  for (const [label, change, message] of [
    [
      'issued for another client (audience)',
      (c: Record<string, unknown>) => ({ ...c, aud: 'another-app' }),
      /another application/,
    ],
    [
      'expired',
      (c: Record<string, unknown>) => ({
        ...c,
        iat: Math.floor(Date.now() / 1000) - 7200,
        exp: Math.floor(Date.now() / 1000) - 3600,
      }),
      /ID token has expired/,
    ],
    [
      'from another issuer',
      (c: Record<string, unknown>) => ({ ...c, iss: 'https://impostor.example' }),
      /another issuer/,
    ],
  ] as const) {
    it(`refuses an ID token ${label}`, async () => {
      const browser = new Browser();
      const callback = await signInAtProvider(browser, await startSignIn(browser, server.url, 'club'), 'stranger');
      const before = await accountState();
      idp.tamperIdTokens(change);
      try {
        await expectRefused(await browser.fetch(callback), 401, message, before);
      } finally {
        idp.tamperIdTokens(null);
      }
    });
  }

  it('answers 503, signing nobody in, when the provider cannot be reached or its discovery names another issuer', async () => {
    const before = await accountState();
    for (const provider of ['down', 'imposter']) {
      const response = await new Browser().fetch(`${server.url}/api/v1/auth/oidc/${provider}/login`, {
        method: 'POST',
      });
      const body = (await response.json()) as ErrorBody;
      expect({ provider, status: response.status, error: body.error }).toEqual({
        provider,
        status: 503,
        error: 'ServiceUnavailable',
      });
    }
    expect(await accountState()).toEqual(before);
  });

  it('refuses an authorization response naming another issuer (RFC 9207)', async () => {
    const browser = new Browser();
    const callback = new URL(await signInAtProvider(browser, await startSignIn(browser, server.url, 'club'), 'alice'));
    expect(callback.searchParams.get('iss')).toBe(idp.issuer);
    callback.searchParams.set('iss', 'https://impostor.example');
    const before = await accountState();
    await expectRefused(await browser.fetch(callback.toString()), 401, /another issuer/, before);
  });

  it('passes on a refusal the provider reports, and forgets that sign-in', async () => {
    const browser = new Browser();
    const state = new URL(await startSignIn(browser, server.url, 'club')).searchParams.get('state')!;
    const before = await accountState();
    const base = `${server.url}/api/v1/auth/oidc/club/callback?state=${state}`;
    const denied = await browser.fetch(`${base}&error=access_denied&error_description=The+user+said+no`);
    await expectRefused(denied, 401, /Book Club ID did not sign you in: The user said no/, before);
    await expectRefused(await browser.fetch(`${base}&code=abc`), 401, /unknown or was already used/, before);
  });

  it("shows the provider's words on the refusal page as text, never as markup (issue 29 point 4)", async () => {
    const browser = new Browser();
    const state = new URL(await startSignIn(browser, server.url, 'club')).searchParams.get('state')!;
    const words = '<script>window.__hostile=1</script><img src=x onerror="window.__hostile=2">';
    const url = `${server.url}/api/v1/auth/oidc/club/callback?state=${state}&error=access_denied&error_description=${encodeURIComponent(words)}`;
    const binding = browser.cookie(server.url, 'longbox_sso_login');
    const page = await new Promise<{ status?: number; csp?: string; body: string }>((resolve, reject) => {
      const headers = { 'Sec-Fetch-Mode': 'navigate', Accept: 'text/html', Cookie: `longbox_sso_login=${binding}` };
      get(url, { headers }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            csp: response.headers['content-security-policy'] as string | undefined,
            body,
          }),
        );
      }).on('error', reject);
    });
    expect(page.status).toBe(401);
    expect(page.body).toContain(
      'Book Club ID did not sign you in: &#60;script&#62;window.__hostile=1&#60;/script&#62;',
    );
    expect(page.body).not.toMatch(/<script|<img/);
    // And were anything to slip through, the page runs no script at all.
    expect(page.csp).toMatch(/script-src 'none'/);
    expect(page.csp).toMatch(/sandbox/);
  });

  it('refuses a return path on another site before the sign-in starts', async () => {
    for (const redirectUri of [
      'https://evil.example/',
      '//evil.example/x',
      '/\t/evil.example',
      'javascript:alert(1)',
    ]) {
      const response = await fetch(`${server.url}/api/v1/auth/oidc/club/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ redirectUri }),
      });
      expect(response.status, redirectUri).toBe(400);
      expect(((await response.json()) as ErrorBody).details).toEqual([
        { path: 'redirectUri', message: 'is not a path on this server' },
      ]);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    const unknown = await fetch(`${server.url}/api/v1/auth/oidc/nobody/login`, { method: 'POST' });
    expect(unknown.status).toBe(404);
  });

  it('shows a person in a browser the refusal as a page, with the same status; an API client gets JSON', async () => {
    const url = `${server.url}/api/v1/auth/oidc/club/callback?code=abc&state=forged`;
    // node:http, because fetch sends `Sec-Fetch-Mode: cors` whatever it is told: a navigation's headers.
    const navigation = await new Promise<{ status?: number; type?: string; body: string }>((resolve, reject) => {
      get(url, { headers: { 'Sec-Fetch-Mode': 'navigate', Accept: 'text/html,*/*;q=0.8' } }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, type: response.headers['content-type'], body }),
        );
      }).on('error', reject);
    });
    expect(navigation.status).toBe(401);
    expect(navigation.type).toMatch(/text\/html/);
    expect(navigation.body).toContain('This sign-in is unknown or was already used: start again');
    expect(navigation.body).toContain('href="/login"');
    const api = await fetch(url, { headers: { Accept: 'application/json' } });
    expect(api.status).toBe(401);
    expect(((await api.json()) as ErrorBody).error).toBe('Unauthorized');
  });
});

describe('linked identities', () => {
  it('can be unlinked by their owner and by an admin', async () => {
    const browser = new Browser();
    expect((await signIn(browser, server.url, 'club', 'stranger')).status).toBe(303);
    const { body, token } = await browserSession(browser);
    const [identity] = await call(server.url, 'GET', '/user/identities', { token });
    await call(server.url, 'DELETE', `/user/identities/${identity.id}`, { token });
    expect(await call(server.url, 'GET', '/user/identities', { token })).toEqual([]);
    const again = await fetch(`${server.url}/api/v1/user/identities/${identity.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(again.status).toBe(404);

    // Linked again by the verified address at the next sign-in; then an admin unlinks it.
    expect((await signIn(browser, server.url, 'club', 'stranger')).status).toBe(303);
    const [relinked] = await call(server.url, 'GET', `/users/${body.user.id}/identities`, { token: admin.token });
    expect(relinked).toMatchObject({ subject: 'stranger' });
    await call(server.url, 'DELETE', `/users/${body.user.id}/identities/${relinked.id}`, { token: admin.token });
    expect(await call(server.url, 'GET', `/users/${body.user.id}/identities`, { token: admin.token })).toEqual([]);
    const forbidden = await fetch(`${server.url}/api/v1/users/${admin.user.id}/identities`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(forbidden.status).toBe(403);
  });
});

describe('secrets', () => {
  it('never writes a token, the client secret or a session into the server log', async () => {
    expect(idp.issuedTokens.length).toBeGreaterThan(5);
    const log = server.output();
    expect(log).not.toContain(idp.clientSecret);
    for (const token of idp.issuedTokens) expect(log).not.toContain(token);
    expect(log).not.toContain(admin.token);
    expect(log).toContain('single sign-on refused');
  });
});
