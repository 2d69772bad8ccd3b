/**
 * API.md §4 ("The Users, Settings and Filesystem groups are admin only"), §5 permission names, §7 (401 vs 403);
 * DECISIONS.md §Roles and permissions.
 */
import { describe, expect, it } from 'vitest';
import { api, type Credentials, expectError } from '../support/http';
import { createApiKey, createUser, login, setupAdmin } from '../support/factories';

const SOME_ID = '00000000-0000-4000-8000-000000000000';

interface Endpoint {
  method: string;
  path: string;
  json?: unknown;
  need: string;
}

const ADMIN_ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/users', need: 'UsersRead' },
  {
    method: 'POST',
    path: '/users',
    json: { username: 'intruder', email: 'intruder@example.com', password: 'intruder-password-1' },
    need: 'UsersWrite',
  },
  { method: 'GET', path: `/users/${SOME_ID}`, need: 'UsersRead' },
  { method: 'PUT', path: `/users/${SOME_ID}`, json: { role: 'admin' }, need: 'UsersWrite' },
  { method: 'DELETE', path: `/users/${SOME_ID}`, need: 'UsersDelete' },
  { method: 'GET', path: '/admin/settings', need: 'SystemAdmin' },
  { method: 'GET', path: '/admin/settings/auth.registration_enabled', need: 'SystemAdmin' },
  { method: 'PUT', path: '/admin/settings/auth.registration_enabled', json: { value: true }, need: 'SystemAdmin' },
  {
    method: 'POST',
    path: '/admin/settings/bulk',
    json: { updates: [{ key: 'auth.registration_enabled', value: true }] },
    need: 'SystemAdmin',
  },
  { method: 'POST', path: '/admin/settings/auth.registration_enabled/reset', need: 'SystemAdmin' },
  { method: 'GET', path: '/admin/settings/auth.registration_enabled/history', need: 'SystemAdmin' },
];

const OWN_DATA_ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api-keys', need: 'ApiKeysRead' },
  { method: 'POST', path: '/api-keys', json: { name: 'k' }, need: 'ApiKeysWrite' },
  { method: 'GET', path: `/api-keys/${SOME_ID}`, need: 'ApiKeysRead' },
  { method: 'PUT', path: `/api-keys/${SOME_ID}`, json: { name: 'k' }, need: 'ApiKeysWrite' },
  { method: 'DELETE', path: `/api-keys/${SOME_ID}`, need: 'ApiKeysDelete' },
  { method: 'GET', path: '/user/preferences', need: '' },
  { method: 'PUT', path: '/user/preferences/theme', json: { value: 'dark' }, need: '' },
  { method: 'DELETE', path: '/user/preferences/theme', need: '' },
];

const call = (endpoint: Endpoint, auth?: Credentials) =>
  api(endpoint.path, { method: endpoint.method, json: endpoint.json, auth });

describe('401 without credentials (API.md §7)', () => {
  it('every endpoint of this area asks for credentials', async () => {
    await setupAdmin();
    for (const endpoint of [...ADMIN_ENDPOINTS, ...OWN_DATA_ENDPOINTS]) {
      const res = await call(endpoint);
      expectError(res, 401, 'Unauthorized');
      expect(res.headers.get('WWW-Authenticate')).toMatch(/Bearer/);
    }
  });

  it('a bad credential is 401, never a 403, even on an admin endpoint', async () => {
    await setupAdmin();
    const bad: Credentials[] = [
      { token: 'a.b.c' },
      { apiKey: `lbx_abcdefgh_${'x'.repeat(43)}` },
      { basic: { username: 'admin', password: 'wrong-password-1' } },
    ];
    for (const auth of bad) expectError(await api('/admin/settings', { auth }), 401, 'Unauthorized');
  });
});

describe('403 for callers without the permission (API.md §4 admin-only groups, §7)', () => {
  it('a reader and a maintainer are refused every admin endpoint, with the missing permission named', async () => {
    const admin = await setupAdmin();
    for (const role of ['reader', 'maintainer']) {
      const user = await createUser(admin.auth, { role });
      const session = await login(user.username, user.password);
      for (const endpoint of ADMIN_ENDPOINTS) {
        const error = expectError(await call(endpoint, session.auth), 403, 'Forbidden');
        expect(error.message).toContain(endpoint.need);
      }
    }
    // Nothing was changed by the refused calls.
    expect((await api('/users', { auth: admin.auth })).body.total).toBe(3);
    expect((await api('/setup/status')).body.registrationEnabled).toBe(false);
  });

  it('custom permissions open exactly the endpoints they name', async () => {
    const admin = await setupAdmin();
    const user = await createUser(admin.auth, { customPermissions: ['UsersRead'] });
    const session = await login(user.username, user.password);
    expect((await api('/users', { auth: session.auth })).status).toBe(200);
    expect((await api(`/users/${user.id}`, { auth: session.auth })).status).toBe(200);
    for (const endpoint of ADMIN_ENDPOINTS.filter((e) => e.need !== 'UsersRead')) {
      expectError(await call(endpoint, session.auth), 403, 'Forbidden');
    }
  });

  it('an admin’s key is limited to the permissions it carries', async () => {
    const admin = await setupAdmin();
    const key = await createApiKey(admin.auth, { name: 'read-only users', permissions: ['UsersRead'] });
    const auth = { apiKey: key.key };
    for (const endpoint of ADMIN_ENDPOINTS) {
      const res = await call(endpoint, auth);
      if (endpoint.need === 'UsersRead') expect(res.status).not.toBe(403);
      else expect(expectError(res, 403, 'Forbidden').message).toContain(endpoint.need);
    }
    for (const endpoint of OWN_DATA_ENDPOINTS.filter((e) => e.need !== '')) {
      expectError(await call(endpoint, auth), 403, 'Forbidden');
    }
  });
});
