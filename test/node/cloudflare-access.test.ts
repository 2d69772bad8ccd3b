/**
 * Cloudflare Access in front of Longbox (`wrangler dev`), with Access's signed assertions made by this
 * test: its own RSA keys, served on loopback as the team's certs endpoint (LONGBOX_AUTH__CF_ACCESS__CERTS_URL),
 * counted so the key-set cache and its refetch on an unknown `kid` show. Also the deployment with password
 * login turned off (LONGBOX_AUTH__PASSWORD_LOGIN=false): admins keep theirs, everyone else signs in
 * through single sign-on or uses API keys.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/lib/errors';
import type { BrowserSession } from '../../src/schemas/sso.schema';
import { ADMIN, call, type Session, setupAdmin } from '../e2e/support/api';
import { type LongboxServer, startServer } from '../support/dev-server';

const TEAM = 'longbox-test.cloudflareaccess.com';
const AUD = '4714c1358e65fe4b408ad6d432a5f878f08194bdb4752441fd56faefa9b2b6f2';
const ASSERTION = 'Cf-Access-Jwt-Assertion';
const DAVE = { username: 'dave', email: 'dave@example.test', password: 'dave has a passphrase' };

type Key = { kid: string; privateKey: CryptoKey; publicJwk: JsonWebKey };

async function newKey(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    kid,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } as JsonWebKey,
  };
}

let keyA: Key;
let keyB: Key;
let unpublished: Key;
let published: Key[];
let certsFetches = 0;
let certs: Server;
let server: LongboxServer;
let admin: Session;
let daveId: string;
const issuedAssertions: string[] = [];

/** An Access application token as Cloudflare issues it (validating-json.mdx), with `change` applied. */
async function assertion(claims: JWTPayload, key: Key = keyA, change: (c: JWTPayload) => JWTPayload = (c) => c) {
  const now = Math.floor(Date.now() / 1000);
  const payload = change({
    aud: [AUD],
    iss: `https://${TEAM}`,
    iat: now,
    nbf: now,
    exp: now + 3600,
    type: 'app',
    identity_nonce: 'nonce',
    country: 'NZ',
    ...claims,
  });
  const token = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: key.kid }).sign(key.privateKey);
  issuedAssertions.push(token);
  return token;
}

const carol = { sub: '7335d417-61da-459d-899c-0a01c76a2f94', email: 'carol@example.test' };

async function request(path: string, headers: Record<string, string>, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${path}`, { ...init, headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  [keyA, keyB, unpublished] = await Promise.all([newKey('key-a'), newKey('key-b'), newKey('key-c')]);
  published = [keyA];
  certs = createServer((_req, res) => {
    certsFetches++;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ keys: published.map((key) => key.publicJwk) }));
  });
  await new Promise<void>((resolve) => certs.listen(0, '127.0.0.1', resolve));
  server = await startServer({
    vars: {
      LONGBOX_AUTH__CF_ACCESS__TEAM_DOMAIN: TEAM,
      LONGBOX_AUTH__CF_ACCESS__AUD: AUD,
      LONGBOX_AUTH__CF_ACCESS__AUTO_CREATE_USERS: 'true',
      LONGBOX_AUTH__CF_ACCESS__CERTS_URL: `http://127.0.0.1:${(certs.address() as AddressInfo).port}/cdn-cgi/access/certs`,
      LONGBOX_AUTH__JWKS_COOLDOWN_SECONDS: '1',
      LONGBOX_AUTH__PASSWORD_LOGIN: 'false',
    },
  });
  admin = await setupAdmin(server.url);
  daveId = (await call(server.url, 'POST', '/users', { token: admin.token, json: DAVE })).id;
}, 240_000);

afterAll(async () => {
  await server?.stop();
  certs?.closeAllConnections();
  await new Promise((resolve) => certs?.close(resolve));
}, 30_000);

describe('a request carrying a valid Access assertion', () => {
  it('is the Access user, whose account is created on first sight and whose keys are fetched once', async () => {
    const fetchesBefore = certsFetches;
    const me = await request('/api/v1/auth/me', { [ASSERTION]: await assertion(carol) });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      username: 'carol',
      email: carol.email,
      role: 'reader',
      authMethod: 'cloudflare_access',
    });
    const again = await request('/api/v1/auth/me', { [ASSERTION]: await assertion(carol) });
    expect(again.body.id).toBe(me.body.id);
    expect(certsFetches - fetchesBefore).toBe(1);
    const identities = await call(server.url, 'GET', `/users/${me.body.id}/identities`, { token: admin.token });
    expect(identities).toEqual([
      expect.objectContaining({ provider: 'cloudflare-access', providerName: 'Cloudflare Access', subject: carol.sub }),
    ]);
  });

  it('links an existing account by the address Access vouches for, once per account', async () => {
    const dave = { sub: '11111111-2222-4333-8444-555555555555', email: DAVE.email };
    const me = await request('/api/v1/auth/me', { [ASSERTION]: await assertion(dave) });
    expect(me.body).toMatchObject({ id: daveId, username: 'dave', authMethod: 'cloudflare_access' });
    // Another Access identity with the same address cannot take the account over.
    const other = await request('/api/v1/auth/me', {
      [ASSERTION]: await assertion({ sub: '99999999-2222-4333-8444-555555555555', email: DAVE.email }),
    });
    expect(other.status).toBe(401);
    expect(other.body.message).toMatch(/already linked to another Cloudflare Access identity/);
  });

  it('gives the web app a session of its own, in the HttpOnly cookie alone', async () => {
    const token = await assertion(carol);
    const response = await fetch(`${server.url}/api/v1/auth/session`, { headers: { [ASSERTION]: token } });
    expect(response.status).toBe(200);
    const session = (await response.json()) as BrowserSession;
    expect(session).toMatchObject({ via: 'cloudflare_access', user: { username: 'carol' } });
    expect(session).not.toHaveProperty('access_token');
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('longbox_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    const sessionCookie = cookie.split(';')[0]!;
    // The cookie does what the assertion alone may not: writes, from the app's own pages.
    const created = await fetch(`${server.url}/api/v1/api-keys`, {
      method: 'POST',
      headers: { Cookie: sessionCookie, Origin: server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Kobo' }),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { key: string }).key).toMatch(/^lbx_/);
    // The same browser asking again keeps its session (no new one per page load).
    const again = await fetch(`${server.url}/api/v1/auth/session`, {
      headers: { [ASSERTION]: token, Cookie: sessionCookie },
    });
    expect(((await again.json()) as BrowserSession).user.username).toBe('carol');
    expect(again.headers.getSetCookie()).toEqual([]);
  });
});

describe('assertions that sign nobody in', () => {
  it('a request without one needs credentials as before', async () => {
    const response = await request('/api/v1/auth/me', {});
    expect(response.status).toBe(401);
  });

  for (const [label, make, message] of [
    [
      'for another application (aud)',
      () => assertion(carol, keyA, (c) => ({ ...c, aud: ['another-app'] })),
      /another application/,
    ],
    [
      'expired',
      () =>
        assertion(carol, keyA, (c) => ({
          ...c,
          iat: Math.floor(Date.now() / 1000) - 7200,
          exp: Math.floor(Date.now() / 1000) - 3600,
        })),
      /has expired/,
    ],
    [
      'from another team (iss)',
      () => assertion(carol, keyA, (c) => ({ ...c, iss: 'https://other.cloudflareaccess.com' })),
      /another issuer/,
    ],
    ['signed with a key the team does not publish', () => assertion(carol, unpublished), /does not publish/],
    ['not a token at all', async () => 'not.a.token', /malformed/],
  ] as const) {
    it(`is refused when ${label}`, async () => {
      const response = await request('/api/v1/auth/me', { [ASSERTION]: await make() });
      expect(response.status).toBe(401);
      expect((response.body as ErrorBody).message).toMatch(message);
    });
  }

  it('is a service token: no person, so no account (an API key still works beside it)', async () => {
    const service = await assertion({ sub: '', email: undefined, common_name: '0c1a2b3c.access', type: 'app' });
    const alone = await request('/api/v1/auth/me', { [ASSERTION]: service });
    expect(alone.status).toBe(401);
    const key = await call(server.url, 'POST', '/api-keys', { token: admin.token, json: { name: 'Script' } });
    const withKey = await request('/api/v1/auth/me', { [ASSERTION]: service, 'X-API-Key': key.key });
    expect(withKey.body).toMatchObject({ username: ADMIN.username, authMethod: 'api_key' });
  });

  it('does not sign in a write: the web app sends its bearer token for those', async () => {
    const response = await request(
      '/api/v1/api-keys',
      { [ASSERTION]: await assertion(carol), 'Content-Type': 'application/json' },
      { method: 'POST', body: JSON.stringify({ name: 'Sneaky' }) },
    );
    expect(response.status).toBe(401);
  });

  it('never signs in on reader-app paths, which keep API keys and Basic', async () => {
    const key = await call(server.url, 'POST', '/api-keys', { token: admin.token, json: { name: 'Panels' } });
    const basic = `Basic ${btoa(`api:${key.key}`)}`;
    const token = await assertion(carol);
    const koreader = { Accept: 'application/vnd.koreader.v1+json' };
    for (const path of [
      '/opds/v1.2/catalog',
      '/opds/v2.0/catalog',
      '/komga/api/v1/libraries',
      '/koreader/users/auth',
    ]) {
      const app = path.startsWith('/koreader') ? koreader : {};
      const refused = await fetch(`${server.url}${path}`, { headers: { ...app, [ASSERTION]: token } });
      expect(refused.status, path).toBe(401);
      const accepted = await fetch(`${server.url}${path}`, {
        headers: path.startsWith('/koreader')
          ? { ...koreader, 'x-auth-user': key.key, 'x-auth-key': 'x' }
          : { Authorization: basic },
      });
      expect(accepted.status, path).toBe(200);
    }
    expect(
      (await fetch(`${server.url}/opds/v1.2/catalog`, { headers: { [ASSERTION]: token } })).headers.get(
        'WWW-Authenticate',
      ),
    ).toMatch(/^Basic realm="Longbox"/);
  });
});

describe('key rotation', () => {
  it('fetches the team keys again when a token names a kid it has not seen, not more often than the cooldown', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100)); // past the 1 s cooldown of this deployment
    published = [keyB]; // Cloudflare rotated: key A is gone, key B signs
    const before = certsFetches;
    const rotated = await request('/api/v1/auth/me', { [ASSERTION]: await assertion(carol, keyB) });
    expect(rotated.status).toBe(200);
    expect(rotated.body.username).toBe('carol');
    expect(certsFetches).toBe(before + 1);
    // Within the cooldown, an old key id costs no fetch and signs nobody in.
    const stale = await request('/api/v1/auth/me', { [ASSERTION]: await assertion(carol, keyA) });
    expect(stale.status).toBe(401);
    expect(certsFetches).toBe(before + 1);
  });
});

describe('password login turned off', () => {
  it('tells the login screen, and keeps passwords for admins only', async () => {
    expect(await call(server.url, 'GET', '/auth/oidc/providers')).toEqual({
      enabled: false,
      providers: [],
      passwordLogin: false,
      cloudflareAccess: true,
    });
    const login = (username: string, password: string) =>
      request(
        '/api/v1/auth/login',
        { 'Content-Type': 'application/json' },
        { method: 'POST', body: JSON.stringify({ username, password }) },
      );
    expect((await login(ADMIN.username, ADMIN.password)).status).toBe(200);
    const refused = await login(DAVE.username, DAVE.password);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/Password sign-in is turned off/);
    // Only the right password learns that: a wrong one is the usual answer.
    expect((await login(DAVE.username, 'not the password')).body.message).toBe('Invalid username or password');
    const basic = await fetch(`${server.url}/opds/v1.2/catalog`, {
      headers: { Authorization: `Basic ${btoa(`${DAVE.username}:${DAVE.password}`)}` },
    });
    expect(basic.status).toBe(401);

    await call(server.url, 'PUT', '/admin/settings/auth.registration_enabled', {
      token: admin.token,
      json: { value: true },
    });
    const register = await request(
      '/api/v1/auth/register',
      { 'Content-Type': 'application/json' },
      {
        method: 'POST',
        body: JSON.stringify({ username: 'eve', email: 'eve@example.test', password: 'eve has a passphrase' }),
      },
    );
    expect(register.status).toBe(403);
  });
});

describe('secrets', () => {
  it('never writes an assertion into the server log', () => {
    const log = server.output();
    for (const token of issuedAssertions) expect(log).not.toContain(token);
  });
});
