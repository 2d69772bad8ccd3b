/** API.md §4 User preferences; DECISIONS.md §Names (camelCase records), §Errors. */
import { describe, expect, it } from 'vitest';
import { api, expectError } from '../support/http';
import { createApiKey, createUser, login, setupAdmin } from '../support/factories';

const DEFAULTS = {
  theme: 'system',
  language: 'en',
  'reader.direction_override': null,
  'reader.fit': 'width',
  'reader.double_page': false,
  'opds.pse_progress': true,
};

describe('user preferences (API.md §4 User preferences)', () => {
  it('lists every known key with its default, then the values you set', async () => {
    const admin = await setupAdmin();
    expect((await api('/user/preferences', { auth: admin.auth })).body).toEqual(DEFAULTS);

    const set = await api('/user/preferences/theme', { method: 'PUT', auth: admin.auth, json: { value: 'dark' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ key: 'theme', value: 'dark', isDefault: false, updatedAt: expect.any(String) });
    await api('/user/preferences/reader.direction_override', {
      method: 'PUT',
      auth: admin.auth,
      json: { value: 'rtl' },
    });
    await api('/user/preferences/reader.double_page', { method: 'PUT', auth: admin.auth, json: { value: true } });
    await api('/user/preferences/language', { method: 'PUT', auth: admin.auth, json: { value: 'pt-BR' } });

    expect((await api('/user/preferences', { auth: admin.auth })).body).toEqual({
      ...DEFAULTS,
      theme: 'dark',
      language: 'pt-BR',
      'reader.direction_override': 'rtl',
      'reader.double_page': true,
    });

    // Setting again overwrites; null is a real value for the direction override.
    const cleared = await api('/user/preferences/reader.direction_override', {
      method: 'PUT',
      auth: admin.auth,
      json: { value: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.value).toBeNull();
    expect((await api('/user/preferences', { auth: admin.auth })).body['reader.direction_override']).toBeNull();
  });

  it('DELETE resets a key to its default', async () => {
    const admin = await setupAdmin();
    await api('/user/preferences/reader.fit', { method: 'PUT', auth: admin.auth, json: { value: 'height' } });
    const reset = await api('/user/preferences/reader.fit', { method: 'DELETE', auth: admin.auth });
    expect(reset.status).toBe(204);
    expect((await api('/user/preferences', { auth: admin.auth })).body).toEqual(DEFAULTS);
    // Resetting a key that is already at its default is harmless.
    expect((await api('/user/preferences/reader.fit', { method: 'DELETE', auth: admin.auth })).status).toBe(204);
  });

  it('answers 404 for an unknown key and 400 for a value its schema rejects, storing nothing', async () => {
    const admin = await setupAdmin();
    for (const method of ['PUT', 'DELETE']) {
      const json = method === 'PUT' ? { value: 'x' } : undefined;
      const error = expectError(
        await api('/user/preferences/reader.wallpaper', { method, auth: admin.auth, json }),
        404,
        'NotFound',
      );
      expect(error.message).toContain('reader.wallpaper');
    }
    const bad: Array<[string, unknown]> = [
      ['theme', 'purple'],
      ['theme', 1],
      ['language', 'not a language'],
      ['reader.direction_override', 'diagonal'],
      ['reader.double_page', 'yes'],
      ['reader.fit', null],
    ];
    for (const [key, value] of bad) {
      const res = await api(`/user/preferences/${key}`, { method: 'PUT', auth: admin.auth, json: { value } });
      const error = expectError(res, 400, 'BadRequest');
      expect(error.details?.[0]?.path).toBe('value');
    }
    const missing = await api('/user/preferences/theme', { method: 'PUT', auth: admin.auth, json: {} });
    expect(expectError(missing, 400, 'BadRequest').details?.[0]?.path).toBe('value');
    const extra = await api('/user/preferences/theme', {
      method: 'PUT',
      auth: admin.auth,
      json: { value: 'dark', scope: 'global' },
    });
    expectError(extra, 400, 'BadRequest');
    expect((await api('/user/preferences', { auth: admin.auth })).body).toEqual(DEFAULTS);
  });

  it('each user has their own preferences, whether signed in by session, Basic or API key', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth);
    const session = await login(reader.username, reader.password);
    const key = await createApiKey(session.auth, { name: 'phone', permissions: ['BooksRead'] });

    await api('/user/preferences/theme', { method: 'PUT', auth: { apiKey: key.key }, json: { value: 'light' } });
    const basic = { basic: { username: reader.username, password: reader.password } };
    expect((await api('/user/preferences', { auth: basic })).body.theme).toBe('light');
    expect((await api('/user/preferences', { auth: admin.auth })).body.theme).toBe('system');
  });

  it('requires a signed-in caller', async () => {
    await setupAdmin();
    expectError(await api('/user/preferences'), 401, 'Unauthorized');
    expectError(await api('/user/preferences/theme', { method: 'PUT', json: { value: 'dark' } }), 401, 'Unauthorized');
    expectError(await api('/user/preferences/theme', { method: 'DELETE' }), 401, 'Unauthorized');
  });
});
