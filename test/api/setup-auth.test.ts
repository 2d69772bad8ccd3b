/** API.md §4 Setup and Authentication; DECISIONS.md §Auth. */
import { describe, expect, it } from 'vitest';
import { api, expectError } from '../support/http';
import { ADMIN, setupAdmin } from '../support/factories';

describe('setup (DECISIONS.md §Auth)', () => {
  it('reports that setup is required on an empty server, then creates the admin once', async () => {
    const before = await api('/setup/status');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ setupRequired: true, hasUsers: false, registrationEnabled: false });

    const created = await api('/setup/initialize', { json: ADMIN });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ token_type: 'Bearer', expires_in: 86400 });
    expect(created.body.user).toEqual({
      id: expect.any(String),
      username: 'admin',
      email: 'admin@example.com',
      role: 'admin',
    });

    const after = await api('/setup/status');
    expect(after.body).toEqual({ setupRequired: false, hasUsers: true, registrationEnabled: false });

    const again = await api('/setup/initialize', { json: { ...ADMIN, username: 'other', email: 'o@example.com' } });
    expectError(again, 409, 'Conflict');
  });

  it('rejects a weak password and a bad e-mail with field details, creating nothing', async () => {
    const res = await api('/setup/initialize', {
      json: { username: 'admin', email: 'not-an-email', password: 'short' },
    });
    const error = expectError(res, 400, 'BadRequest');
    expect(error.details?.map((d) => d.path).sort()).toEqual(['email', 'password']);
    expect((await api('/setup/status')).body.hasUsers).toBe(false);
  });
});

describe('login, me, logout (API.md §5 method 1)', () => {
  it('logs in, reads /auth/me with the token, and the token dies at logout', async () => {
    await setupAdmin();
    const login = await api('/auth/login', { json: { username: 'admin', password: ADMIN.password } });
    expect(login.status).toBe(200);
    const token = login.body.access_token as string;
    expect(token.split('.')).toHaveLength(3);

    const me = await api('/auth/me', { auth: { token } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'admin', role: 'admin', authMethod: 'session' });

    expect((await api('/auth/logout', { method: 'POST', auth: { token } })).status).toBe(204);
    const dead = await api('/auth/me', { auth: { token } });
    expectError(dead, 401, 'Unauthorized');
  });

  it('answers a wrong password and an unknown user alike with 401', async () => {
    await setupAdmin();
    const wrong = expectError(
      await api('/auth/login', { json: { username: 'admin', password: 'nope-nope-1' } }),
      401,
      'Unauthorized',
    );
    const unknown = expectError(
      await api('/auth/login', { json: { username: 'ghost', password: 'nope-nope-1' } }),
      401,
      'Unauthorized',
    );
    expect(wrong.message).toBe(unknown.message);
  });
});
