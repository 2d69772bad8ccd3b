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
  'stats.recording': true,
  'kobo.shelves': null,
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

  it('answers 400 for a malformed key and for a value its schema rejects, storing nothing', async () => {
    const admin = await setupAdmin();
    for (const key of ['ui..theme', '.ui', 'ui.', 'ui-theme', 'ui%20theme', 'ü', 'a'.repeat(256)]) {
      for (const method of ['PUT', 'DELETE']) {
        const json = method === 'PUT' ? { value: 'x' } : undefined;
        const res = await api(`/user/preferences/${key}`, { method, auth: admin.auth, json });
        expect(expectError(res, 400, 'BadRequest').details?.[0]?.path, `${method} ${key}`).toBe('key');
      }
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

describe('preferences as Codex clients write them (DECISIONS.md §Settings and preferences)', () => {
  it('stores any JSON under a free-form dotted key, lists it, and deletes it', async () => {
    const admin = await setupAdmin();
    const layout = { columns: 4, sort: ['title', 'asc'], nested: { on: true, ratio: 0.5, none: null } };
    const set = await api('/user/preferences/ui.theme', { method: 'PUT', auth: admin.auth, json: { value: 'dark' } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ key: 'ui.theme', value: 'dark', isDefault: false, updatedAt: expect.any(String) });
    await api('/user/preferences/browser.layout_v2', { method: 'PUT', auth: admin.auth, json: { value: layout } });
    const long = `${'k'.repeat(200)}.${'v'.repeat(54)}`;
    expect(long).toHaveLength(255);
    expect(
      (await api(`/user/preferences/${long}`, { method: 'PUT', auth: admin.auth, json: { value: [1, '2'] } })).status,
    ).toBe(200);
    // Free-form values are kept as sent, strings included.
    await api('/user/preferences/ui.flag', { method: 'PUT', auth: admin.auth, json: { value: 'true' } });

    const listed = await api('/user/preferences', { auth: admin.auth });
    expect(listed.body).toEqual({
      ...DEFAULTS,
      'browser.layout_v2': layout,
      'ui.flag': 'true',
      'ui.theme': 'dark',
      [long]: [1, '2'],
    });
    expect((await api('/user/preferences/ui.theme', { method: 'DELETE', auth: admin.auth })).status).toBe(204);
    expect((await api('/user/preferences', { auth: admin.auth })).body['ui.theme']).toBeUndefined();
    // Deleting a key that was never stored is harmless.
    expect((await api('/user/preferences/ui.never_set', { method: 'DELETE', auth: admin.auth })).status).toBe(204);
  });

  it('converts string forms for documented keys and refuses values over 16 KiB', async () => {
    const admin = await setupAdmin();
    const double = await api('/user/preferences/reader.double_page', {
      method: 'PUT',
      auth: admin.auth,
      json: { value: 'true' },
    });
    expect(double.body.value).toBe(true);
    const direction = await api('/user/preferences/reader.direction_override', {
      method: 'PUT',
      auth: admin.auth,
      json: { value: 'null' },
    });
    expect(direction.body.value).toBeNull();

    const big = 'x'.repeat(16 * 1024); // 16 KiB of characters is more than 16 KiB of JSON with its quotes
    const tooBig = await api('/user/preferences/ui.blob', { method: 'PUT', auth: admin.auth, json: { value: big } });
    expect(expectError(tooBig, 400, 'BadRequest').details?.[0]?.path).toBe('value');
    const fits = await api('/user/preferences/ui.blob', {
      method: 'PUT',
      auth: admin.auth,
      json: { value: big.slice(2) },
    });
    expect(fits.status).toBe(200);
    const listed = await api('/user/preferences', { auth: admin.auth });
    expect(listed.body['reader.double_page']).toBe(true);
    expect(listed.body['ui.blob']).toBe(big.slice(2));
  });
});
