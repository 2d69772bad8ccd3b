/** API.md §4 Users (admin only), §2 User; DECISIONS.md §Roles and permissions, §Auth (Basic cache). */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, expectError } from '../support/http';
import { ADMIN, createApiKey, createUser, login, setupAdmin } from '../support/factories';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('creating and reading users (API.md §4 Users)', () => {
  it('creates a user with role and custom permissions and reads it back', async () => {
    const admin = await setupAdmin();
    const created = await api('/users', {
      auth: admin.auth,
      json: {
        username: 'Maint1',
        email: 'Maint1@Example.com',
        password: 'maint-password-1',
        role: 'maintainer',
        custom_permissions: ['UsersRead'],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      username: 'Maint1',
      email: 'maint1@example.com',
      role: 'maintainer',
      permissions: expect.arrayContaining(['TasksRead', 'UsersRead', 'LibrariesWrite']),
      customPermissions: ['UsersRead'],
      isActive: true,
      emailVerified: true,
      lastLoginAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
      sharedAllLibraries: true,
      sharedLibraryIds: [],
      ageRestriction: null,
      sharingTags: [],
    });
    expect(created.body).not.toHaveProperty('passwordHash');
    expect(created.body.permissions).not.toContain('UsersWrite');

    const fetched = await api(`/users/${created.body.id}`, { auth: admin.auth });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);

    // The new account can sign in with the password the admin chose.
    const session = await login('maint1', 'maint-password-1');
    expect((await api('/auth/me', { auth: session.auth })).body.role).toBe('maintainer');
  });

  it('answers 409 for a taken username (any case) or e-mail, and 400 with details for bad fields', async () => {
    const admin = await setupAdmin();
    const dupName = expectError(
      await api('/users', {
        auth: admin.auth,
        json: { username: 'ADMIN', email: 'new@example.com', password: 'some-password-1' },
      }),
      409,
      'Conflict',
    );
    expect(dupName.details).toEqual([{ path: 'username', message: expect.any(String) }]);
    const dupEmail = expectError(
      await api('/users', {
        auth: admin.auth,
        json: { username: 'fresh', email: ADMIN.email.toUpperCase(), password: 'some-password-1' },
      }),
      409,
      'Conflict',
    );
    expect(dupEmail.details?.map((d) => d.path)).toEqual(['email']);

    const invalid = expectError(
      await api('/users', {
        auth: admin.auth,
        json: { username: 'x', email: 'nope', password: 'short', role: 'emperor', customPermissions: ['Fly'] },
      }),
      400,
      'BadRequest',
    );
    expect(invalid.details?.map((d) => d.path).sort()).toEqual([
      'customPermissions.0',
      'email',
      'password',
      'role',
      'username',
    ]);
    expect((await api('/users', { auth: admin.auth })).body.total).toBe(1);
  });

  it('answers 400 for a malformed id and 404 NotFound for an unknown one, on every /users/{id} method', async () => {
    const admin = await setupAdmin();
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const json = method === 'PUT' ? { role: 'reader' } : undefined;
      const bad = expectError(await api('/users/not-a-uuid', { method, auth: admin.auth, json }), 400, 'BadRequest');
      expect(bad.details?.[0]?.path).toBe('id');
      expectError(await api(`/users/${UNKNOWN_ID}`, { method, auth: admin.auth, json }), 404, 'NotFound');
    }
  });
});

describe('updating users (API.md §4 Users; DECISIONS.md §Auth)', () => {
  it('changes only the fields sent and rejects a username taken by someone else', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth, { username: 'reader1' });
    const renamed = await api(`/users/${reader.id}`, {
      method: 'PUT',
      auth: admin.auth,
      json: { email: 'renamed@example.com' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ username: 'reader1', email: 'renamed@example.com', role: 'reader' });
    expect(renamed.body.updatedAt >= reader.user.updatedAt).toBe(true);

    const taken = await api(`/users/${reader.id}`, { method: 'PUT', auth: admin.auth, json: { username: 'Admin' } });
    expectError(taken, 409, 'Conflict');
    // Its own current name is not a conflict.
    const same = await api(`/users/${reader.id}`, { method: 'PUT', auth: admin.auth, json: { username: 'reader1' } });
    expect(same.status).toBe(200);
    expectError(
      await api(`/users/${reader.id}`, { method: 'PUT', auth: admin.auth, json: { isAdmin: true } }),
      400,
      'BadRequest',
    );
  });

  it('a new password ends the user’s sessions and kills cached Basic credentials at once', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth);
    const session = await login(reader.username, reader.password);
    const oldBasic = { basic: { username: reader.username, password: reader.password } };
    // The first Basic request verifies the password; the second is served from the cache.
    expect((await api('/auth/me', { auth: oldBasic })).status).toBe(200);
    expect((await api('/auth/me', { auth: oldBasic })).status).toBe(200);

    const changed = await api(`/users/${reader.id}`, {
      method: 'PUT',
      auth: admin.auth,
      json: { password: 'brand-new-password-2' },
    });
    expect(changed.status).toBe(200);

    expectError(await api('/auth/me', { auth: session.auth }), 401, 'Unauthorized');
    expectError(await api('/auth/me', { auth: oldBasic }), 401, 'Unauthorized');
    const newBasic = { basic: { username: reader.username, password: 'brand-new-password-2' } };
    expect((await api('/auth/me', { auth: newBasic })).status).toBe(200);
  });

  it('after a rename the old username no longer signs in, even from the Basic cache', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth, { username: 'before' });
    const oldBasic = { basic: { username: 'before', password: reader.password } };
    expect((await api('/auth/me', { auth: oldBasic })).status).toBe(200);
    await api(`/users/${reader.id}`, { method: 'PUT', auth: admin.auth, json: { username: 'after' } });
    expectError(await api('/auth/me', { auth: oldBasic }), 401, 'Unauthorized');
    const newBasic = { basic: { username: 'after', password: reader.password } };
    expect((await api('/auth/me', { auth: newBasic })).body.username).toBe('after');
  });

  it('an admin changing their own password keeps the session they used', async () => {
    const admin = await setupAdmin();
    const other = await login(ADMIN.username, ADMIN.password);
    const res = await api(`/users/${admin.userId}`, {
      method: 'PUT',
      auth: admin.auth,
      json: { password: 'admin-password-2' },
    });
    expect(res.status).toBe(200);
    expect((await api('/auth/me', { auth: admin.auth })).status).toBe(200);
    expectError(await api('/auth/me', { auth: other.auth }), 401, 'Unauthorized');
  });

  it('deactivating a user ends their sessions and rejects their Basic credentials and API keys', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth);
    const session = await login(reader.username, reader.password);
    const key = await createApiKey(session.auth);
    const basic = { basic: { username: reader.username, password: reader.password } };
    expect((await api('/auth/me', { auth: basic })).status).toBe(200);

    const off = await api(`/users/${reader.id}`, { method: 'PUT', auth: admin.auth, json: { isActive: false } });
    expect(off.body.isActive).toBe(false);
    for (const auth of [session.auth, basic, { apiKey: key.key }]) {
      const error = expectError(await api('/auth/me', { auth }), 401, 'Unauthorized');
      expect(error.message).not.toMatch(/stack|Error:/);
    }
    expectError(
      await api('/auth/login', { json: { username: reader.username, password: reader.password } }),
      401,
      'Unauthorized',
    );

    await api(`/users/${reader.id}`, { method: 'PUT', auth: admin.auth, json: { is_active: true } });
    expect((await api('/auth/me', { auth: { apiKey: key.key } })).status).toBe(200);
  });

  it('a role or permission change applies to the user’s next request, Basic included', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth, { customPermissions: ['UsersRead'] });
    const basic = { basic: { username: reader.username, password: reader.password } };
    expect((await api('/users', { auth: basic })).status).toBe(200);

    const revoked = await api(`/users/${reader.id}`, {
      method: 'PUT',
      auth: admin.auth,
      json: { customPermissions: [] },
    });
    expect(revoked.body.permissions).not.toContain('UsersRead');
    expectError(await api('/users', { auth: basic }), 403, 'Forbidden');

    await api(`/users/${reader.id}`, { method: 'PUT', auth: admin.auth, json: { role: 'admin' } });
    expect((await api('/users', { auth: basic })).status).toBe(200);
  });
});

describe('the last admin (API.md §4 Users)', () => {
  it('cannot be deleted, demoted or deactivated (409), while a second admin can', async () => {
    const admin = await setupAdmin();
    for (const [method, json] of [
      ['DELETE', undefined],
      ['PUT', { role: 'maintainer' }],
      ['PUT', { isActive: false }],
    ] as const) {
      const res = await api(`/users/${admin.userId}`, { method, auth: admin.auth, json });
      expect(expectError(res, 409, 'Conflict').message).toMatch(/last/);
    }
    expect((await api(`/users/${admin.userId}`, { auth: admin.auth })).body).toMatchObject({
      role: 'admin',
      isActive: true,
    });

    const second = await createUser(admin.auth, { role: 'admin' });
    const demoted = await api(`/users/${admin.userId}`, { method: 'PUT', auth: admin.auth, json: { role: 'reader' } });
    expect(demoted.status).toBe(200);
    // The first admin is a reader now; the second one is the last admin and may not leave.
    expectError(await api('/users', { auth: admin.auth }), 403, 'Forbidden');
    const secondSession = await login(second.username, second.password);
    expectError(await api(`/users/${second.id}`, { method: 'DELETE', auth: secondSession.auth }), 409, 'Conflict');
    expect((await api(`/users/${admin.userId}`, { method: 'DELETE', auth: secondSession.auth })).status).toBe(204);
  });
});

describe('the last admin under concurrent changes (API.md §4 Users)', () => {
  // Each request checks for another admin before writing; only a check inside the write itself stops two
  // requests that both passed it from leaving the server without an admin.
  for (const [label, change] of [
    ['demoted', { method: 'PUT', json: { role: 'reader' } }],
    ['deactivated', { method: 'PUT', json: { isActive: false } }],
    ['deleted', { method: 'DELETE', json: undefined }],
  ] as const) {
    it(`two admins ${label} at the same moment: only one change succeeds and one active admin remains`, async () => {
      const admin = await setupAdmin();
      const second = await createUser(admin.auth, { role: 'admin' });
      const key = { apiKey: (await createApiKey(admin.auth)).key };
      const results = await Promise.all(
        [admin.userId, second.id].map((id) =>
          api(`/users/${id}`, { method: change.method, auth: key, json: change.json }),
        ),
      );
      const succeeded = results.filter((r) => r.status === (change.method === 'DELETE' ? 204 : 200));
      expect(succeeded).toHaveLength(1);
      // Usually 409 (both passed authentication first); 401/403 when the other change had already
      // removed the caller's own admin rights before this request was authenticated.
      const refused = results.find((r) => !succeeded.includes(r));
      expect([401, 403, 409]).toContain(refused?.status);
      if (refused?.status === 409) expect(refused.body.message).toMatch(/last/);
      const rows = await env.DB.prepare(
        "SELECT count(*) AS n FROM users WHERE role = 'admin' AND is_active = 1",
      ).first<{ n: number }>();
      expect(rows?.n).toBe(1);
    });
  }
});

describe('deleting users (API.md §4 Users)', () => {
  it('removes the user with their sessions, API keys and preferences', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth);
    const session = await login(reader.username, reader.password);
    const key = await createApiKey(session.auth);
    await api('/user/preferences/theme', { method: 'PUT', auth: session.auth, json: { value: 'dark' } });
    const stored = () =>
      Promise.all(
        ['sessions', 'api_keys', 'user_preferences'].map(async (table) => {
          const row = await env.DB.prepare(`select count(*) as n from ${table} where user_id = ?`)
            .bind(reader.id)
            .first<{ n: number }>();
          return row?.n;
        }),
      );
    expect(await stored()).toEqual([1, 1, 1]);

    const res = await api(`/users/${reader.id}`, { method: 'DELETE', auth: admin.auth });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    expectError(await api('/auth/me', { auth: session.auth }), 401, 'Unauthorized');
    expectError(await api('/auth/me', { auth: { apiKey: key.key } }), 401, 'Unauthorized');
    expect(await stored()).toEqual([0, 0, 0]);
    expectError(await api(`/users/${reader.id}`, { auth: admin.auth }), 404, 'NotFound');
    expectError(await api(`/users/${reader.id}`, { method: 'DELETE', auth: admin.auth }), 404, 'NotFound');
  });
});

describe('managing accounts without being an admin (DECISIONS.md §Roles and permissions)', () => {
  it('a maintainer with UsersRead/UsersWrite may manage readers but not hand out or take over more power', async () => {
    const admin = await setupAdmin();
    const manager = await createUser(admin.auth, {
      role: 'maintainer',
      customPermissions: ['UsersRead', 'UsersWrite'],
    });
    const session = await login(manager.username, manager.password);

    const asAdmin = expectError(
      await api('/users', {
        auth: session.auth,
        json: { username: 'sneaky', email: 'sneaky@example.com', password: 'sneaky-password-1', role: 'admin' },
      }),
      403,
      'Forbidden',
    );
    expect(asAdmin.message).toContain('SystemAdmin');
    expectError(
      await api(`/users/${admin.userId}`, { method: 'PUT', auth: session.auth, json: { password: 'taken-over-1' } }),
      403,
      'Forbidden',
    );
    expectError(
      await api(`/users/${manager.id}`, {
        method: 'PUT',
        auth: session.auth,
        json: { customPermissions: ['UsersDelete'] },
      }),
      403,
      'Forbidden',
    );
    const reader = await api('/users', {
      auth: session.auth,
      json: { username: 'helper', email: 'helper@example.com', password: 'helper-password-1' },
    });
    expect(reader.status).toBe(201);
    expect(reader.body.role).toBe('reader');
  });
});
