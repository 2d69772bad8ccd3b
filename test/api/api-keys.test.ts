/** API.md §2 API key, §4 API keys, §5 (methods 2 and 3, key rules 1–8); DECISIONS.md §Names, §Errors, §Roles. */
import { describe, expect, it } from 'vitest';
import { api, type Credentials, expectError } from '../support/http';
import { createApiKey, createUser, login, setupAdmin } from '../support/factories';

const READER_PERMISSIONS = [
  'LibrariesRead',
  'SeriesRead',
  'BooksRead',
  'PagesRead',
  'ApiKeysRead',
  'ApiKeysWrite',
  'ApiKeysDelete',
  'SystemHealth',
  'ProgressRead',
  'ProgressWrite',
  'CollectionsRead',
  'ReadListsRead',
];
const KEY_PATTERN = /^lbx_([a-z0-9]{8})_[A-Za-z0-9]{32,}$/;

async function signedInUser(role = 'reader', customPermissions: string[] = []) {
  const admin = await setupAdmin();
  const user = await createUser(admin.auth, { role, customPermissions });
  const session = await login(user.username, user.password);
  return { admin, user, auth: session.auth };
}

const sorted = (list: string[]) => [...list].sort();

async function effective(auth: Credentials): Promise<string[]> {
  const me = await api('/auth/me', { auth });
  if (me.status !== 200) throw new Error(`me failed: ${me.status} ${me.text}`);
  return me.body.effectivePermissions;
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('managing your keys (API.md §4 API keys; rules 1, 2, 6)', () => {
  it('creates a key whose secret appears only in the creation response', async () => {
    const { auth } = await signedInUser();
    const created = await api('/api-keys', { auth, json: { name: 'Tablet' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'key', 'key_prefix', 'library_ids', 'name', 'permissions'].sort(),
    );
    const match = KEY_PATTERN.exec(created.body.key);
    expect(match).not.toBeNull();
    expect(created.body.key_prefix).toBe(`lbx_${match?.[1]}`);
    expect(created.body).toMatchObject({ name: 'Tablet', expires_at: null, library_ids: null });
    expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Rule 6: no permissions asked for → the creator's full effective set.
    expect(sorted(created.body.permissions)).toEqual(sorted(READER_PERMISSIONS));

    const secret = created.body.key.split('_')[2];
    const list = await api('/api-keys', { auth });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(Object.keys(list.body[0]).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'key_prefix', 'last_used_at', 'library_ids', 'name', 'permissions'].sort(),
    );
    expect(list.body[0]).toMatchObject({ id: created.body.id, key_prefix: created.body.key_prefix });
    const one = await api(`/api-keys/${created.body.id}`, { auth });
    expect(one.body).toEqual(list.body[0]);
    for (const text of [list.text, one.text]) expect(text).not.toContain(secret);
  });

  it('lists only your own keys, newest first; another user’s key is 404 on every method', async () => {
    const { admin, auth } = await signedInUser();
    const first = await createApiKey(auth, { name: 'first' });
    const second = await createApiKey(auth, { name: 'second' });
    const adminKey = await createApiKey(admin.auth, { name: 'admin key' });
    expect((await api('/api-keys', { auth })).body.map((k: { name: string }) => k.name)).toEqual(['second', 'first']);
    expect((await api('/api-keys', { auth: admin.auth })).body.map((k: { id: string }) => k.id)).toEqual([adminKey.id]);

    for (const [method, json] of [
      ['GET', undefined],
      ['PUT', { name: 'mine now' }],
      ['DELETE', undefined],
    ] as const) {
      expectError(await api(`/api-keys/${adminKey.id}`, { method, auth, json }), 404, 'NotFound');
      expectError(await api('/api-keys/nope', { method, auth, json }), 400, 'BadRequest');
    }
    expect((await api('/auth/me', { auth: { apiKey: adminKey.key } })).status).toBe(200);
    expect(second.id).not.toBe(first.id);
  });

  it('validates the body: name required, known permissions, a future expires_at (either spelling)', async () => {
    const { auth } = await signedInUser();
    const cases: Array<[unknown, string]> = [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'k', permissions: ['FlyToTheMoon'] }, 'permissions.0'],
      [{ name: 'k', permissions: [] }, 'permissions'],
      [{ name: 'k', expires_at: 'tomorrow' }, 'expires_at'],
      [{ name: 'k', expires_at: '2001-01-01T00:00:00.000Z' }, 'expires_at'],
      [{ name: 'k', key: 'lbx_aaaaaaaa_chosen' }, '(root)'],
    ];
    for (const [json, path] of cases) {
      const error = expectError(await api('/api-keys', { auth, json }), 400, 'BadRequest');
      expect(error.details?.[0]?.path).toBe(path);
    }
    expect((await api('/api-keys', { auth })).body).toEqual([]);

    const future = new Date(Date.now() + 86_400_000).toISOString();
    const twin = await api('/api-keys', { auth, json: { name: 'k', expiresAt: future, permissions: ['BooksRead'] } });
    expect(twin.status).toBe(201);
    expect(twin.body).toMatchObject({ expires_at: future, permissions: ['BooksRead'] });
  });

  it('updates name, permissions and expiry; a key can be made to never expire again', async () => {
    const { auth } = await signedInUser();
    const key = await createApiKey(auth, { name: 'old', expires_at: new Date(Date.now() + 60_000).toISOString() });
    const renamed = await api(`/api-keys/${key.id}`, {
      method: 'PUT',
      auth,
      json: { name: 'new', permissions: ['PagesRead', 'BooksRead'], expires_at: null },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'new', permissions: ['BooksRead', 'PagesRead'], expires_at: null });
    expect(renamed.body).not.toHaveProperty('key');
    expect(sorted(await effective({ apiKey: key.key }))).toEqual(['BooksRead', 'PagesRead']);

    const past = await api(`/api-keys/${key.id}`, {
      method: 'PUT',
      auth,
      json: { expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(expectError(past, 400, 'BadRequest').details?.[0]?.path).toBe('expires_at');
  });
});

describe('authenticating with a key (API.md §5 methods 2 and 3)', () => {
  it('accepts X-API-Key, Authorization: Bearer and Basic api:<key>', async () => {
    const { auth } = await signedInUser();
    const key = await createApiKey(auth, { name: 'reader app' });
    for (const via of ['x-api-key', 'bearer', 'basic'] as const) {
      const me = await api('/auth/me', { auth: { apiKey: key.key, via } });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ authMethod: 'api_key', apiKey: { id: key.id, name: 'reader app' } });
    }
  });

  it('rule 3: a malformed key is 401 "Invalid API key format"; a well-formed unknown key gets its own message', async () => {
    const { auth } = await signedInUser();
    const key = await createApiKey(auth);
    const [, prefix] = KEY_PATTERN.exec(key.key) ?? [];
    const malformed: Array<Record<string, string>> = [
      { 'X-API-Key': 'not-a-key' },
      { 'X-API-Key': `lbx_${prefix}` },
      { 'X-API-Key': key.key.replace('lbx_', 'xyz_') },
      { 'X-API-Key': `lbx_ABCDEFGH_${key.key.split('_')[2]}` },
      { 'X-API-Key': `${key.key}!` },
      { Authorization: `Bearer lbx_${prefix}_short` },
      { Authorization: `Basic ${btoa('api:garbage')}` },
    ];
    for (const headers of malformed) {
      const res = await api('/auth/me', { headers });
      expect(expectError(res, 401, 'Unauthorized').message).toBe('Invalid API key format');
    }
    const wrongSecret = `lbx_${prefix}_${'A'.repeat(43)}`;
    const unknown = `lbx_zzzzzzzz_${'B'.repeat(43)}`;
    for (const candidate of [wrongSecret, unknown]) {
      const error = expectError(await api('/auth/me', { auth: { apiKey: candidate } }), 401, 'Unauthorized');
      expect(error.message).not.toBe('Invalid API key format');
    }
  });
});

describe('what a key may do (API.md §5 rules 4, 5, 6)', () => {
  it('rule 4: effective = (role ∪ custom) ∩ key, re-evaluated when the owner’s grant changes', async () => {
    const { admin, user, auth } = await signedInUser('reader', ['UsersRead']);
    const key = await createApiKey(auth, { name: 'all of it' });
    expect(key.permissions).toContain('UsersRead');
    const viaKey = { apiKey: key.key };
    expect((await api('/users', { auth: viaKey })).status).toBe(200);

    await api(`/users/${user.id}`, { method: 'PUT', auth: admin.auth, json: { customPermissions: [] } });
    expectError(await api('/users', { auth: viaKey }), 403, 'Forbidden');

    // Promoting the owner to admin gives the key back only what it carries: UsersRead, not SystemAdmin.
    await api(`/users/${user.id}`, { method: 'PUT', auth: admin.auth, json: { role: 'admin' } });
    expect((await api('/users', { auth: viaKey })).status).toBe(200);
    expectError(await api('/admin/settings', { auth: viaKey }), 403, 'Forbidden');
  });

  it('rule 4: demoting a maintainer to reader shrinks their keys at once', async () => {
    const { admin, user, auth } = await signedInUser('maintainer');
    const key = await createApiKey(auth);
    expect(key.permissions).toEqual(expect.arrayContaining(['TasksRead', 'LibrariesWrite', 'BooksDelete']));
    expect(await effective({ apiKey: key.key })).toContain('TasksRead');

    await api(`/users/${user.id}`, { method: 'PUT', auth: admin.auth, json: { role: 'reader' } });
    expect(sorted(await effective({ apiKey: key.key }))).toEqual(sorted(READER_PERMISSIONS));
    // The stored grant is unchanged: restoring the role restores the key.
    expect((await api(`/api-keys/${key.id}`, { auth })).body.permissions).toContain('TasksRead');
  });

  it('rule 5: a maintainer cannot create or widen a key with UsersRead (403 naming it)', async () => {
    const { auth } = await signedInUser('maintainer');
    const denied = expectError(
      await api('/api-keys', { auth, json: { name: 'k', permissions: ['BooksRead', 'UsersRead', 'SystemAdmin'] } }),
      403,
      'Forbidden',
    );
    expect(denied.message).toContain('UsersRead');
    expect(denied.message).toContain('SystemAdmin');
    expect(denied.message).not.toContain('BooksRead');
    expect((await api('/api-keys', { auth })).body).toEqual([]);

    const key = await createApiKey(auth, { name: 'k', permissions: ['BooksRead'] });
    const widen = await api(`/api-keys/${key.id}`, { method: 'PUT', auth, json: { permissions: ['UsersDelete'] } });
    expect(expectError(widen, 403, 'Forbidden').message).toContain('UsersDelete');
    expect((await api(`/api-keys/${key.id}`, { auth })).body.permissions).toEqual(['BooksRead']);
  });

  it('rules 5 and 6 hold for a key minting a key: it is bounded by the calling key', async () => {
    const { auth } = await signedInUser();
    const parent = await createApiKey(auth, { name: 'parent', permissions: ['ApiKeysWrite', 'BooksRead'] });
    const child = await api('/api-keys', { auth: { apiKey: parent.key }, json: { name: 'child' } });
    expect(child.status).toBe(201);
    expect(sorted(child.body.permissions)).toEqual(['ApiKeysWrite', 'BooksRead']);
    const wider = await api('/api-keys', {
      auth: { apiKey: parent.key },
      json: { name: 'wider', permissions: ['LibrariesRead'] },
    });
    expect(expectError(wider, 403, 'Forbidden').message).toContain('LibrariesRead');
    // Listing needs ApiKeysRead, which the parent key does not carry.
    expectError(await api('/api-keys', { auth: { apiKey: parent.key } }), 403, 'Forbidden');
  });

  it('an admin’s key with no permissions named holds every permission, SystemAdmin included', async () => {
    const admin = await setupAdmin();
    const key = await createApiKey(admin.auth);
    expect(key.permissions).toHaveLength(28);
    expect((await api('/admin/settings', { auth: { apiKey: key.key } })).status).toBe(200);
  });
});

describe('expiry, revocation and last use (API.md §5 rules 7, 8)', () => {
  it('rule 7: a key past its expires_at is rejected', async () => {
    const { auth } = await signedInUser();
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const key = await createApiKey(auth, { name: 'short-lived', expires_at: expiresAt });
    expect(key).toMatchObject({ expires_at: expiresAt });
    expect((await api('/auth/me', { auth: { apiKey: key.key } })).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 50));
    const error = expectError(await api('/auth/me', { auth: { apiKey: key.key } }), 401, 'Unauthorized');
    expect(error.message).toMatch(/expired/i);
    // The owner still sees it, so it can be extended.
    const extended = await api(`/api-keys/${key.id}`, {
      method: 'PUT',
      auth,
      json: { expires_at: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(extended.status).toBe(200);
    expect((await api('/auth/me', { auth: { apiKey: key.key } })).status).toBe(200);
  });

  it('rule 7: a revoked key is invalid at once, by every method', async () => {
    const { auth } = await signedInUser();
    const key = await createApiKey(auth);
    expect((await api('/auth/me', { auth: { apiKey: key.key } })).status).toBe(200);
    const revoked = await api(`/api-keys/${key.id}`, { method: 'DELETE', auth });
    expect(revoked.status).toBe(204);
    for (const via of ['x-api-key', 'bearer', 'basic'] as const) {
      expectError(await api('/auth/me', { auth: { apiKey: key.key, via } }), 401, 'Unauthorized');
    }
    expectError(await api(`/api-keys/${key.id}`, { auth }), 404, 'NotFound');
    expectError(await api(`/api-keys/${key.id}`, { method: 'DELETE', auth }), 404, 'NotFound');
  });

  it('rule 8: last_used_at is recorded after a use, and not rewritten on every request', async () => {
    const { auth } = await signedInUser();
    const key = await createApiKey(auth);
    const lastUsed = async () => (await api(`/api-keys/${key.id}`, { auth })).body.last_used_at as string | null;
    expect(await lastUsed()).toBeNull();

    const before = Date.now();
    expect((await api('/auth/me', { auth: { apiKey: key.key } })).status).toBe(200);
    const first = await poll(lastUsed, (value) => value !== null);
    expect(first).not.toBeNull();
    expect(Date.parse(first as string)).toBeGreaterThanOrEqual(before - 1000);
    expect((await api('/api-keys', { auth })).body[0].last_used_at).toBe(first);

    expect((await api('/auth/me', { auth: { apiKey: key.key } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await lastUsed()).toBe(first);
  });
});
