/**
 * Whole-library work counts what restrictions hide (docs/DECISIONS.md §Enforcement), so it is refused with
 * a 403 that names no hidden item: a caller with content restrictions may not scan, empty the trash of,
 * delete or upload to a library, nor read tasks, task statistics or scan progress; a caller who does not
 * see every library may not create a library, browse the bucket, run a duplicate scan or read the
 * server-wide metrics. A library they do not see at all still answers 404. The catalog is
 * test/support/access-fixture.ts: its maintainer is content-restricted; an admin's key narrowed to one
 * library is library-narrowed without content restrictions.
 */
import { describe, expect, it } from 'vitest';
import { buildAccessFixture, tracesOf } from '../support/access-fixture';
import { createApiKey, login } from '../support/factories';
import { api, type ApiResponse, type Credentials } from '../support/http';

/** A 403 whose body names nothing the caller may not see. */
function expectRefused(response: ApiResponse, hidden: string[], what: string) {
  expect(response.status, `${what}: ${response.text}`).toBe(403);
  expect(
    hidden.filter((trace) => response.text.toLowerCase().includes(trace.toLowerCase())),
    what,
  ).toEqual([]);
}

describe('whole-library work and access', () => {
  it('a caller with content restrictions may not scan, empty the trash of, delete or upload to a library, nor read tasks or scan progress', async () => {
    const f = await buildAccessFixture();
    // The maintainer may delete libraries too, so only the restriction stands in the way.
    const granted = await api(`/users/${f.user.id}`, {
      method: 'PUT',
      auth: f.admin,
      json: { customPermissions: ['LibrariesDelete'] },
    });
    expect(granted.status).toBe(200);
    const user: Credentials = (await login(f.user.username, f.user.password)).auth;
    const hidden = [...tracesOf(f, ['xadult', 'xsecret', 'xbeta']), f.libraries.beta, 'Xbeta Library'];
    const alpha = f.libraries.alpha;

    const refused: Array<[string, string, unknown?]> = [
      ['POST', `/libraries/${alpha}/scan`],
      ['POST', `/libraries/${alpha}/empty-trash`],
      ['DELETE', `/libraries/${alpha}`],
      ['GET', '/tasks'],
      ['GET', '/tasks/stats'],
      ['GET', `/tasks/${f.gammaTaskId}`],
      ['GET', `/libraries/${alpha}/scan-status`],
      ['GET', '/scans/active'],
    ];
    for (const [method, path] of refused) {
      expectRefused(await api(path, { method, auth: user }), hidden, `${method} ${path}`);
    }
    const upload = await api(`/libraries/${alpha}/files/${encodeURIComponent('Zork New/Zork New 001.cbz')}`, {
      method: 'PUT',
      auth: user,
      body: new Uint8Array([80, 75, 3, 4]),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expectRefused(upload, hidden, 'upload');

    // A library they do not see at all is unknown to them: 404, not 403.
    for (const [method, path] of [
      ['POST', `/libraries/${f.libraries.beta}/scan`],
      ['POST', `/libraries/${f.libraries.beta}/empty-trash`],
      ['DELETE', `/libraries/${f.libraries.beta}`],
      ['GET', `/libraries/${f.libraries.beta}/scan-status`],
    ] as const) {
      expect((await api(path, { method, auth: user })).status, `${method} ${path}`).toBe(404);
    }

    // Nothing happened: the library is there, and the admin (no restriction) reads what the user may not.
    expect((await api(`/libraries/${alpha}`, { auth: f.admin })).status).toBe(200);
    expect((await api('/tasks', { auth: f.admin })).status).toBe(200);
    expect((await api('/tasks/stats', { auth: f.admin })).status).toBe(200);
    expect((await api(`/libraries/${alpha}/scan-status`, { auth: f.admin })).status).toBe(200);
  }, 120_000);

  it('a caller who does not see every library may not create a library, browse the bucket, run a duplicate scan or read the metrics', async () => {
    const f = await buildAccessFixture();
    const narrowed: Credentials = {
      apiKey: (await createApiKey(f.admin, { name: 'alpha only', library_ids: [f.libraries.alpha] })).key,
    };
    const hidden = [...tracesOf(f, ['xbeta', 'xgamma']), f.libraries.beta, f.libraries.gamma, 'Xbeta', 'Xgamma'];

    const refused: Array<[string, string, unknown?]> = [
      ['POST', '/libraries', { name: 'Delta', path: 'delta' }],
      ['GET', '/filesystem/browse'],
      ['GET', '/filesystem/browse?path=beta'],
      ['POST', '/duplicates/scan'],
      ['GET', '/metrics'],
    ];
    for (const [method, path, json] of refused) {
      expectRefused(await api(path, { method, auth: narrowed, json }), hidden, `${method} ${path}`);
    }
    // What the key sees entirely is its own: it may read that library's tasks and scan progress.
    expect((await api(`/libraries/${f.libraries.alpha}/scan-status`, { auth: narrowed })).status).toBe(200);
    expect((await api(`/libraries/${f.libraries.beta}/scan-status`, { auth: narrowed })).status).toBe(404);

    // The admin's full key may do each of them.
    const full: Credentials = { apiKey: (await createApiKey(f.admin, { name: 'full' })).key };
    expect((await api('/filesystem/browse', { auth: full })).status).toBe(200);
    expect((await api('/metrics', { auth: full })).status).toBe(200);
    expect((await api('/duplicates/scan', { method: 'POST', auth: full })).status).toBe(202);
    expect(
      (await api('/libraries', { method: 'POST', auth: full, json: { name: 'Delta', path: 'delta' } })).status,
    ).toBe(201);
  }, 120_000);
});
