/** API.md §5 method 1 (session tokens) and §7 (401 envelopes); DECISIONS.md §Auth (JWT with `sid`). */
import { env } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN, createUser, login, setupAdmin } from '../support/factories';
import { api, type ApiResponse, expectError } from '../support/http';

/** A 401 a client can act on: the error envelope plus the challenge naming the schemes we accept. */
function expectChallenge(res: ApiResponse) {
  const error = expectError(res, 401, 'Unauthorized');
  const challenge = res.headers.get('WWW-Authenticate') ?? '';
  expect(challenge).toContain('Bearer');
  expect(challenge).toContain('Basic');
  return error;
}

async function loginAdmin() {
  const res = await api('/auth/login', { json: { username: ADMIN.username, password: ADMIN.password } });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; user: { id: string } };
}

/** Claims shaped exactly like the server's own tokens, so only the property under test differs. */
function tokenLike(claims: { sub: string; sid: string; role: string }) {
  return new SignJWT({ sid: claims.sid, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer('longbox');
}

async function sessionIdOf(token: string): Promise<string> {
  const payload = JSON.parse(atob((token.split('.')[1] as string).replace(/-/g, '+').replace(/_/g, '/')));
  return payload.sid as string;
}

describe('session tokens that must be refused (API.md §5, §7: invalid credential → 401)', () => {
  it('refuses a garbled token, a truncated token and an empty bearer value with a challenge', async () => {
    await setupAdmin();
    const { access_token } = await loginAdmin();
    for (const token of ['not-a-token', 'a.b.c', access_token.slice(0, -4), `${access_token}x`]) {
      expectChallenge(await api('/auth/me', { auth: { token } }));
    }
    expectChallenge(await api('/auth/me', { headers: { Authorization: 'Bearer ' } }));
    // The genuine token still works: the refusals above were about the tokens, not the account.
    expect((await api('/auth/me', { auth: { token: access_token } })).status).toBe(200);
  });

  it('refuses a token signed with another secret even when every claim is right', async () => {
    await setupAdmin();
    const { access_token, user } = await loginAdmin();
    const forged = await tokenLike({ sub: user.id, sid: await sessionIdOf(access_token), role: 'admin' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    const error = expectChallenge(await api('/auth/me', { auth: { token: forged } }));
    expect(error.message).toMatch(/invalid|expired/i);
  });

  it('refuses an unsigned (alg none) copy and a copy whose payload was edited to name another user', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth);
    const readerToken = (await login(reader.username, reader.password)).token;
    const [header, payload, signature] = readerToken.split('.') as [string, string, string];
    const b64url = (value: unknown) =>
      btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));

    const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    expectChallenge(await api('/auth/me', { auth: { token: unsigned } }));
    const escalated = `${header}.${b64url({ ...claims, sub: admin.userId, role: 'admin' })}.${signature}`;
    expectChallenge(await api('/auth/me', { auth: { token: escalated } }));
    expect((await api('/auth/me', { auth: { token: readerToken } })).body.username).toBe(reader.username);
  });

  it('refuses a token the server issued once its lifetime (24 h by default) has passed', async () => {
    await setupAdmin();
    const res = await api('/auth/login', { json: { username: ADMIN.username, password: ADMIN.password } });
    expect(res.body.expires_in).toBe(24 * 3600);
    const token = res.body.access_token as string;
    const issuedAt = Date.now();
    // Only the clock moves (the worker runs in this isolate and reads the same Date): token, session
    // row and server are untouched, so the refusal comes from the token's own `exp`.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(issuedAt + 23 * 3600 * 1000);
      expect((await api('/auth/me', { auth: { token } })).status).toBe(200);
      vi.setSystemTime(issuedAt + 24 * 3600 * 1000 + 5000);
      const error = expectChallenge(await api('/auth/me', { auth: { token } }));
      expect(error.message).toMatch(/expired/i);
    } finally {
      vi.useRealTimers();
    }
  });

  it('issues tokens for the lifetime the admin set (auth.session_lifetime_hours)', async () => {
    const admin = await setupAdmin();
    const set = await api('/admin/settings/auth.session_lifetime_hours', {
      method: 'PUT',
      auth: admin.auth,
      json: { value: 2 },
    });
    expect(set.status).toBe(200);
    const res = await api('/auth/login', { json: { username: ADMIN.username, password: ADMIN.password } });
    expect(res.body.expires_in).toBe(7200);
    const token = res.body.access_token as string;
    const issuedAt = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(issuedAt + 7200 * 1000 - 60_000);
      expect((await api('/auth/me', { auth: { token } })).status).toBe(200);
      vi.setSystemTime(issuedAt + 7200 * 1000 + 5000);
      expectChallenge(await api('/auth/me', { auth: { token } }));
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a validly signed token whose session row no longer exists', async () => {
    await setupAdmin();
    const { access_token } = await loginAdmin();
    await env.DB.prepare('DELETE FROM sessions WHERE id = ?')
      .bind(await sessionIdOf(access_token))
      .run();
    const error = expectChallenge(await api('/auth/me', { auth: { token: access_token } }));
    expect(error.message).toMatch(/log in again/i);
  });
});

describe('logout (API.md §4 Authentication, DECISIONS.md §Auth: logout deletes the session)', () => {
  it('ends only the session it was sent with; another session of the same user keeps working', async () => {
    await setupAdmin();
    const phone = (await loginAdmin()).access_token;
    const laptop = (await loginAdmin()).access_token;
    expect(phone).not.toBe(laptop);

    expect((await api('/auth/logout', { method: 'POST', auth: { token: phone } })).status).toBe(204);
    expectChallenge(await api('/auth/me', { auth: { token: phone } }));
    expectChallenge(await api('/auth/logout', { method: 'POST', auth: { token: phone } }));

    const me = await api('/auth/me', { auth: { token: laptop } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: ADMIN.username, authMethod: 'session', apiKey: null });
  });

  it('refuses logout without credentials', async () => {
    await setupAdmin();
    expectChallenge(await api('/auth/logout', { method: 'POST' }));
  });
});
