/**
 * KOReader sync (DECISIONS.md §Reader apps; issue 9 point 4): requests exactly as KOReader's kosync
 * plugin sends them (KOSyncClient.lua: `accept: application/vnd.koreader.v1+json`, `x-auth-user`,
 * `x-auth-key` = md5 of the password field), the reference server's status codes and bodies, and the
 * progress shared with GET /api/v1/books/{id}/progress (API.md §4), attributed to the API key (API.md §2).
 */
import { SELF } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { readProgress } from '../../src/db/schema';
import { db } from '../support/catalog-factory';
import { buildEpub } from '../fixtures/epub-writer';
import { createApiKey, createUser, setupAdmin } from '../support/factories';
import { api } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const BASE = 'http://longbox.test/koreader';
const XPOINTER = '/body/DocFragment[2]/body/p[1]/text().17';

async function seed() {
  const { auth: admin } = await setupAdmin();
  const libraryId = await createLibrary(admin);
  await putObject('comics/Saga/Saga 001.cbz', await makeCbz(5, { Series: 'Saga', Number: '1' }));
  await putObject(
    'comics/Novels/Dune.epub',
    buildEpub({
      spine: [
        { kind: 'text', bytes: 4000 },
        { kind: 'text', bytes: 4000 },
      ],
      metadataXml: '<dc:title>Dune</dc:title>',
    }),
  );
  const done = await scan(admin, libraryId);
  await waitForTasks(admin, libraryId, { since: done.completedAt ?? '' });
  const listed = await api(`/books?library_id=${libraryId}`, { auth: admin });
  const books = Object.fromEntries(listed.body.data.map((b: any) => [b.title, b]));
  const user = await createUser(admin, { role: 'reader' });
  const kindle = await createApiKey(
    { basic: user },
    { name: 'Kobo Libra', permissions: ['ProgressRead', 'ProgressWrite'] },
  );
  const phone = await createApiKey(
    { basic: user },
    { name: 'Android phone', permissions: ['ProgressRead', 'ProgressWrite'] },
  );
  return { admin, user, books, keys: { kobo: kindle.key, phone: phone.key }, keyIds: { kobo: kindle.id } };
}

/** KOReader's request: its headers, md5(password) as x-auth-key (the password field is free here). */
async function koreader(
  method: string,
  path: string,
  key: string | null,
  body?: unknown,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { accept: 'application/vnd.koreader.v1+json', ...extra };
  if (key !== null) {
    headers['x-auth-user'] = key;
    headers['x-auth-key'] = '5f4dcc3b5aa765d61d8327deb882cf99';
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await SELF.fetch(`${BASE}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('Content-Type'), body: text ? JSON.parse(text) : null };
}

describe('KOReader sync round trip (DECISIONS.md §Reader apps)', () => {
  it('push on one device, pull on another, see it in the API, and the reverse (comic by page)', async () => {
    const { books, keys, keyIds, user } = await seed();
    const book = books['Saga 001'];
    expect(book.readerHash).toMatch(/^[0-9a-f]{32}$/);
    const auth = await koreader('GET', '/users/auth', keys.kobo);
    expect(auth).toEqual({ status: 200, type: 'application/json', body: { authorized: 'OK' } });

    // Hashes are compared case-insensitively (Kavita-style clients send uppercase).
    const pushed = await koreader('PUT', '/syncs/progress', keys.kobo, {
      document: book.readerHash.toUpperCase(),
      progress: '3',
      percentage: 0.6,
      device: 'Kobo Libra 2',
      device_id: 'A1B2C3',
    });
    expect(pushed.status).toBe(200);
    expect(pushed.type).toBe('application/json');
    expect(pushed.body.document).toBe(book.readerHash.toUpperCase());
    expect(Math.abs(pushed.body.timestamp - Date.now() / 1000)).toBeLessThan(60);

    const pulled = await koreader('GET', `/syncs/progress/${book.readerHash}`, keys.phone);
    expect(pulled.status).toBe(200);
    expect(pulled.type).toBe('application/json');
    // The device and its id come back as pushed: KOReader recognises its own progress by them.
    expect(pulled.body).toEqual({
      document: book.readerHash,
      progress: '3',
      percentage: 0.6,
      device: 'Kobo Libra 2',
      device_id: 'A1B2C3',
      timestamp: pushed.body.timestamp,
    });
    // Longbox's own attribution (API.md §2: the API key) is kept beside them.
    const row = await db.select().from(readProgress).where(eq(readProgress.bookId, book.id)).get();
    expect(row).toMatchObject({ deviceId: `api-key:${keyIds.kobo}`, deviceName: 'Kobo Libra' });

    const progress = await api(`/books/${book.id}/progress`, { auth: { basic: user } });
    expect(progress.body).toMatchObject({ currentPage: 3, completed: false, progressPercentage: 0.6 });

    await api(`/books/${book.id}/progress`, {
      method: 'PUT',
      auth: { basic: user },
      json: { current_page: 5, is_completed: true },
    });
    // Written elsewhere: the device is the API's attribution, so KOReader sees another device's progress.
    const back = await koreader('GET', `/syncs/progress/${book.readerHash}`, keys.kobo);
    expect(back.body).toMatchObject({ progress: '5', percentage: 1 });
    expect(back.body.device_id).not.toBe('A1B2C3');
    expect(back.body.device_id).toMatch(/^ua:[0-9a-f]{16}$/);
  });

  it('an EPUB xpointer is stored as sent, returned to the next device and shown as the API locator', async () => {
    const { books, keys, user } = await seed();
    const dune = books.Dune;
    const pushed = await koreader('PUT', '/syncs/progress', keys.kobo, {
      document: dune.readerHash,
      progress: XPOINTER,
      percentage: 0.42,
      device: 'Kobo Libra 2',
      device_id: 'A1B2C3',
    });
    expect(pushed.status).toBe(200);
    const pulled = await koreader('GET', `/syncs/progress/${dune.readerHash}`, keys.phone);
    expect(pulled.body).toMatchObject({ progress: XPOINTER, percentage: 0.42 });
    const progress = await api(`/books/${dune.id}/progress`, { auth: { basic: user } });
    expect(progress.body).toMatchObject({ locator: XPOINTER, progressPercentage: 0.42, completed: false });
  });

  it('no progress or an unknown document → 200 {} (reference server); registration → 403; healthcheck', async () => {
    const { books, keys } = await seed();
    expect(await koreader('GET', `/syncs/progress/${books['Saga 001'].readerHash}`, keys.kobo)).toMatchObject({
      status: 200,
      body: {},
    });
    expect(await koreader('GET', '/syncs/progress/ffffffffffffffffffffffffffffffff', keys.kobo)).toMatchObject({
      status: 200,
      body: {},
    });
    const create = await koreader('POST', '/users/create', null, { username: 'kobo', password: 'md5' });
    expect(create.status).toBe(403);
    expect(create.type).toBe('application/json');
    expect(create.body.code).toBe(2005);
    expect(await koreader('GET', '/healthcheck', null)).toMatchObject({ status: 200, body: { state: 'OK' } });
  });
});

describe('KOReader bad input: the reference server’s codes, nothing written (issue 9)', () => {
  it('missing document → 403/2004, non-numeric percentage or a foreign hash → 403/2003, bad JSON → 400/103', async () => {
    const { books, keys, user } = await seed();
    const book = books['Saga 001'];
    const valid = { document: book.readerHash, progress: '2', percentage: 0.4, device: 'Kobo', device_id: 'X' };
    const cases: Array<[unknown, number, number]> = [
      [{ ...valid, document: undefined }, 403, 2004],
      [{ ...valid, document: '' }, 403, 2004],
      [{ ...valid, percentage: 'lots' }, 403, 2003],
      [{ ...valid, percentage: 1.5 }, 403, 2003],
      [{ ...valid, progress: undefined }, 403, 2003],
      [{ ...valid, device: undefined }, 403, 2003],
      [{ ...valid, device_id: 42 }, 403, 2003],
      [{ ...valid, device: 'x'.repeat(201) }, 403, 2003],
      [{ ...valid, progress: '99' }, 403, 2003],
      [{ ...valid, progress: 'abc' }, 403, 2003],
      [{ ...valid, document: 'ffffffffffffffffffffffffffffffff' }, 403, 2003],
      ['{"document": ', 400, 103],
      ['[1,2]', 400, 104],
    ];
    for (const [body, status, code] of cases) {
      const res = await koreader('PUT', '/syncs/progress', keys.kobo, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.type).toBe('application/json');
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
    expect((await api(`/books/${book.id}/progress`, { auth: { basic: user } })).status).toBe(404);
  });

  it('bad or missing key → 401/2001; a key without ProgressWrite cannot push; a missing Accept → 412/100', async () => {
    const { books, keys, user } = await seed();
    const book = books['Saga 001'];
    const body = { document: book.readerHash, progress: '2', percentage: 0.4, device: 'Kobo', device_id: 'X' };
    for (const key of [null, 'not-a-key', 'lbx_abcdefgh_0000000000000000000000000000000000000000000']) {
      const res = await koreader('PUT', '/syncs/progress', key, body);
      expect(res).toMatchObject({
        status: 401,
        type: 'application/json',
        body: { code: 2001, message: 'Unauthorized' },
      });
    }
    expect((await koreader('GET', '/users/auth', 'nope')).status).toBe(401);
    const readOnly = await createApiKey({ basic: user }, { name: 'ro', permissions: ['ProgressRead'] });
    const refused = await koreader('PUT', '/syncs/progress', readOnly.key, body);
    expect(refused.status).toBe(403);
    expect((await api(`/books/${book.id}/progress`, { auth: { basic: user } })).status).toBe(404);

    const noAccept = await SELF.fetch(`${BASE}/users/auth`, { headers: { 'x-auth-user': keys.kobo } });
    expect(noAccept.status).toBe(412);
    expect(await noAccept.json()).toEqual({ code: 100, message: 'Accept header not set.' });
    const v2 = await koreader('GET', '/users/auth', keys.kobo, undefined, {
      accept: 'application/vnd.koreader.v2+json',
    });
    expect(v2).toMatchObject({ status: 412, body: { code: 102 } });
  });
});
