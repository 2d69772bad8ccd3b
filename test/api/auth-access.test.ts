/** API.md §7 (missing or invalid credential → 401, lacking permission → 403); DECISIONS.md §Roles and permissions. */
import { describe, expect, it } from 'vitest';
import { createApiKey, createUser, login, setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';

const ADMIN_ONLY = ['/users', '/admin/settings'];

describe('401: no usable credential (API.md §7)', () => {
  it('asks for credentials on every protected endpoint when none are sent', async () => {
    await setupAdmin();
    for (const path of ['/auth/me', ...ADMIN_ONLY]) {
      const res = await api(path);
      expect(expectError(res, 401, 'Unauthorized').message).toMatch(/authentication required/i);
      expect(res.headers.get('WWW-Authenticate')).toMatch(/^Basic realm="Longbox".*, Bearer realm="Longbox"$/);
    }
  });

  it('refuses an unsupported authorization scheme, naming it', async () => {
    await setupAdmin();
    for (const header of ['Digest username="admin"', 'Token abc', 'Negotiate', 'bearer-ish']) {
      const res = await api('/auth/me', { headers: { Authorization: header } });
      expect(expectError(res, 401, 'Unauthorized').message).toMatch(/unsupported authorization scheme/i);
      expect(res.headers.get('WWW-Authenticate')).not.toBeNull();
    }
  });

  it('checks the credential before the permission: a bad credential on an admin endpoint is 401, not 403', async () => {
    await setupAdmin();
    expectError(await api('/users', { auth: { token: 'garbled' } }), 401, 'Unauthorized');
    expectError(await api('/users', { auth: { apiKey: 'not-a-key' } }), 401, 'Unauthorized');
    expectError(
      await api('/users', { auth: { basic: { username: 'admin', password: 'wrong-one-1' } } }),
      401,
      'Unauthorized',
    );
  });
});

describe('403: signed in, but not allowed (API.md §7, DECISIONS.md §Roles and permissions)', () => {
  it('refuses a reader on admin-only endpoints with every credential kind, without a challenge', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth, { role: 'reader' });
    const session = await login(reader.username, reader.password);
    const key = await createApiKey(session.auth, { name: 'reader key' });
    const credentials = [
      session.auth,
      { apiKey: key.key },
      { apiKey: key.key, via: 'bearer' as const },
      { apiKey: key.key, via: 'basic' as const },
      { basic: { username: reader.username, password: reader.password } },
    ];
    for (const auth of credentials) {
      for (const path of ADMIN_ONLY) {
        const res = await api(path, { auth });
        expect(expectError(res, 403, 'Forbidden').message).toMatch(/missing permission/i);
        expect(res.headers.get('WWW-Authenticate')).toBeNull();
      }
      // The same credential is fine where the reader belongs.
      expect((await api('/auth/me', { auth })).status).toBe(200);
    }
    // The admin passes the same checks.
    for (const path of ADMIN_ONLY) expect((await api(path, { auth: admin.auth })).status).toBe(200);
  });

  it('limits an admin’s API key to the permissions it was given', async () => {
    const admin = await setupAdmin();
    const key = await createApiKey(admin.auth, { name: 'narrow', permissions: ['BooksRead'] });
    expectError(await api('/users', { auth: { apiKey: key.key } }), 403, 'Forbidden');
    expect((await api('/users', { auth: admin.auth })).status).toBe(200);
  });
});
