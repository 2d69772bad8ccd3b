/**
 * Issue 10 "Done when": a Mihon session and a Komelia session replayed request by request, with the
 * credentials each client really sends (docs/notes/komga-clients.md §4.1, §4.2): Mihon's extension
 * sends Basic only after a 401 challenge and then lives on the session cookie, which its tracker
 * (no credentials of its own) shares; Komelia signs in on users/me with remember-me and, after a
 * restart, has only the `komga-remember-me` cookie. Also the auth rules behind them
 * (DECISIONS.md §Reader apps, §Auth): API keys keep their permissions through the cookie, logout ends it.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createApiKey, createUser } from '../support/factories';
import { api, expectError } from '../support/http';
import { CookieJar, KOMGA, komga, komgaLibrary } from '../support/komga';
import { statementCounter } from '../support/statements';
import {
  expectParses,
  KomeliaBook,
  KomeliaLibrary,
  KomeliaPage,
  KomeliaSeries,
  KomeliaUser,
  MihonBookDto,
  MihonPageDto,
  MihonPageWrapper,
  MihonReadProgressV2Dto,
  MihonSeriesDto,
  MihonTrackerSeriesDto,
} from '../support/komga-client-dtos';
import { imageKind } from '../support/media';
import { z } from 'zod';

const MIHON_EXTENSION = { 'User-Agent': 'TachiyomiKomga/1.4.60' };
const MIHON_TRACKER = { 'User-Agent': 'Mihon v0.18.0 (app.mihon)' };

describe('a replayed Mihon session (extension + tracker)', () => {
  it('logs in by 401 challenge, browses, reads, syncs the tracker, and Longbox shows the progress', async () => {
    const { admin } = await komgaLibrary();
    const reader = await createUser(admin.auth);
    const basic = { Authorization: `Basic ${btoa(`${reader.username}:${reader.password}`)}` };
    const jar = new CookieJar();

    // 1. OkHttp sends the first request bare and adds Basic only after a 401 with a Basic challenge.
    const challenged = await komga('/api/v1/libraries', { jar, headers: MIHON_EXTENSION });
    expect(challenged.status).toBe(401);
    expect(challenged.headers.get('WWW-Authenticate')).toBe('Basic realm="Longbox"');
    const libraries = await komga('/api/v1/libraries', { jar, headers: { ...MIHON_EXTENSION, ...basic } });
    expect(libraries.status).toBe(200);
    expect(jar.cookies.get('KOMGA-SESSION')?.path).toBe('/komga');
    expect(jar.cookies.get('KOMGA-SESSION')?.attributes).toContain('HttpOnly');

    // 2. From here on the cookie jar alone: browse (popular), details, chapter list.
    const popular = await komga('/api/v1/series?search=&page=0&deleted=false&sort=metadata.titleSort,asc', {
      jar,
      headers: MIHON_EXTENSION,
    });
    expect(popular.status).toBe(200);
    const page = expectParses(MihonPageWrapper(MihonSeriesDto), popular.body, 'series page');
    expect(page.last).toBe(true);
    const berserk = page.content.find((s) => s.name === 'Berserk');
    if (!berserk) throw new Error('Berserk is not in the series page');
    const seriesUrl = `/api/v1/series/${berserk.id}`;
    expectParses(MihonSeriesDto, (await komga(seriesUrl, { jar, headers: MIHON_EXTENSION })).body, 'series');
    const chapters = await komga(`${seriesUrl}/books?unpaged=true&media_status=READY&deleted=false`, {
      jar,
      headers: MIHON_EXTENSION,
    });
    const books = expectParses(MihonPageWrapper(MihonBookDto), chapters.body, 'chapters').content;
    expect(books.map((b) => b.metadata.numberSort)).toEqual([1, 2, 3]);

    // 3. Reading chapter 1: its pages, then each page image with Mihon's Accept header.
    const pages = expectParses(
      z.array(MihonPageDto),
      (await komga(`/api/v1/books/${books[0]?.id}/pages`, { jar, headers: MIHON_EXTENSION })).body,
      'pages',
    );
    expect(pages.map((p) => p.number)).toEqual([1, 2, 3]);
    for (const p of pages) {
      const image = await komga(`/api/v1/books/${books[0]?.id}/pages/${p.number}`, {
        jar,
        headers: { ...MIHON_EXTENSION, Accept: 'image/*,*/*;q=0.8' },
      });
      expect(image.status).toBe(200);
      expect(imageKind(image.bytes)).toBe('png');
    }

    // 4. The tracker binds the series (GET series, GET progress) and pushes chapter 2 as read,
    //    with the shared cookie jar and no credentials of its own.
    const tracked = await komga(seriesUrl, { jar, headers: MIHON_TRACKER });
    expectParses(MihonTrackerSeriesDto, tracked.body, 'tracker series');
    const trackerUrl = `/api/v2/series/${berserk.id}/read-progress/tachiyomi`;
    const before = expectParses(
      MihonReadProgressV2Dto,
      (await komga(trackerUrl, { jar, headers: MIHON_TRACKER })).body,
      'progress',
    );
    expect(before).toMatchObject({ lastReadContinuousNumberSort: 0, maxNumberSort: 3, booksUnreadCount: 3 });
    const put = await komga(trackerUrl, {
      method: 'PUT',
      jar,
      headers: MIHON_TRACKER,
      json: { lastBookNumberSortRead: 2.0 },
    });
    expect(put.status).toBe(204);

    // 5. The tracker's GET shows it …
    const after = expectParses(
      MihonReadProgressV2Dto,
      (await komga(trackerUrl, { jar, headers: MIHON_TRACKER })).body,
      'progress',
    );
    expect(after).toEqual({
      booksCount: 3,
      booksReadCount: 2,
      booksUnreadCount: 1,
      booksInProgressCount: 0,
      lastReadContinuousNumberSort: 2,
      maxNumberSort: 3,
    });
    // … and so does Longbox's own API, for the same user.
    const own = await api(`/books/${books[1]?.id}/progress`, {
      auth: { basic: { username: reader.username, password: reader.password } },
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ completed: true, currentPage: 2 });
    const untouched = await api(`/books/${books[2]?.id}/progress`, {
      auth: { basic: { username: reader.username, password: reader.password } },
    });
    expect(untouched.status).toBe(404);
  });
});

describe('a replayed Komelia session', () => {
  it('signs in on users/me with remember-me, restarts with only that cookie, loads home rows, reads a book', async () => {
    const { admin } = await komgaLibrary();
    const reader = await createUser(admin.auth);
    const jar = new CookieJar();

    // 1. Login: users/me with Basic, no-cache and remember-me=true (komga-client user/HttpUserClient.kt).
    const me = await komga('/api/v2/users/me?remember-me=true', {
      jar,
      headers: {
        Authorization: `Basic ${btoa(`${reader.username}:${reader.password}`)}`,
        'Cache-Control': 'no-cache, no-store, max-age=0',
        Accept: 'application/json',
      },
    });
    expect(me.status).toBe(200);
    const user = expectParses(KomeliaUser, me.body, 'users/me');
    expect(user).toMatchObject({ id: reader.id, email: `${reader.username}@example.com` });
    expect(user.roles).toEqual(expect.arrayContaining(['USER', 'FILE_DOWNLOAD', 'PAGE_STREAMING']));
    expect(user.roles).not.toContain('ADMIN');
    // Komelia drops both cookies unless their Path is the server URL's path.
    expect(jar.cookies.get('KOMGA-SESSION')?.path).toBe('/komga');
    expect(jar.cookies.get('komga-remember-me')?.path).toBe('/komga');
    expect(jar.cookies.get('komga-remember-me')?.attributes).toMatch(/Max-Age=\d+/);
    const libraries = await komga('/api/v1/libraries', { jar, headers: { Accept: 'application/json' } });
    expectParses(z.array(KomeliaLibrary), libraries.body, 'libraries');

    // 2. Restart: only komga-remember-me survives (Komelia's RememberMePersistingCookieStore).
    const restarted = new CookieJar();
    const remembered = jar.cookies.get('komga-remember-me');
    if (!remembered) throw new Error('no remember-me cookie');
    restarted.cookies.set('komga-remember-me', remembered);

    // 3. Home rows (Komelia DefaultFilters.kt): keep reading, on deck, recently added/updated series.
    const keepReading = await komga('/api/v1/books/list?page=0&size=20&sort=readProgress.readDate,desc', {
      jar: restarted,
      json: { condition: { allOf: [{ readStatus: { operator: 'is', value: 'IN_PROGRESS' } }] } },
    });
    expect(keepReading.status).toBe(200);
    expect(restarted.cookies.get('KOMGA-SESSION')?.path).toBe('/komga');
    expectParses(KomeliaPage(KomeliaBook), keepReading.body, 'keep reading');
    expect(keepReading.body.totalElements).toBe(0);
    const recentBooks = await komga('/api/v1/books/list?page=0&size=20&sort=createdDate,desc', {
      jar: restarted,
      json: {},
    });
    expectParses(KomeliaPage(KomeliaBook), recentBooks.body, 'recently added books');
    expect(recentBooks.body.totalElements).toBe(4);
    expectParses(KomeliaPage(KomeliaBook), (await komga('/api/v1/books/ondeck', { jar: restarted })).body, 'on deck');
    for (const path of ['/api/v1/series/new', '/api/v1/series/updated']) {
      const row = await komga(`${path}?page=0&size=20`, { jar: restarted });
      expectParses(KomeliaPage(KomeliaSeries), row.body, path);
      expect(row.body.totalElements).toBe(2);
    }

    // 4. Open a book, read to page 2: the progress is there, and the keep-reading row has it.
    const book = expectParses(
      KomeliaBook,
      recentBooks.body.content.find((b: any) => b.name === 'Black Swordsman'),
      'book',
    );
    expectParses(KomeliaBook, (await komga(`/api/v1/books/${book.id}`, { jar: restarted })).body, 'book detail');
    const next = await komga(`/api/v1/books/${book.id}/next`, { jar: restarted });
    expect(next.body.name).toBe('Brand');
    const patched = await komga(`/api/v1/books/${book.id}/read-progress`, {
      method: 'PATCH',
      jar: restarted,
      json: { page: 2 },
    });
    expect(patched.status).toBe(204);
    const reread = expectParses(
      KomeliaBook,
      (await komga(`/api/v1/books/${book.id}`, { jar: restarted })).body,
      'book',
    );
    expect(reread.readProgress).toMatchObject({ page: 2, completed: false });
    const row = await komga('/api/v1/books/list?sort=readProgress.readDate,desc', {
      jar: restarted,
      json: { condition: { allOf: [{ readStatus: { operator: 'is', value: 'IN_PROGRESS' } }] } },
    });
    expect(row.body.content.map((b: any) => b.id)).toEqual([book.id]);

    // 5. Live updates: the SSE stream opens and keeps the connection alive (no reconnect loop).
    const sse = await fetchStreamStart('/komga/sse/v1/events', restarted);
    expect(sse.status).toBe(200);
    expect(sse.contentType).toMatch(/^text\/event-stream/);
    expect(sse.firstChunk).toMatch(/retry: \d+|: keep-alive/);
  });
});

async function fetchStreamStart(path: string, jar: CookieJar) {
  const { SELF } = await import('cloudflare:test');
  const url = `http://longbox.test${path}`;
  const response = await SELF.fetch(url, { headers: { Cookie: jar.header(url) ?? '' } });
  const reader = response.body?.getReader();
  const chunk = reader ? await reader.read() : undefined;
  await reader?.cancel();
  return {
    status: response.status,
    contentType: response.headers.get('Content-Type') ?? '',
    firstChunk: chunk?.value ? new TextDecoder().decode(chunk.value) : '',
  };
}

describe('Komga auth (DECISIONS.md §Reader apps, §Auth)', () => {
  it('an API key (X-API-Key or Basic api:<key>) keeps its permissions, also through the cookie it gets', async () => {
    const { admin } = await komgaLibrary();
    const limited = await createApiKey(admin.auth, { name: 'libraries only', permissions: ['LibrariesRead'] });
    const jar = new CookieJar();
    expect((await komga('/api/v1/libraries', { jar, headers: { 'X-API-Key': limited.key } })).status).toBe(200);
    expect(jar.cookies.has('KOMGA-SESSION')).toBe(true);
    const viaCookie = await komga('/api/v1/series', { jar });
    expect(viaCookie.status).toBe(403);
    expect(viaCookie.body).toMatchObject({ status: 403, error: 'Forbidden' });
    expect((await komga('/api/v1/libraries', { jar })).status).toBe(200);

    const full = await createApiKey(admin.auth, { name: 'reader app' });
    expect((await komga('/api/v1/series', { auth: { apiKey: full.key, via: 'basic' } })).status).toBe(200);
    expect((await komga('/api/v1/series', { auth: { apiKey: full.key } })).status).toBe(200);
  });

  it('a Longbox session token sent as Bearer becomes the cookie itself (no second session)', async () => {
    const { admin } = await komgaLibrary();
    const jar = new CookieJar();
    expect((await komga('/api/v1/libraries', { jar, auth: admin.auth })).status).toBe(200);
    expect(jar.cookies.get('KOMGA-SESSION')?.value).toBe(admin.token);
    expect((await komga('/api/v1/series', { jar })).status).toBe(200);
    // Logging out through the API ends the cookie too.
    expect((await api('/auth/logout', { method: 'POST', auth: admin.auth })).status).toBe(204);
    expect((await komga('/api/v1/series', { jar })).status).toBe(401);
  });

  it('reading progress needs the API permission for it', async () => {
    const { admin } = await komgaLibrary();
    const key = await createApiKey(admin.auth, {
      name: 'browse only',
      permissions: ['LibrariesRead', 'SeriesRead', 'BooksRead', 'PagesRead'],
    });
    const auth = { apiKey: key.key };
    const series = (await komga('/api/v1/series', { auth })).body.content[0];
    const books = (await komga(`/api/v1/series/${series.id}/books`, { auth })).body.content;
    // BooksRead also reads progress (DECISIONS.md §Roles), writing needs ProgressWrite or BooksWrite.
    expect((await komga(`/api/v2/series/${series.id}/read-progress/tachiyomi`, { auth })).status).toBe(200);
    const write = await komga(`/api/v1/books/${books[0].id}/read-progress`, {
      method: 'PATCH',
      auth,
      json: { page: 1 },
    });
    expect(write.status).toBe(403);
    const tracker = await komga(`/api/v2/series/${series.id}/read-progress/tachiyomi`, {
      method: 'PUT',
      auth,
      json: { lastBookNumberSortRead: 1 },
    });
    expect(tracker.status).toBe(403);
  });

  it('wrong credentials and dead cookies get 401 with the Basic challenge; logout ends the session', async () => {
    const { admin } = await komgaLibrary();
    const reader = await createUser(admin.auth);
    const wrong = await komga('/api/v1/libraries', {
      headers: { Authorization: `Basic ${btoa(`${reader.username}:not-the-password`)}` },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('WWW-Authenticate')).toBe('Basic realm="Longbox"');
    expect(wrong.body).toMatchObject({ status: 401, error: 'Unauthorized' });

    // Komga accounts are e-mail addresses: Mihon users may type theirs.
    const byEmail = await komga('/api/v1/libraries', {
      headers: { Authorization: `Basic ${btoa(`${reader.username}@example.com:${reader.password}`)}` },
    });
    expect(byEmail.status).toBe(200);
    const emailWrongPassword = await komga('/api/v1/libraries', {
      headers: { Authorization: `Basic ${btoa(`${reader.username}@example.com:nope-nope-nope`)}` },
    });
    expect(emailWrongPassword.status).toBe(401);

    // Page images and files never start a session: a client sending Basic with every page and keeping
    // no cookies (Paperback) would otherwise leave one session per page.
    const books = (await komga('/api/v1/books', { auth: admin.auth })).body.content;
    const pageJar = new CookieJar();
    const basic = { Authorization: `Basic ${btoa(`${reader.username}:${reader.password}`)}` };
    expect((await komga(`/api/v1/books/${books[0].id}/pages/1`, { jar: pageJar, headers: basic })).status).toBe(200);
    expect((await komga(`/api/v1/books/${books[0].id}/thumbnail`, { jar: pageJar, headers: basic })).status).toBe(200);
    expect(pageJar.cookies.size).toBe(0);

    const forged = new CookieJar();
    forged.cookies.set('KOMGA-SESSION', { value: 'not.a.token', path: '/komga', attributes: '' });
    const dead = await komga('/api/v1/libraries', { jar: forged });
    expect(dead.status).toBe(401);
    expect(forged.cookies.has('KOMGA-SESSION')).toBe(false);

    const jar = new CookieJar();
    await komga('/api/v2/users/me', {
      jar,
      headers: { Authorization: `Basic ${btoa(`${reader.username}:${reader.password}`)}` },
    });
    expect((await komga('/api/v1/libraries', { jar })).status).toBe(200);
    const session = jar.cookies.get('KOMGA-SESSION');
    expect((await komga('/api/logout', { method: 'POST', jar })).status).toBe(204);
    const replay = new CookieJar();
    if (session) replay.cookies.set('KOMGA-SESSION', session);
    expect((await komga('/api/v1/libraries', { jar: replay })).status).toBe(401);
  });
});

describe('Komga clients that send credentials on every call (docs/notes/komga-clients.md §4.3)', () => {
  it('Basic on every JSON call without a cookie jar (Paperback, Komf) leaves at most one session row', async () => {
    const { admin } = await komgaLibrary();
    const reader = await createUser(admin.auth);
    const headers = {
      Authorization: `Basic ${btoa(`${reader.username}:${reader.password}`)}`,
      'User-Agent': 'Paperback/0.8',
    };
    const sessionRows = async () =>
      (
        await env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?')
          .bind(reader.id)
          .first<{ n: number }>()
      )?.n;
    const cookies = new Set<string>();
    for (const path of ['/api/v1/libraries', '/api/v1/series', '/api/v2/users/me', '/api/v1/books', '/api/v1/series']) {
      const res = await komga(path, { headers });
      expect(res.status).toBe(200);
      const jar = new CookieJar();
      jar.store({ headers: res.headers } as Response);
      const cookie = jar.cookies.get('KOMGA-SESSION')?.value;
      if (cookie) cookies.add(cookie);
    }
    expect(await sessionRows()).toBe(1);
    // Every call still hands out a cookie that works on its own (Mihon lives on it after its first call).
    expect(cookies.size).toBeGreaterThan(0);
    for (const cookie of cookies) {
      const jar = new CookieJar();
      jar.cookies.set('KOMGA-SESSION', { value: cookie, path: '/komga', attributes: '' });
      expect((await komga('/api/v1/libraries', { jar })).status).toBe(200);
    }
    // Another client of the same user gets its own session; the first one's is not shared with it.
    expect((await komga('/api/v1/libraries', { headers: { ...headers, 'User-Agent': 'Komf/1.0' } })).status).toBe(200);
    expect(await sessionRows()).toBe(2);
  });

  it('a call with both the header and its session cookie authenticates once (one credential statement)', async () => {
    const { admin } = await komgaLibrary();
    const reader = await createUser(admin.auth);
    const counter = statementCounter();
    const basic = `Basic ${btoa(`${reader.username}:${reader.password}`)}`;
    const first = await counter.measure('/komga/api/v1/libraries', { headers: { Authorization: basic } });
    expect(first.status).toBe(200);
    const jar = new CookieJar();
    jar.store({ headers: first.headers } as Response);
    const cookie = jar.header(`${KOMGA}/api/v1/libraries`);
    if (!cookie) throw new Error('no session cookie was set');
    const again = await counter.measure('/komga/api/v1/libraries', {
      headers: { Authorization: basic, Cookie: cookie },
    });
    expect(again.status).toBe(200);
    expect(again.headers.getSetCookie()).toEqual([]);
    const credentialReads = again.calls.filter((sql) => sql.some((s) => /\b(sessions|users)\b/.test(s)));
    expect(credentialReads).toHaveLength(1);
  });
});

describe('LONGBOX_KOMGA__ENABLED (issue 10)', () => {
  async function fetchWith(enabled: string, path: string) {
    const ctx = createExecutionContext();
    const vars = { ...env, LONGBOX_KOMGA__ENABLED: enabled } as unknown as Env;
    const response = await createApp().fetch(new Request(`http://longbox.test${path}`), vars, ctx);
    await waitOnExecutionContext(ctx);
    return { status: response.status, headers: response.headers, body: await response.json<any>().catch(() => null) };
  }

  it.each([
    '/komga',
    '/komga/',
    '/komga/api/v1/libraries',
    '/komga/api/v2/users/me',
    '/komga/api/v1/books/00000000-0000-4000-8000-000000000000/pages/1',
    '/komga/sse/v1/events',
    '/komga/anything/else',
  ])('false → %s is a 404', async (path) => {
    const response = await fetchWith('false', path);
    expect(response.status).toBe(404);
    expect(response.headers.get('WWW-Authenticate')).toBeNull();
    expect(response.body).toMatchObject({ error: 'NotFound' });
  });

  it('true (the default) serves the API: unauthenticated calls are challenged', async () => {
    expect((await fetchWith('true', '/komga/api/v1/libraries')).status).toBe(401);
    const response = await komga('/api/v1/libraries');
    expect(response.status).toBe(401);
    expectError(await api('/libraries'), 401, 'Unauthorized');
  });
});
