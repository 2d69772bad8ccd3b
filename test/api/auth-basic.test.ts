/** API.md §5 method 3 (HTTP Basic); DECISIONS.md §Auth (Basic cache dropped when password, role or account change). */
import { describe, expect, it } from 'vitest';
import { ADMIN, createApiKey, createUser, setupAdmin } from '../support/factories';
import { api, type ApiResponse, expectError } from '../support/http';

const basicAuth = (username: string, password: string) => ({ basic: { username, password } });

function expectChallenge(res: ApiResponse) {
  const error = expectError(res, 401, 'Unauthorized');
  // Basic first, in the realm the reader apps share (OPDS acquisition links lead here).
  expect(res.headers.get('WWW-Authenticate')).toMatch(
    /^Basic realm="Longbox", charset="UTF-8", Bearer realm="Longbox"$/,
  );
  return error;
}

/** Two successful requests: the first verifies the password, the second is answered from the cache. */
async function warmCache(username: string, password: string) {
  for (let i = 0; i < 2; i++) expect((await api('/auth/me', { auth: basicAuth(username, password) })).status).toBe(200);
}

describe('HTTP Basic with username and password (API.md §5 method 3)', () => {
  it('identifies the user on /auth/me with authMethod basic, in any username case', async () => {
    await setupAdmin();
    for (const username of ['admin', 'ADMIN']) {
      const me = await api('/auth/me', { auth: basicAuth(username, ADMIN.password) });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ username: 'admin', role: 'admin', authMethod: 'basic', apiKey: null });
      expect(me.body.effectivePermissions).toContain('SystemAdmin');
    }
  });

  it('lets a reader app open a book with many simultaneous Basic requests (one password check)', async () => {
    await setupAdmin();
    const responses = await Promise.all(
      Array.from({ length: 32 }, () => api('/auth/me', { auth: basicAuth('admin', ADMIN.password) })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(32).fill(200));
  });

  it('refuses a wrong password, an unknown user and malformed credentials with a challenge', async () => {
    await setupAdmin();
    await warmCache('admin', ADMIN.password);
    // A cached success for the right password must not leak to a wrong one.
    expectChallenge(await api('/auth/me', { auth: basicAuth('admin', `${ADMIN.password}x`) }));
    expectChallenge(await api('/auth/me', { auth: basicAuth('ghost', ADMIN.password) }));
    for (const value of ['!!!not-base64', btoa('no-colon-here'), '']) {
      expectChallenge(await api('/auth/me', { headers: { Authorization: `Basic ${value}` } }));
    }
  });

  it('challenges a browser page’s own requests with Bearer only, so no password dialog opens over the web app', async () => {
    await setupAdmin();
    for (const destination of ['empty', 'image']) {
      const res = await api('/auth/me', { headers: { 'Sec-Fetch-Dest': destination, 'Sec-Fetch-Mode': 'cors' } });
      expectError(res, 401, 'Unauthorized');
      expect(res.headers.get('WWW-Authenticate'), destination).toBe('Bearer realm="Longbox"');
    }
    // Opening an API URL in the browser's address bar (a download) may prompt.
    expectChallenge(await api('/auth/me', { headers: { 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-Mode': 'navigate' } }));
  });

  it('works with api:<key> as reader apps send it, with the key’s permissions', async () => {
    const admin = await setupAdmin();
    const key = await createApiKey(admin.auth, { name: 'reader app', permissions: ['BooksRead', 'PagesRead'] });
    for (const username of ['api', 'API']) {
      const me = await api('/auth/me', { auth: basicAuth(username, key.key) });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ authMethod: 'api_key', apiKey: { id: key.id, name: 'reader app' } });
      expect(me.body.effectivePermissions).toEqual(['BooksRead', 'PagesRead']);
    }
    const bad = expectChallenge(await api('/auth/me', { auth: basicAuth('api', 'not-a-key') }));
    expect(bad.message).toBe('Invalid API key format');
  });
});

describe('cached Basic checks follow account changes at once (DECISIONS.md §Auth)', () => {
  it('drops the old password as soon as it is changed', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth);
    await warmCache(reader.username, reader.password);

    const changed = await api(`/users/${reader.id}`, {
      method: 'PUT',
      auth: admin.auth,
      json: { password: 'a-new-password-9' },
    });
    expect(changed.status).toBe(200);
    expectChallenge(await api('/auth/me', { auth: basicAuth(reader.username, reader.password) }));
    expect((await api('/auth/me', { auth: basicAuth(reader.username, 'a-new-password-9') })).status).toBe(200);
  });

  it('applies a role change to the next cached request', async () => {
    const admin = await setupAdmin();
    const user = await createUser(admin.auth, { role: 'maintainer' });
    await warmCache(user.username, user.password);
    const before = await api('/auth/me', { auth: basicAuth(user.username, user.password) });
    expect(before.body.effectivePermissions).toContain('TasksWrite');

    await api(`/users/${user.id}`, { method: 'PUT', auth: admin.auth, json: { role: 'reader' } });
    const after = await api('/auth/me', { auth: basicAuth(user.username, user.password) });
    expect(after.status).toBe(200);
    expect(after.body.role).toBe('reader');
    expect(after.body.effectivePermissions).not.toContain('TasksWrite');
  });

  it('refuses a deactivated or deleted account although its check was cached', async () => {
    const admin = await setupAdmin();
    const first = await createUser(admin.auth);
    const second = await createUser(admin.auth);
    await warmCache(first.username, first.password);
    await warmCache(second.username, second.password);

    await api(`/users/${first.id}`, { method: 'PUT', auth: admin.auth, json: { isActive: false } });
    expectChallenge(await api('/auth/me', { auth: basicAuth(first.username, first.password) }));

    expect((await api(`/users/${second.id}`, { method: 'DELETE', auth: admin.auth })).status).toBe(204);
    expectChallenge(await api('/auth/me', { auth: basicAuth(second.username, second.password) }));
  });

  it('stops accepting the old username after a rename', async () => {
    const admin = await setupAdmin();
    const user = await createUser(admin.auth);
    await warmCache(user.username, user.password);

    const renamed = `${user.username}-renamed`;
    const res = await api(`/users/${user.id}`, { method: 'PUT', auth: admin.auth, json: { username: renamed } });
    expect(res.status).toBe(200);
    expectChallenge(await api('/auth/me', { auth: basicAuth(user.username, user.password) }));
    const me = await api('/auth/me', { auth: basicAuth(renamed, user.password) });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(renamed);
  });
});
