/** API.md §2 Library, §4 Libraries; DECISIONS.md §Storage, §Names, §Roles and permissions. */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { EVENT_HUB_NAME } from '../../src/events/publisher';
import { createApiKey, createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';
import { makeCbz } from '../support/library-files';

let admin: Credentials;
let adminId: string;

beforeEach(async () => {
  ({ auth: admin, userId: adminId } = await setupAdmin());
});

async function signedIn(role: 'reader' | 'maintainer'): Promise<Credentials> {
  const user = await createUser(admin, { role });
  return (await login(user.username, user.password)).auth;
}

async function createLibrary(body: Record<string, unknown>, auth: Credentials = admin) {
  const res = await api('/libraries', { auth, json: body });
  if (res.status !== 201) throw new Error(`create library failed: ${res.status} ${res.text}`);
  return res.body as { id: string; name: string; path: string };
}

describe('creating and reading libraries (API.md §2 Library, DECISIONS.md §Names)', () => {
  it('creates a library with defaults and returns it from detail and list', async () => {
    const res = await api('/libraries', { auth: admin, json: { name: 'Comics', path: 'comics' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Comics',
      path: 'comics',
      scanning_config: { enabled: false, cron_schedule: null, default_mode: 'normal', scan_on_start: false },
      defaultReadingDirection: 'ltr',
      importStoryArcReadLists: false,
      seriesCount: 0,
      bookCount: 0,
      lastScannedAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
    });

    const detail = await api(`/libraries/${res.body.id}`, { auth: admin });
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual(res.body);

    await createLibrary({ name: 'Books', path: 'books' });
    const list = await api('/libraries', { auth: admin });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.map((l: { name: string }) => l.name)).toEqual(['Books', 'Comics']);
  });

  it('accepts scanning_config and its camelCase twins, echoing scanning_config back', async () => {
    const snake = await api('/libraries', {
      auth: admin,
      json: {
        name: 'Manga',
        path: 'manga',
        scanning_config: { enabled: true, cron_schedule: '0 3 * * *', default_mode: 'deep', scan_on_start: true },
        default_reading_direction: 'rtl',
      },
    });
    expect(snake.status).toBe(201);
    expect(snake.body.scanning_config).toEqual({
      enabled: true,
      cron_schedule: '0 3 * * *',
      default_mode: 'deep',
      scan_on_start: true,
    });
    expect(snake.body.defaultReadingDirection).toBe('rtl');

    const camel = await api('/libraries', {
      auth: admin,
      json: {
        name: 'Webtoons',
        path: 'webtoons',
        scanningConfig: { enabled: true, cronSchedule: '*/30 1-5 * JAN-JUN mon-fri', scanOnStart: true },
        defaultReadingDirection: 'webtoon',
      },
    });
    expect(camel.status).toBe(201);
    expect(camel.body.scanningConfig).toBeUndefined();
    expect(camel.body.scanning_config).toEqual({
      enabled: true,
      cron_schedule: '*/30 1-5 * JAN-JUN mon-fri',
      default_mode: 'normal',
      scan_on_start: true,
    });
    expect(camel.body.defaultReadingDirection).toBe('webtoon');
  });

  it('normalises the path to a key prefix', async () => {
    expect((await createLibrary({ name: 'A', path: '/comics//marvel/' })).path).toBe('comics/marvel');
    expect((await createLibrary({ name: 'B', path: 'Ebooks/Français ①' })).path).toBe('Ebooks/Français ①');
  });

  it('takes "/" as the whole bucket, which then overlaps everything, and says what to do', async () => {
    const whole = await createLibrary({ name: 'Everything', path: '/' });
    expect(whole.path).toBe('');
    const error = expectError(
      await api('/libraries', { auth: admin, json: { name: 'X', path: 'anything' } }),
      409,
      'Conflict',
    );
    expect(error.message).toBe(
      'Folder "anything" cannot be used: library "Everything" uses the whole storage ("/"): give it a folder of its own first',
    );
    // Once it has a folder, the next library fits beside it.
    expect(
      (await api(`/libraries/${whole.id}`, { method: 'PUT', auth: admin, json: { path: 'everything' } })).status,
    ).toBe(200);
    expect((await createLibrary({ name: 'X', path: 'anything' })).path).toBe('anything');
  });

  it('gives a library created without a folder one named after it, so the next library fits beside it (issue 31 point 5)', async () => {
    const comics = await api('/libraries', { auth: admin, json: { name: 'Comics' } });
    expect(comics.status).toBe(201);
    expect(comics.body.path).toBe('Comics');
    const manga = await api('/libraries', { auth: admin, json: { name: ' Manga / Webtoons ' } });
    expect(manga.status).toBe(201);
    expect(manga.body.path).toBe('Manga - Webtoons');
    expect((await api('/libraries', { auth: admin, json: { name: '..' } })).body.path).toBe('library');
    // An upload lands in the library's own folder.
    const cbz = await makeCbz(1);
    const put = await api(`/libraries/${comics.body.id}/files/Saga/Saga%201.cbz`, {
      method: 'PUT',
      auth: admin,
      body: cbz,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(put.status).toBe(201);
    expect((await env.LIBRARY.head('Comics/Saga/Saga 1.cbz'))?.size).toBe(cbz.length);
    // The same name's folder taken by another library: the usual 409, naming it.
    const clash = expectError(
      await api('/libraries', { auth: admin, json: { name: 'comics/x', path: 'Comics/x' } }),
      409,
      'Conflict',
    );
    expect(clash.message).toBe('Folder "Comics/x" cannot be used: it overlaps library "Comics" at "Comics"');
  });

  it.each([
    ['../etc', 'must not contain "." or ".." segments'],
    ['comics/../../x', 'must not contain "." or ".." segments'],
    ['./comics', 'must not contain "." or ".." segments'],
    ['comics\\manga', 'not "\\"'],
    ['C:/Comics', 'not a drive path or URL'],
    ['c:', 'not a drive path or URL'],
    ['file:///srv/comics', 'not a drive path or URL'],
    ['comics\u0000x', 'control characters'],
    ['comics\nx', 'control characters'],
  ])('rejects path %j with a 400 naming the field', async (path, reason) => {
    const error = expectError(await api('/libraries', { auth: admin, json: { name: 'Bad', path } }), 400, 'BadRequest');
    expect(error.details).toContainEqual({ path: 'path', message: expect.stringContaining(reason) });
    expect((await api('/libraries', { auth: admin })).body).toEqual([]);
  });

  it('rejects bad bodies with field details', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ path: 'x' }, 'name'],
      [{ name: '  ', path: 'x' }, 'name'],
      [{ name: 'X', path: 'x', defaultReadingDirection: 'sideways' }, 'defaultReadingDirection'],
      [{ name: 'X', path: 'x', scanning_config: { default_mode: 'quick' } }, 'scanning_config.default_mode'],
      [{ name: 'X', path: 'x', scanning_config: { enabled: 'yes' } }, 'scanning_config.enabled'],
      [{ name: 'X', path: 'x', scanning_config: { surprise: 1 } }, 'scanning_config'],
      [{ name: 'X', path: 'x', color: 'red' }, '(root)'],
    ];
    for (const [json, field] of cases) {
      const error = expectError(await api('/libraries', { auth: admin, json }), 400, 'BadRequest');
      expect(error.details?.map((d) => d.path)).toContain(field);
    }
    expectError(
      await api('/libraries', { auth: admin, body: '{"name":', headers: { 'Content-Type': 'application/json' } }),
      400,
      'BadRequest',
    );
  });

  it.each([
    ['0 3 * *', 'expected 5 fields'],
    ['0 0 3 * * *', 'expected 5 fields'],
    ['61 * * * *', 'minute: 61 is outside 0-59'],
    ['0 */0 * * *', 'step "0"'],
    ['0 0 * * funday', 'not a number'],
  ])('rejects cron expression %j with details', async (cron, reason) => {
    const error = expectError(
      await api('/libraries', {
        auth: admin,
        json: { name: 'Cron', path: 'cron', scanning_config: { enabled: true, cron_schedule: cron } },
      }),
      400,
      'BadRequest',
    );
    expect(error.details).toContainEqual({
      path: 'scanning_config.cron_schedule',
      message: expect.stringContaining(reason),
    });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expectError(await api('/libraries/6f1c1c8e-3f5e-4a53-9e57-1c2f0d9e4b11', { auth: admin }), 404, 'NotFound');
    const bad = expectError(await api('/libraries/not-a-uuid', { auth: admin }), 400, 'BadRequest');
    expect(bad.details?.[0]?.path).toBe('id');
  });
});

describe('library names and paths never collide (DECISIONS.md §Storage)', () => {
  it('rejects a prefix equal to, inside or around another library, segment-wise', async () => {
    await createLibrary({ name: 'Comics', path: 'comics' });
    for (const path of ['comics', '/comics/', 'comics/manga', 'comics/manga/shonen']) {
      const error = expectError(await api('/libraries', { auth: admin, json: { name: path, path } }), 409, 'Conflict');
      expect(error.message).toContain('Comics');
    }
    expect((await createLibrary({ name: 'Comics 2', path: 'comics2' })).path).toBe('comics2');
    expect((await createLibrary({ name: 'Comic', path: 'comic' })).path).toBe('comic');

    await createLibrary({ name: 'Deep', path: 'media/books/ebooks' });
    expectError(await api('/libraries', { auth: admin, json: { name: 'Parent', path: 'media' } }), 409, 'Conflict');
    expect((await createLibrary({ name: 'Sibling', path: 'media/books/audio' })).path).toBe('media/books/audio');
  });

  it('rejects a duplicate name, ignoring case', async () => {
    await createLibrary({ name: 'Manga', path: 'manga' });
    const error = expectError(
      await api('/libraries', { auth: admin, json: { name: 'manga', path: 'm2' } }),
      409,
      'Conflict',
    );
    expect(error.details).toEqual([{ path: 'name', message: expect.any(String) }]);
  });
});

describe('updating libraries (API.md §4 Libraries)', () => {
  it('changes only the given fields and merges scanning_config', async () => {
    const library = await createLibrary({
      name: 'Comics',
      path: 'comics',
      scanning_config: { enabled: true, cron_schedule: '0 3 * * *', default_mode: 'deep' },
    });
    const res = await api(`/libraries/${library.id}`, {
      method: 'PUT',
      auth: admin,
      json: { name: 'Western Comics', scanningConfig: { scanOnStart: true }, default_reading_direction: 'ltr' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Western Comics',
      path: 'comics',
      scanning_config: { enabled: true, cron_schedule: '0 3 * * *', default_mode: 'deep', scan_on_start: true },
    });
    expect(res.body.updatedAt >= res.body.createdAt).toBe(true);

    const cleared = await api(`/libraries/${library.id}`, {
      method: 'PUT',
      auth: admin,
      json: { scanning_config: { cron_schedule: null, enabled: false } },
    });
    expect(cleared.body.scanning_config).toMatchObject({ enabled: false, cron_schedule: null, default_mode: 'deep' });
    expect((await api(`/libraries/${library.id}`, { auth: admin })).body).toEqual(cleared.body);
  });

  it('moves a library to a free path, keeping its own path available to itself', async () => {
    const comics = await createLibrary({ name: 'Comics', path: 'comics' });
    await createLibrary({ name: 'Manga', path: 'manga' });
    const same = await api(`/libraries/${comics.id}`, {
      method: 'PUT',
      auth: admin,
      json: { path: 'comics', name: 'COMICS' },
    });
    expect(same.status).toBe(200);
    const moved = await api(`/libraries/${comics.id}`, { method: 'PUT', auth: admin, json: { path: '/comics/us/' } });
    expect(moved.body.path).toBe('comics/us');
    expectError(
      await api(`/libraries/${comics.id}`, { method: 'PUT', auth: admin, json: { path: 'manga/x' } }),
      409,
      'Conflict',
    );
    expectError(
      await api(`/libraries/${comics.id}`, { method: 'PUT', auth: admin, json: { name: 'manga' } }),
      409,
      'Conflict',
    );
    expectError(
      await api(`/libraries/${comics.id}`, { method: 'PUT', auth: admin, json: { path: 'a/../b' } }),
      400,
      'BadRequest',
    );
  });

  it('rejects an empty update, a bad cron and unknown ids', async () => {
    const library = await createLibrary({ name: 'Comics', path: 'comics' });
    expectError(await api(`/libraries/${library.id}`, { method: 'PUT', auth: admin, json: {} }), 400, 'BadRequest');
    const cron = expectError(
      await api(`/libraries/${library.id}`, {
        method: 'PUT',
        auth: admin,
        json: { scanning_config: { cron_schedule: 'daily' } },
      }),
      400,
      'BadRequest',
    );
    expect(cron.details?.[0]?.path).toBe('scanning_config.cron_schedule');
    expectError(
      await api('/libraries/6f1c1c8e-3f5e-4a53-9e57-1c2f0d9e4b11', { method: 'PUT', auth: admin, json: { name: 'X' } }),
      404,
      'NotFound',
    );
  });
});

/** Catalog rows for counting and deletion, written the way a scan stores them. */
async function seedCatalog(libraryId: string, userId: string) {
  const now = new Date().toISOString();
  const seriesIds = [crypto.randomUUID(), crypto.randomUUID()];
  const bookIds = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  const statements = [
    ...seriesIds.map((id, i) =>
      env.DB.prepare(
        'INSERT INTO series (id, library_id, group_key, title, title_sort, deleted_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).bind(id, libraryId, `s${i}`, `Series ${i}`, `series ${i}`, i === 1 ? now : null, now, now),
    ),
    ...bookIds.map((id, i) =>
      env.DB.prepare(
        `INSERT INTO books (id, library_id, series_id, path, file_name, file_format, file_size, etag, file_modified_at,
           title, title_sort, sort_key, deleted_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'cbz', 10, 'e', ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        id,
        libraryId,
        seriesIds[0],
        `p/${id}.cbz`,
        `${id}.cbz`,
        now,
        `Book ${i}`,
        `book ${i}`,
        `${i}`,
        i === 2 ? now : null,
        now,
        now,
      ),
    ),
    env.DB.prepare(
      `INSERT INTO book_pages (book_id, number, file_name, media_type, size, locator) VALUES (?, 1, 'p1.jpg', 'image/jpeg', 1, '{}')`,
    ).bind(bookIds[0]),
    env.DB.prepare(
      'INSERT INTO read_progress (id, user_id, book_id, current_page, started_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)',
    ).bind(crypto.randomUUID(), userId, bookIds[0], now, now),
    env.DB.prepare(
      `INSERT INTO catalog_search (entity_type, entity_id, library_id, title) VALUES ('book', ?, ?, 'Book 0')`,
    ).bind(bookIds[0], libraryId),
  ];
  await env.DB.batch(statements);
}

async function rowCount(table: string, where = '1 = 1', ...bindings: unknown[]): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...bindings)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe('counts and deletion (DECISIONS.md §Storage: catalog rows only)', () => {
  it('counts live series and books, leaving soft-deleted ones out', async () => {
    const library = await createLibrary({ name: 'Comics', path: 'comics' });
    await seedCatalog(library.id, adminId);
    const res = await api(`/libraries/${library.id}`, { auth: admin });
    expect(res.body).toMatchObject({ seriesCount: 1, bookCount: 2 });
    expect((await api('/libraries', { auth: admin })).body[0]).toMatchObject({ seriesCount: 1, bookCount: 2 });
  });

  it('deletes the catalog rows of that library only and never the files in the bucket', async () => {
    const doomed = await createLibrary({ name: 'Doomed', path: 'doomed' });
    const kept = await createLibrary({ name: 'Kept', path: 'kept' });
    await seedCatalog(doomed.id, adminId);
    await seedCatalog(kept.id, adminId);
    await env.LIBRARY.put('doomed/Series/Book 1.cbz', 'zip bytes');
    await env.LIBRARY.put('kept/Other.cbz', 'zip bytes');

    expect((await api(`/libraries/${doomed.id}`, { method: 'DELETE', auth: admin })).status).toBe(204);

    expectError(await api(`/libraries/${doomed.id}`, { auth: admin }), 404, 'NotFound');
    expectError(await api(`/libraries/${doomed.id}`, { method: 'DELETE', auth: admin }), 404, 'NotFound');
    expect(await rowCount('series', 'library_id = ?', doomed.id)).toBe(0);
    expect(await rowCount('books', 'library_id = ?', doomed.id)).toBe(0);
    expect(await rowCount('catalog_search', 'library_id = ?', doomed.id)).toBe(0);
    expect(await rowCount('book_pages')).toBe(1);
    expect(await rowCount('read_progress')).toBe(1);
    expect(await rowCount('books', 'library_id = ?', kept.id)).toBe(3);

    expect(await (await env.LIBRARY.get('doomed/Series/Book 1.cbz'))?.text()).toBe('zip bytes');
    expect(await env.LIBRARY.head('kept/Other.cbz')).not.toBeNull();
    // The prefix is free again.
    expect((await createLibrary({ name: 'Doomed', path: 'doomed' })).path).toBe('doomed');
  });
});

describe('library permissions (DECISIONS.md §Roles and permissions)', () => {
  it('requires credentials on every endpoint', async () => {
    const library = await createLibrary({ name: 'Comics', path: 'comics' });
    const requests: Array<[string, string, unknown?]> = [
      ['GET', '/libraries'],
      ['POST', '/libraries', { name: 'X', path: 'x' }],
      ['GET', `/libraries/${library.id}`],
      ['PUT', `/libraries/${library.id}`, { name: 'Y' }],
      ['DELETE', `/libraries/${library.id}`],
    ];
    for (const [method, path, json] of requests) {
      expectError(await api(path, { method, json }), 401, 'Unauthorized');
    }
  });

  it('lets a reader read, a maintainer write but not delete, and an admin delete', async () => {
    const library = await createLibrary({ name: 'Comics', path: 'comics' });
    const reader = await signedIn('reader');
    expect((await api('/libraries', { auth: reader })).status).toBe(200);
    expect((await api(`/libraries/${library.id}`, { auth: reader })).status).toBe(200);
    expectError(await api('/libraries', { auth: reader, json: { name: 'X', path: 'x' } }), 403, 'Forbidden');
    expectError(
      await api(`/libraries/${library.id}`, { method: 'PUT', auth: reader, json: { name: 'Y' } }),
      403,
      'Forbidden',
    );
    expectError(await api(`/libraries/${library.id}`, { method: 'DELETE', auth: reader }), 403, 'Forbidden');

    const maintainer = await signedIn('maintainer');
    expect((await createLibrary({ name: 'Manga', path: 'manga' }, maintainer)).name).toBe('Manga');
    expect(
      (await api(`/libraries/${library.id}`, { method: 'PUT', auth: maintainer, json: { name: 'Y' } })).status,
    ).toBe(200);
    expectError(await api(`/libraries/${library.id}`, { method: 'DELETE', auth: maintainer }), 403, 'Forbidden');
    expect((await api(`/libraries/${library.id}`, { method: 'DELETE', auth: admin })).status).toBe(204);
  });

  it('limits an API key to its permissions', async () => {
    const key = await createApiKey(admin, { name: 'read only', permissions: ['LibrariesRead'] });
    const auth = { apiKey: key.key };
    expect((await api('/libraries', { auth })).status).toBe(200);
    expectError(await api('/libraries', { auth, json: { name: 'X', path: 'x' } }), 403, 'Forbidden');
  });
});

describe('library events (API.md §6: library_created, library_updated)', () => {
  /** Events are handed to the EventHub after the response, so wait for them briefly. */
  async function libraryEvents(count: number) {
    const hub = env.EVENT_HUB.get(env.EVENT_HUB.idFromName(EVENT_HUB_NAME));
    for (let attempt = 0; attempt < 50; attempt++) {
      const events = (await hub.since(0)).map((e) => e.event).filter((e) => e.type.startsWith('library_'));
      if (events.length >= count) return events;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('library events did not arrive');
  }

  it('announces a created and an updated library with its id, but not a rejected change', async () => {
    const library = await createLibrary({ name: 'Comics', path: 'comics' });
    expectError(await api('/libraries', { auth: admin, json: { name: 'comics', path: 'other' } }), 409, 'Conflict');
    await api(`/libraries/${library.id}`, { method: 'PUT', auth: admin, json: { name: 'Western' } });
    const events = await libraryEvents(2);
    expect(events).toEqual([
      { type: 'library_created', library_id: library.id, timestamp: expect.any(String) },
      { type: 'library_updated', library_id: library.id, timestamp: expect.any(String) },
    ]);
  });
});
