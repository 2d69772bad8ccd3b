/**
 * Reading statistics (issue 35; docs/DECISIONS.md §Reading statistics; docs/API.md §Reading statistics): sessions
 * folded from every progress write, attributed to a device as API.md §2 says; measured sessions through
 * POST /reading-sessions (Codex-rs's contract: per-session rejections, idempotent ids); GET /reading-stats in the
 * reader's time zone; privacy (pause, export, delete, retention); and a restricted reader never counting a book
 * they may not see now.
 */
import { SELF } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { readingSessions } from '../../src/db/schema';
import { pruneExpired } from '../../src/services/housekeeping';
import { db, seedBook, seedLibrary, seedSeries } from '../support/catalog-factory';
import { ADMIN, createApiKey, createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const HASH = 'a'.repeat(32);
const MINUTE = 60_000;

async function catalog() {
  const admin = await setupAdmin();
  const open = await seedLibrary({ name: 'Open' });
  const closed = await seedLibrary({ name: 'Closed' });
  const saga = await seedSeries(open, { title: 'Saga' });
  const authors = [{ name: 'Brian K. Vaughan', role: 'writer' as const }];
  const secret = await seedSeries(closed, { title: 'Secret Diaries' });
  const sagaOne = await seedBook(saga, { title: 'Saga 001', pageCount: 100, readerHash: HASH, authors });
  const sagaTwo = await seedBook(saga, { title: 'Saga 002', pageCount: 100, fileFormat: 'pdf', authors });
  const diary = await seedBook(secret, { title: 'Diary 001', pageCount: 100 });
  return { admin, open, closed, saga, secret, sagaOne, sagaTwo, diary };
}

/** The web readers' write: the session cookie's user, the device id header, a browser's agent. */
const webProgress = (auth: Credentials, bookId: string, page: number, device: string, agent: string) =>
  api(`/books/${bookId}/progress`, {
    method: 'PUT',
    auth,
    json: { current_page: page, is_completed: false },
    headers: { 'Longbox-Device-Id': device, 'User-Agent': agent },
  });

const sessions = (auth: Credentials, list: unknown[], agent = DESKTOP) =>
  api('/reading-sessions', { method: 'POST', auth, json: { sessions: list }, headers: { 'User-Agent': agent } });

const measured = (over: Record<string, unknown>) => ({
  id: crypto.randomUUID(),
  deviceId: 'desk-1',
  kind: 'progress',
  clientStartedAt: new Date(Date.now() - 20 * MINUTE).toISOString(),
  clientEndedAt: new Date(Date.now() - MINUTE).toISOString(),
  ...over,
});

async function koreaderPush(key: string, page: number) {
  const response = await SELF.fetch('http://longbox.test/koreader/syncs/progress', {
    method: 'PUT',
    headers: {
      accept: 'application/vnd.koreader.v1+json',
      'content-type': 'application/json',
      'x-auth-user': key,
      'x-auth-key': 'unused',
      'User-Agent': 'KOReader/2024.11 (Kobo)',
    },
    body: JSON.stringify({
      document: HASH,
      progress: String(page),
      percentage: page / 100,
      device: 'Kobo Libra 2',
      device_id: 'KOBO-7',
    }),
  });
  expect(response.status).toBe(200);
}

/** Moves every stored time of the user's reading `ms` into the past: the minutes between two writes pass. */
async function timePasses(userId: string, ms: number) {
  const shift = `-${ms / 1000} seconds`;
  await db.run(sql`UPDATE reading_sessions SET started_at = strftime('%Y-%m-%dT%H:%M:%fZ', started_at, ${shift}),
    ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', ended_at, ${shift}) WHERE user_id = ${userId}`);
  await db.run(sql`UPDATE read_progress SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', updated_at, ${shift})
    WHERE user_id = ${userId}`);
}

const stats = async (auth: Credentials, query = '') => {
  const response = await api(`/reading-stats${query}`, { auth });
  expect(response.status, response.text).toBe(200);
  return response.body;
};

describe('sessions from every device (issue 35, Build 1; API.md §2 Device attribution)', () => {
  it('the web app on two devices and KOReader on a third: three devices, each with its own time', async () => {
    const { admin, sagaOne, sagaTwo } = await catalog();
    const reader = await createUser(admin.auth, { role: 'reader' });
    const session = (await login(reader.username, reader.password)).auth;
    const kobo = await createApiKey(
      { basic: reader },
      { name: 'Kobo key', permissions: ['ProgressRead', 'ProgressWrite'] },
    );

    // The phone: progress as the reader turns pages, then the session it measured (12 of its 15 minutes active).
    expect((await webProgress(session, sagaOne.id, 10, 'phone-1', IPHONE)).status).toBe(200);
    const phone = await sessions(
      session,
      [
        measured({
          bookId: sagaOne.id,
          deviceId: 'phone-1',
          activeDurationMs: 12 * MINUTE,
          pagesRead: 9,
          clientStartedAt: new Date(Date.now() - 15 * MINUTE).toISOString(),
          clientEndedAt: new Date().toISOString(),
        }),
      ],
      IPHONE,
    );
    expect(phone.body).toMatchObject({
      rejected: [],
      progress: [{ bookId: sagaOne.id, currentPage: 10, completed: false }],
    });
    // The desktop: another book, 7 minutes.
    expect((await webProgress(session, sagaTwo.id, 4, 'desk-1', DESKTOP)).status).toBe(200);
    const desk = await sessions(session, [
      measured({
        bookId: sagaTwo.id,
        activeDurationMs: 7 * MINUTE,
        pagesRead: 3,
        clientStartedAt: new Date(Date.now() - 8 * MINUTE).toISOString(),
        clientEndedAt: new Date().toISOString(),
      }),
    ]);
    expect(desk.body.rejected).toEqual([]);

    // KOReader, half an hour later: page 12 (two pages on from the phone's 10), then page 20 three minutes later;
    // the time between its writes is inferred, and the ten pages forward counted.
    await timePasses(reader.id, 30 * MINUTE);
    await koreaderPush(kobo.key, 12);
    await timePasses(reader.id, 3 * MINUTE);
    await koreaderPush(kobo.key, 20);

    const body = await stats(session, '?tz=UTC');
    const devices = Object.fromEntries(body.devices.map((d: any) => [d.deviceId, d]));
    expect(Object.keys(devices).sort()).toEqual(['client:desk-1', 'client:phone-1', 'koreader:KOBO-7']);
    expect(devices['client:phone-1']).toMatchObject({
      deviceName: 'Safari on iPhone',
      pagesRead: 9,
      sessions: 1,
      duration: { measuredMs: 12 * MINUTE, inferredMs: 0 },
    });
    expect(devices['client:desk-1']).toMatchObject({
      deviceName: 'Firefox on Linux',
      pagesRead: 3,
      duration: { measuredMs: 7 * MINUTE, inferredMs: 0 },
    });
    const koreader = devices['koreader:KOBO-7'];
    expect(koreader).toMatchObject({
      deviceName: 'Kobo Libra 2',
      pagesRead: 10,
      sessions: 1,
      duration: { measuredMs: 0 },
    });
    // Three minutes, give or take the requests' own time.
    expect(koreader.duration.inferredMs).toBeGreaterThanOrEqual(3 * MINUTE);
    expect(koreader.duration.inferredMs).toBeLessThan(3 * MINUTE + 30_000);
    expect(body.summary).toMatchObject({
      sessions: 3,
      books: 2,
      booksStarted: 2,
      pagesRead: 22,
      sessionsWithoutDuration: 0,
    });
    expect(body.summary.duration.measuredMs).toBe(19 * MINUTE);
    expect(body.summary.duration.totalMs).toBe(19 * MINUTE + koreader.duration.inferredMs);
    expect(body.series).toMatchObject([{ seriesName: 'Saga', books: 2 }]);
    expect(body.authors).toMatchObject([{ name: 'Brian K. Vaughan' }]);
    expect(body.formats.map((f: any) => f.format).sort()).toEqual(['cbz', 'pdf']);

    // An API key names its device; writes of one key more than five minutes apart are two sittings.
    const tablet = await createApiKey(
      { basic: reader },
      { name: 'Tablet', permissions: ['ProgressRead', 'ProgressWrite'] },
    );
    const write = (page: number) =>
      api(`/books/${sagaTwo.id}/progress`, {
        method: 'PUT',
        auth: { apiKey: tablet.key },
        json: { current_page: page },
      });
    expect((await write(5)).status).toBe(200);
    await timePasses(reader.id, 10 * MINUTE);
    expect((await write(6)).status).toBe(200);
    const rows = await db
      .select()
      .from(readingSessions)
      .where(eq(readingSessions.deviceId, `api-key:${tablet.id}`));
    expect(rows.map((r) => [r.deviceName, r.inferredMs])).toEqual([
      ['Tablet', 0],
      ['Tablet', 0],
    ]);
  }, 120_000);
});

describe('every progress surface records sittings (issue 35, Build 1)', () => {
  it('Komga, Readium progression and mark-read each fold into a sitting of their device; marking a series read does not', async () => {
    const { admin, saga, sagaOne, sagaTwo } = await catalog();
    const mihon = { 'User-Agent': 'Mihon/0.16.4 (Android 14)' };
    const komga = await api(`http://longbox.test/komga/api/v1/books/${sagaOne.id}/read-progress`, {
      method: 'PATCH',
      auth: { basic: { username: ADMIN.username, password: ADMIN.password } },
      headers: mihon,
      json: { page: 4 },
    });
    expect(komga.status).toBe(204);
    const readium = await api(`/opds/v2.0/books/${sagaTwo.id}/progression`, {
      method: 'PUT',
      auth: admin.auth,
      headers: { 'User-Agent': 'Thorium/3.0' },
      json: {
        modified: new Date().toISOString(),
        locator: { href: '/1', type: 'image/png', locations: { position: 2 } },
      },
    });
    expect(readium.status, readium.text).toBeLessThan(300);
    const devices = (await stats(admin.auth)).devices.map((d: any) => d.deviceName).sort();
    expect(devices).toEqual(['Mihon', 'Thorium Reader']);

    const read = await api(`/books/${sagaTwo.id}/read`, {
      method: 'POST',
      auth: admin.auth,
      headers: { 'User-Agent': 'Thorium/3.0' },
    });
    expect(read.status).toBe(200);
    expect((await stats(admin.auth)).summary).toMatchObject({ sessions: 2, booksFinished: 1 });
    const series = await api(`/series/${saga.id}/read`, { method: 'POST', auth: admin.auth });
    expect(series.status).toBeLessThan(300);
    expect((await stats(admin.auth)).summary.sessions).toBe(2);
  }, 60_000);
});

describe('POST /reading-sessions (Codex-rs contract; issue 35 Bad input)', () => {
  it('rejects each bad session with its reason, writes the rest, and a batch sent again changes nothing', async () => {
    const { admin, sagaOne } = await catalog();
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * MINUTE).toISOString();
    const good = measured({
      id: 'good',
      bookId: sagaOne.id,
      activeDurationMs: 5 * MINUTE,
      pagesRead: 4,
      clientStartedAt: at(10),
      clientEndedAt: at(2),
    });
    const batch = [
      good,
      measured({ id: 'backwards', bookId: sagaOne.id, clientStartedAt: at(2), clientEndedAt: at(10) }),
      measured({
        id: 'too-long',
        bookId: sagaOne.id,
        activeDurationMs: 9 * MINUTE,
        clientStartedAt: at(10),
        clientEndedAt: at(2),
      }),
      measured({ id: 'negative', bookId: sagaOne.id, activeDurationMs: -1 }),
      measured({ id: 'unknown-book', bookId: crypto.randomUUID() }),
      measured({ id: 'percent', bookId: sagaOne.id, toPercentage: 1.5 }),
      measured({ id: 'future', bookId: sagaOne.id, clientStartedAt: at(-60), clientEndedAt: at(-90) }),
      { ...good, activeDurationMs: 1 },
    ];
    const first = await sessions(admin.auth, batch);
    expect(first.status, first.text).toBe(200);
    expect(first.body.accepted).toEqual(['good']);
    expect(first.body.rejected.map((r: any) => [r.id, r.reason])).toEqual([
      ['backwards', 'invalid_time_range'],
      ['too-long', 'invalid_measurement'],
      ['negative', 'invalid_measurement'],
      ['percent', 'invalid_percentage'],
      ['future', 'invalid_time_range'],
      ['good', 'duplicate_in_batch'],
      ['unknown-book', 'book_not_found'],
    ]);
    for (const rejection of first.body.rejected) expect(rejection.detail).toEqual(expect.any(String));

    const again = await sessions(admin.auth, batch);
    expect(again.body.accepted).toEqual(['good']);
    const body = await stats(admin.auth);
    expect(body.summary).toMatchObject({
      sessions: 1,
      pagesRead: 4,
      duration: { measuredMs: 5 * MINUTE, inferredMs: 0 },
    });

    // A malformed body or a batch over 500 is the request's error, and writes nothing.
    expectError(await sessions(admin.auth, [{ id: 'x' }]), 400, 'BadRequest');
    const tooMany = Array.from({ length: 501 }, (_, i) => measured({ id: `m${i}`, bookId: sagaOne.id }));
    expectError(await sessions(admin.auth, tooMany), 400, 'BadRequest');
    expect((await stats(admin.auth)).summary.sessions).toBe(1);
  }, 60_000);
});

describe('GET /reading-stats (issue 35, Build 3)', () => {
  it('counts days, weeks and months in the time zone asked for, across a daylight-saving change', async () => {
    const { admin, sagaOne } = await catalog();
    // 04:30 UTC on 9 March 2026: 00:30 on the 9th in New York (EDT since the 8th), 13:30 in Tokyo; 23:30 on the
    // 8th had the offset stayed EST — so the right day proves the window's offsets change with the zone's.
    const sent = await sessions(admin.auth, [
      measured({
        id: 'dst',
        bookId: sagaOne.id,
        activeDurationMs: 20 * MINUTE,
        clientStartedAt: '2026-03-09T04:30:00Z',
        clientEndedAt: '2026-03-09T05:00:00Z',
      }),
      measured({
        id: 'late',
        bookId: sagaOne.id,
        activeDurationMs: 10 * MINUTE,
        clientStartedAt: '2026-03-20T23:30:00Z',
        clientEndedAt: '2026-03-20T23:50:00Z',
      }),
    ]);
    expect(sent.body.accepted).toHaveLength(2);
    const window = '?from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z';
    const days = (body: any) => body.periods.map((p: any) => [p.bucket, p.duration.measuredMs / MINUTE]);
    expect(days(await stats(admin.auth, `${window}&tz=America/New_York`))).toEqual([
      ['2026-03-09', 20],
      ['2026-03-20', 10],
    ]);
    expect(days(await stats(admin.auth, `${window}&tz=Asia/Tokyo`))).toEqual([
      ['2026-03-09', 20],
      ['2026-03-21', 10],
    ]);
    expect(days(await stats(admin.auth, `${window}&tz=UTC&granularity=week`))).toEqual([
      ['2026-03-09', 20],
      ['2026-03-16', 10],
    ]);
    expect(days(await stats(admin.auth, `${window}&granularity=month`))).toEqual([['2026-03-01', 30]]);
    const coverage = await api('/reading-stats/coverage', { auth: admin.auth });
    expect(coverage.body).toEqual({ firstReadAt: '2026-03-09T04:30:00.000Z', lastReadAt: '2026-03-20T23:50:00.000Z' });

    expectError(await api(`/reading-stats${window}&tz=Mars/Olympus`, { auth: admin.auth }), 400, 'BadRequest');
    expectError(
      await api('/reading-stats?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', { auth: admin.auth }),
      400,
      'BadRequest',
    );
    expectError(
      await api('/reading-stats?from=2016-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', { auth: admin.auth }),
      400,
      'BadRequest',
    );
  }, 60_000);

  it('a restricted reader never sees nor counts a book they may not see now; the admin view counts, names no book', async () => {
    const { admin, open, sagaOne, diary } = await catalog();
    const reader = await createUser(admin.auth, { role: 'reader' });
    const key = await createApiKey(
      { basic: reader },
      { name: 'Phone', permissions: ['ProgressRead', 'ProgressWrite'] },
    );
    const auth = { apiKey: key.key };
    // Read both books while both libraries were shared.
    for (const book of [sagaOne, diary]) {
      expect((await api(`/books/${book.id}/progress`, { method: 'PUT', auth, json: { current_page: 3 } })).status).toBe(
        200,
      );
    }
    expect(
      (await sessions(auth, [measured({ bookId: diary.id, activeDurationMs: MINUTE })])).body.accepted,
    ).toHaveLength(1);
    expect((await stats(auth)).summary.books).toBe(2);

    const restrict = await api(`/users/${reader.id}`, {
      auth: admin.auth,
      method: 'PUT',
      json: { sharedLibraryIds: [open.id] },
    });
    expect(restrict.status).toBe(200);
    const body = await stats(auth);
    expect(body.summary).toMatchObject({ books: 1, sessions: 1, booksStarted: 1 });
    expect(JSON.stringify(body)).not.toMatch(/Secret|Diary|Closed/);
    expect(JSON.stringify(body)).not.toContain(diary.id);
    const exported = await api('/reading-sessions/export', { auth });
    expect(exported.body.map((s: any) => s.bookTitle)).toEqual(['Saga 001']);
    const csv = await api('/reading-sessions/export?format=csv', { auth });
    expect(csv.text).not.toContain('Diary');
    // A measured session of the hidden book answers as an unknown one.
    const hidden = await sessions(auth, [measured({ id: 'h', bookId: diary.id, activeDurationMs: MINUTE })]);
    expect(hidden.body.rejected).toMatchObject([{ id: 'h', reason: 'book_not_found' }]);

    // The admin's view: totals per user and per library, no book; readers may not ask for it.
    const server = await api('/admin/reading-stats', { auth: admin.auth });
    expect(server.status).toBe(200);
    expect(server.body.summary).toMatchObject({ readers: 1, books: 2 });
    expect(server.body.users).toMatchObject([{ userId: reader.id, username: reader.username, sessions: 3 }]);
    expect(server.body.libraries.map((l: any) => l.libraryName).sort()).toEqual(['Closed', 'Open']);
    expect(JSON.stringify(server.body)).not.toContain(sagaOne.id);
    expect((await api('/admin/reading-stats', { auth })).status).toBe(403);
  }, 60_000);
});

describe('privacy and control (issue 35, Build 5)', () => {
  it('pause, rename a device, export as JSON and CSV, delete; retention pruned by the hourly housekeeping', async () => {
    const { admin, sagaOne } = await catalog();
    const auth = admin.auth;
    const write = (page: number) => webProgress(auth, sagaOne.id, page, 'desk-1', DESKTOP);

    const pause = await api('/user/preferences/stats.recording', { method: 'PUT', auth, json: { value: false } });
    expect(pause.status).toBe(200);
    expect((await write(2)).status).toBe(200);
    // A client that times itself (the web reader's beacon) is answered as usual, and nothing is kept either.
    const whilePaused = measured({
      id: 'while-paused',
      bookId: sagaOne.id,
      activeDurationMs: MINUTE,
      clientStartedAt: '2025-01-02T10:00:00Z',
      clientEndedAt: '2025-01-02T10:05:00Z',
    });
    expect((await sessions(auth, [whilePaused])).body).toMatchObject({ accepted: ['while-paused'], rejected: [] });
    expect(await db.select().from(readingSessions)).toEqual([]);
    await api('/user/preferences/stats.recording', { method: 'PUT', auth, json: { value: true } });
    expect((await write(3)).status).toBe(200);
    const sent = await sessions(auth, [
      measured({
        bookId: sagaOne.id,
        activeDurationMs: 4 * MINUTE,
        pagesRead: 2,
        clientStartedAt: new Date(Date.now() - 5 * MINUTE).toISOString(),
        clientEndedAt: new Date().toISOString(),
      }),
      measured({
        bookId: sagaOne.id,
        activeDurationMs: MINUTE,
        clientStartedAt: '2025-01-01T10:00:00Z',
        clientEndedAt: '2025-01-01T10:05:00Z',
      }),
    ]);
    expect(sent.body.accepted).toHaveLength(2);

    const renamed = await api('/reading-devices/client:desk-1', { method: 'PUT', auth, json: { name: 'Study desk' } });
    expect(renamed.status).toBe(204);
    expect((await stats(auth)).devices).toMatchObject([{ deviceId: 'client:desk-1', deviceName: 'Study desk' }]);
    expectError(
      await api('/reading-devices/client:nope', { method: 'PUT', auth, json: { name: 'X' } }),
      404,
      'NotFound',
    );

    const json = await api('/reading-sessions/export', { auth });
    expect(json.body).toMatchObject([
      {
        bookTitle: 'Saga 001',
        seriesName: 'Saga',
        deviceName: 'Study desk',
        measuredMs: MINUTE,
        startedAt: '2025-01-01T10:00:00.000Z',
      },
      { bookTitle: 'Saga 001', measuredMs: 4 * MINUTE, pagesRead: 2, inferredMs: null, finished: false },
    ]);
    const csv = await api('/reading-sessions/export?format=csv', { auth });
    expect(csv.headers.get('Content-Type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,bookId,bookTitle,seriesName,deviceId,deviceName,startedAt,endedAt,measuredMs,inferredMs,pagesRead,finished',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',Saga 001,Saga,client:desk-1,Study desk,2025-01-01T10:00:00.000Z,');

    // Retention: 30 days keeps this week's session and drops the one of January 2025.
    const setting = await api('/admin/settings/stats.retention_days', { method: 'PUT', auth, json: { value: 30 } });
    expect(setting.status, setting.text).toBe(200);
    await pruneExpired(db, new Date());
    expect((await api('/reading-sessions/export', { auth })).body.map((s: any) => s.measuredMs)).toEqual([4 * MINUTE]);

    expect((await api('/reading-sessions', { method: 'DELETE', auth })).status).toBe(204);
    expect((await stats(auth)).summary.sessions).toBe(0);
    expect((await api('/reading-sessions/export', { auth })).body).toEqual([]);
  }, 60_000);

  it('a deleted user leaves nothing of their reading: no sitting, receipt or device name, in no figure', async () => {
    const { admin, sagaOne } = await catalog();
    const reader = await createUser(admin.auth, { role: 'reader' });
    const auth = (await login(reader.username, reader.password)).auth;
    expect((await webProgress(auth, sagaOne.id, 4, 'phone-1', IPHONE)).status).toBe(200);
    expect(
      (await sessions(auth, [measured({ id: 'kept', bookId: sagaOne.id, activeDurationMs: MINUTE })])).status,
    ).toBe(200);
    expect((await api('/reading-devices/client:desk-1', { method: 'PUT', auth, json: { name: 'Desk' } })).status).toBe(
      204,
    );
    const tables = ['reading_sessions', 'reading_session_receipts', 'reading_device_names'];
    const left = async () => {
      const counts: Record<string, number | undefined> = {};
      for (const table of tables) {
        const [row] = await db.all<{ n: number }>(
          sql`SELECT count(*) AS n FROM ${sql.raw(table)} WHERE user_id = ${reader.id}`,
        );
        counts[table] = row?.n;
      }
      return counts;
    };
    expect(await left()).toEqual({ reading_sessions: 2, reading_session_receipts: 1, reading_device_names: 1 });
    const before = await api('/admin/reading-stats', { auth: admin.auth });
    expect(before.body.users).toMatchObject([{ userId: reader.id, sessions: 2 }]);

    expect((await api(`/users/${reader.id}`, { method: 'DELETE', auth: admin.auth })).status).toBe(204);
    expect(await left()).toEqual({ reading_sessions: 0, reading_session_receipts: 0, reading_device_names: 0 });
    const after = await api('/admin/reading-stats', { auth: admin.auth });
    expect(after.body.summary).toMatchObject({ sessions: 0, readers: 0, books: 0 });
    expect(after.body.users).toEqual([]);
    expect(JSON.stringify(after.body)).not.toContain(reader.username);
  }, 60_000);
});
