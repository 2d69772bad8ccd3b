/** API.md §4 Settings (admin only); DECISIONS.md §Lists (bulk body, all or nothing), §Auth (registration switch). */
import { describe, expect, it } from 'vitest';
import { api, type Credentials, expectError } from '../support/http';
import { ADMIN, setupAdmin } from '../support/factories';

const KEYS = [
  'auth.registration_enabled',
  'auth.email_verification_required',
  'auth.session_lifetime_hours',
  'auth.default_role',
  'stats.retention_days',
  'thumbnails.max_size',
];

const put = (auth: Credentials, key: string, json: unknown) =>
  api(`/admin/settings/${key}`, { method: 'PUT', auth, json });

describe('reading settings (API.md §4 Settings)', () => {
  it('lists every setting with its default; reads one; unknown keys are 404', async () => {
    const admin = await setupAdmin();
    const list = await api('/admin/settings', { auth: admin.auth });
    expect(list.status).toBe(200);
    // Other features add their own keys; these are the ones every server has.
    expect(list.body.map((s: { key: string }) => s.key)).toEqual(expect.arrayContaining(KEYS));
    expect(list.body.find((s: { key: string }) => s.key === 'auth.session_lifetime_hours')).toEqual({
      key: 'auth.session_lifetime_hours',
      value: 24,
      defaultValue: 24,
      isDefault: true,
      description: expect.any(String),
      input: { type: 'integer', minimum: 1, maximum: 8760 },
      updatedAt: null,
      updatedBy: null,
    });
    // Each setting says how its value is chosen (issue 31 point 11: a control, not JSON text).
    const inputOf = (key: string) => list.body.find((s: { key: string }) => s.key === key).input;
    expect(inputOf('auth.registration_enabled')).toEqual({ type: 'boolean' });
    expect(inputOf('thumbnails.max_size')).toEqual({ type: 'integer', minimum: 100, maximum: 2000 });

    const one = await api('/admin/settings/auth.default_role', { auth: admin.auth });
    expect(one.body).toMatchObject({
      key: 'auth.default_role',
      value: 'reader',
      isDefault: true,
      input: { type: 'choice', choices: ['reader', 'maintainer'] },
    });
    const error = expectError(await api('/admin/settings/no.such_key', { auth: admin.auth }), 404, 'NotFound');
    expect(error.message).toContain('no.such_key');
  });
});

describe('changing settings (API.md §4 Settings)', () => {
  it('PUT changes a value, records who changed it, and the server obeys it at once', async () => {
    const admin = await setupAdmin();
    const res = await put(admin.auth, 'auth.registration_enabled', { value: true, changeReason: 'open beta' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ value: true, isDefault: false, updatedBy: admin.userId });
    expect(res.body.updatedAt).toMatch(/\.\d{3}Z$/);
    expect((await api('/setup/status')).body.registrationEnabled).toBe(true);

    await put(admin.auth, 'auth.session_lifetime_hours', { value: 2 });
    const login = await api('/auth/login', { json: { username: ADMIN.username, password: ADMIN.password } });
    expect(login.body.expires_in).toBe(7200);
  });

  it('rejects an invalid value with 400 and details, and an unknown key with 404, changing nothing', async () => {
    const admin = await setupAdmin();
    const invalid: Array<[string, unknown]> = [
      ['auth.session_lifetime_hours', 0],
      ['auth.session_lifetime_hours', '24 hours'], // "24" converts (DECISIONS.md §Settings and preferences)
      ['auth.default_role', 'admin'],
      ['thumbnails.max_size', 10_000],
      ['auth.registration_enabled', 'yes'],
    ];
    for (const [key, value] of invalid) {
      const error = expectError(await put(admin.auth, key, { value }), 400, 'BadRequest');
      expect(error.details?.length).toBeGreaterThan(0);
    }
    expectError(await put(admin.auth, 'auth.registration_enabled', {}), 400, 'BadRequest');
    expectError(await put(admin.auth, 'no.such_key', { value: 1 }), 404, 'NotFound');
    const list = await api('/admin/settings', { auth: admin.auth });
    expect(list.body.every((s: { isDefault: boolean }) => s.isDefault)).toBe(true);
    const history = await api('/admin/settings/auth.session_lifetime_hours/history', { auth: admin.auth });
    expect(history.body.total).toBe(0);
  });

  it('reset puts the default back and is recorded in the history', async () => {
    const admin = await setupAdmin();
    await put(admin.auth, 'thumbnails.max_size', { value: 800 });
    const reset = await api('/admin/settings/thumbnails.max_size/reset', { method: 'POST', auth: admin.auth });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ value: 400, isDefault: true });
    expect((await api('/admin/settings/thumbnails.max_size', { auth: admin.auth })).body.value).toBe(400);
    const history = await api('/admin/settings/thumbnails.max_size/history', { auth: admin.auth });
    expect(history.body.data[0]).toMatchObject({ oldValue: 800, newValue: 400, changeReason: 'reset' });
    expectError(await api('/admin/settings/nope/reset', { method: 'POST', auth: admin.auth }), 404, 'NotFound');
  });
});

describe('bulk update (DECISIONS.md §Lists: all or nothing)', () => {
  it('applies every update together', async () => {
    const admin = await setupAdmin();
    const res = await api('/admin/settings/bulk', {
      auth: admin.auth,
      json: {
        updates: [
          { key: 'auth.registration_enabled', value: true },
          { key: 'auth.default_role', value: 'maintainer' },
        ],
        change_reason: 'migration',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.map((s: { key: string; value: unknown }) => [s.key, s.value])).toEqual([
      ['auth.registration_enabled', true],
      ['auth.default_role', 'maintainer'],
    ]);
    const history = await api('/admin/settings/auth.default_role/history', { auth: admin.auth });
    expect(history.body.data[0]).toMatchObject({ newValue: 'maintainer', changeReason: 'migration' });
  });

  it('changes nothing when one value is invalid (400) or one key is unknown (404)', async () => {
    const admin = await setupAdmin();
    const invalid = await api('/admin/settings/bulk', {
      auth: admin.auth,
      json: {
        updates: [
          { key: 'auth.registration_enabled', value: true },
          { key: 'auth.session_lifetime_hours', value: -1 },
        ],
      },
    });
    expect(expectError(invalid, 400, 'BadRequest').message).toContain('auth.session_lifetime_hours');
    const unknown = await api('/admin/settings/bulk', {
      auth: admin.auth,
      json: {
        updates: [
          { key: 'auth.registration_enabled', value: true },
          { key: 'auth.make_coffee', value: true },
        ],
      },
    });
    expect(expectError(unknown, 404, 'NotFound').message).toContain('auth.make_coffee');
    const duplicate = await api('/admin/settings/bulk', {
      auth: admin.auth,
      json: {
        updates: [
          { key: 'auth.registration_enabled', value: true },
          { key: 'auth.registration_enabled', value: false },
        ],
      },
    });
    expectError(duplicate, 400, 'BadRequest');
    expectError(await api('/admin/settings/bulk', { auth: admin.auth, json: { updates: [] } }), 400, 'BadRequest');

    expect((await api('/setup/status')).body.registrationEnabled).toBe(false);
    const history = await api('/admin/settings/auth.registration_enabled/history', { auth: admin.auth });
    expect(history.body.total).toBe(0);
  });
});

describe('setting history (API.md §4 Settings; §2 Paginated envelope)', () => {
  it('pages through changes newest first', async () => {
    const admin = await setupAdmin();
    for (const value of [10, 11, 12]) {
      await put(admin.auth, 'auth.session_lifetime_hours', { value, changeReason: `to ${value}` });
    }
    const base = '/api/v1/admin/settings/auth.session_lifetime_hours/history';
    const first = await api('/admin/settings/auth.session_lifetime_hours/history?pageSize=2', { auth: admin.auth });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, total: 3, totalPages: 2 });
    expect(first.body.data).toEqual([
      {
        id: expect.any(String),
        key: 'auth.session_lifetime_hours',
        oldValue: 11,
        newValue: 12,
        changedBy: admin.userId,
        changeReason: 'to 12',
        changedAt: expect.any(String),
      },
      expect.objectContaining({ oldValue: 10, newValue: 11 }),
    ]);
    expect(first.body.links).toEqual({
      self: `${base}?pageSize=2&page=1`,
      first: `${base}?pageSize=2&page=1`,
      last: `${base}?pageSize=2&page=2`,
      prev: null,
      next: `${base}?pageSize=2&page=2`,
    });
    const second = await api('/admin/settings/auth.session_lifetime_hours/history?page=2&page_size=2', {
      auth: admin.auth,
    });
    expect(second.body.data).toEqual([expect.objectContaining({ oldValue: 24, newValue: 10 })]);
    expect(second.body.links.next).toBeNull();
    expectError(await api('/admin/settings/nope/history', { auth: admin.auth }), 404, 'NotFound');
  });
});

describe('string values as Codex clients send them (DECISIONS.md §Settings and preferences)', () => {
  it('converts "true", "25" and "0.5"-style strings to the setting type and answers the typed value', async () => {
    const admin = await setupAdmin();
    const enabled = await put(admin.auth, 'auth.registration_enabled', { value: 'true' });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ key: 'auth.registration_enabled', value: true, isDefault: false });
    expect((await api('/setup/status')).body.registrationEnabled).toBe(true);
    expect((await put(admin.auth, 'thumbnails.max_size', { value: ' 600 ' })).body.value).toBe(600);
    expect((await api('/admin/settings/thumbnails.max_size', { auth: admin.auth })).body.value).toBe(600);
    // Back to the default through its string form: nothing stored.
    const off = await put(admin.auth, 'auth.registration_enabled', { value: 'FALSE' });
    expect(off.body).toMatchObject({ value: false, isDefault: true });
    // A string setting keeps the string it was given.
    expect((await put(admin.auth, 'auth.default_role', { value: 'maintainer' })).body.value).toBe('maintainer');

    const bulk = await api('/admin/settings/bulk', {
      auth: admin.auth,
      json: {
        updates: [
          { key: 'auth.email_verification_required', value: 'true' },
          { key: 'auth.session_lifetime_hours', value: '48' },
        ],
      },
    });
    expect(bulk.body.map((s: { value: unknown }) => s.value)).toEqual([true, 48]);
  });

  it('rejects strings that do not convert with 400, changing nothing (bulk included)', async () => {
    const admin = await setupAdmin();
    for (const [key, value] of [
      ['auth.registration_enabled', 'yes'],
      ['auth.registration_enabled', '1'],
      ['auth.session_lifetime_hours', '0.5'],
      ['auth.session_lifetime_hours', 'twelve'],
      ['thumbnails.max_size', ''],
      ['auth.default_role', 'true'],
    ] as const) {
      const error = expectError(await put(admin.auth, key, { value }), 400, 'BadRequest');
      expect(error.message, `${key}=${value}`).toContain(key);
    }
    const bulk = await api('/admin/settings/bulk', {
      auth: admin.auth,
      json: {
        updates: [
          { key: 'auth.registration_enabled', value: 'true' },
          { key: 'thumbnails.max_size', value: 'huge' },
        ],
      },
    });
    expectError(bulk, 400, 'BadRequest');
    const listed = await api('/admin/settings', { auth: admin.auth });
    expect(listed.body.every((s: { isDefault: boolean }) => s.isDefault)).toBe(true);
    expect((await api('/setup/status')).body.registrationEnabled).toBe(false);
  });
});
