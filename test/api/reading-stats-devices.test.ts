/**
 * Measured reading time from devices that keep it (issue 35 point 2; docs/DECISIONS.md §Reading statistics,
 * "KOReader's statistics" and "A Kobo's reading time"): KOReader's statistics database uploaded to
 * POST /reading-sessions/koreader — files written by a real SQLite with KOReader's own schema
 * (test/support/koreader-statistics-db.mjs, handed over as the binding KOREADER_FIXTURES) — and a Kobo's
 * `SpentReadingMinutes` running total, each through the real worker and read back from GET /reading-stats.
 */
import { env, SELF } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { readingSessions } from '../../src/db/schema';
import { jpeg } from '../fixtures/images';
import { buildZip } from '../fixtures/zip-writer';
import { db, seedBook, seedLibrary, seedSeries } from '../support/catalog-factory';
import { createApiKey, createUser, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';
import { KoboDevice } from '../support/kobo-device';
import { KOREADER_BASE, KOREADER_HASHES, SAGA_SITTINGS_MS } from '../support/koreader-statistics-spec.mjs';
import { putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const MINUTE = 60_000;
/** The days the library fixture's reading falls on. */
const WINDOW = `?from=${new Date((KOREADER_BASE - 86_400) * 1000).toISOString()}&to=${new Date((KOREADER_BASE + 86_400) * 1000).toISOString()}`;

const fixture = (name: string) => Uint8Array.from(atob(env.KOREADER_FIXTURES[name] as string), (c) => c.charCodeAt(0));

const upload = (auth: Credentials, body: BodyInit, headers: Record<string, string> = {}) =>
  api('/reading-sessions/koreader', {
    method: 'POST',
    auth,
    body,
    headers: { 'Content-Type': 'application/vnd.sqlite3', 'User-Agent': 'curl/8.5.0', ...headers },
  });

const stats = async (auth: Credentials, query = WINDOW) => {
  const response = await api(`/reading-stats${query}`, { auth });
  expect(response.status, response.text).toBe(200);
  return response.body;
};

/** Saga (seen by every reader) and a diary in a library the restricted reader will not see, with KOReader's hashes. */
async function catalog() {
  const admin = await setupAdmin();
  const open = await seedLibrary({ name: 'Open' });
  const closed = await seedLibrary({ name: 'Closed' });
  const saga = await seedBook(await seedSeries(open, { title: 'Saga' }), {
    title: 'Saga 001',
    pageCount: 100,
    readerHash: KOREADER_HASHES.saga,
  });
  const diary = await seedBook(await seedSeries(closed, { title: 'Secret Diaries' }), {
    title: 'Diary 001',
    pageCount: 100,
    readerHash: KOREADER_HASHES.diary,
  });
  const reader = await createUser(admin.auth, { role: 'reader' });
  const key = await createApiKey(
    { basic: reader },
    { name: 'Libra KOReader', permissions: ['ProgressRead', 'ProgressWrite'] },
  );
  return { admin, open, closed, saga, diary, reader, key, auth: { apiKey: key.key } as Credentials };
}

describe("KOReader's statistics database (issue 35 point 2)", () => {
  it('adds the measured time to the right books under the KOReader device; the same file again changes nothing', async () => {
    const { saga, diary, key, auth } = await catalog();
    const first = await upload(auth, fixture('library'));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      schemaVersion: 20221111,
      device: { deviceId: `api-key:${key.id}`, deviceName: 'Libra KOReader' },
      // Saga's two sittings and the diary's one; Saga's 1970 sitting is a clock that was not set.
      accepted: 3,
      alreadyKnown: 0,
      measuredMs: SAGA_SITTINGS_MS[0] + SAGA_SITTINGS_MS[1] + 4 * 2 * MINUTE,
      rejected: [{ id: `koreader:${KOREADER_HASHES.saga}:${40 * 86_400}`, reason: 'invalid_time_range' }],
    });
    expect(first.body.rejected[0].detail).toMatch(/clock/);
    expect(
      first.body.unmatchedBooks.map((b: { md5: string | null; title: string; sittings: number }) => [
        b.md5,
        b.title,
        b.sittings,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [null, 'A book without a hash', 1],
        [KOREADER_HASHES.elsewhere, 'A book from elsewhere', 1],
      ]),
    );
    expect(first.body.unmatchedBooks).toHaveLength(2);

    const before = await stats(auth);
    expect(before.summary).toMatchObject({
      duration: { measuredMs: 1_530_000, inferredMs: 0, totalMs: 1_530_000 },
      sessions: 3,
      books: 2,
      pagesRead: 10 + 5 + 4,
    });
    expect(before.devices).toMatchObject([
      { deviceId: `api-key:${key.id}`, deviceName: 'Libra KOReader', sessions: 3, duration: { measuredMs: 1_530_000 } },
    ]);
    const series = Object.fromEntries(before.series.map((s: any) => [s.seriesName, s.duration.measuredMs]));
    expect(series).toEqual({ Saga: 1_050_000, 'Secret Diaries': 480_000 });
    // Each sitting where KOReader measured it: Saga's first from 18:00 to 18:10.
    const exported = await api('/reading-sessions/export', { auth });
    const sagaRows = exported.body.filter((s: any) => s.bookId === saga.id);
    expect(sagaRows.map((s: any) => [s.startedAt, s.endedAt, s.measuredMs, s.pagesRead])).toEqual([
      ['2026-11-02T18:00:00.000Z', '2026-11-02T18:10:00.000Z', 600_000, 10],
      ['2026-11-02T20:00:00.000Z', '2026-11-02T20:07:30.000Z', 450_000, 5],
    ]);
    expect(exported.body.filter((s: any) => s.bookId === diary.id)).toHaveLength(1);

    // The device sends the same database again: every sitting is known, nothing is added or changed.
    const again = await upload(auth, fixture('library'));
    expect(again.body).toMatchObject({ accepted: 0, alreadyKnown: 3, measuredMs: 0 });
    expect(await stats(auth)).toEqual(before);
  });

  it("a restricted reader's upload counts no hidden book: it answers as a book Longbox does not have", async () => {
    const { admin, open, reader, auth } = await catalog();
    const restrict = await api(`/users/${reader.id}`, {
      auth: admin.auth,
      method: 'PUT',
      json: { sharedLibraryIds: [open.id] },
    });
    expect(restrict.status).toBe(200);
    const sent = await upload(auth, fixture('library'));
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ accepted: 2, measuredMs: 1_050_000 });
    const hashes = sent.body.unmatchedBooks.map((b: { md5: string | null }) => b.md5);
    expect(hashes.sort()).toEqual([KOREADER_HASHES.diary, KOREADER_HASHES.elsewhere, null].sort());
    // The answer names the diary only as the file does (its hash and KOReader's title), never Longbox's book.
    expect(sent.text).not.toMatch(/Secret|Closed/);
    const body = await stats(auth);
    expect(body.summary).toMatchObject({ books: 1, sessions: 2, duration: { measuredMs: 1_050_000 } });
    expect(JSON.stringify(body)).not.toMatch(/Secret|Diary/);
    // Nothing was stored for the hidden book: shared again later, it holds no time from this upload.
    expect((await db.select().from(readingSessions).where(eq(readingSessions.userId, reader.id))).length).toBe(2);
  });

  it('an upload while recording is paused is answered as accepted and keeps nothing, not even a receipt', async () => {
    // DECISIONS.md §Reading statistics, Privacy: a measured session sent while paused is answered as accepted (its
    // client lets it go) and kept nowhere; KOReader's database is such a batch of sessions.
    const { reader, auth } = await catalog();
    const mine = sql`user_id = ${reader.id}`;
    const rowsOf = async (table: 'reading_sessions' | 'reading_session_receipts') =>
      (await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)} WHERE ${mine}`))[0]?.n;
    // The reader pauses on the web app (their password), not with the device's key.
    const recording = (value: boolean) =>
      api('/user/preferences/stats.recording', { method: 'PUT', auth: { basic: reader }, json: { value } });
    expect((await recording(false)).status).toBe(200);

    const paused = await upload(auth, fixture('library'));
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body).toMatchObject({
      accepted: 3,
      alreadyKnown: 0,
      measuredMs: SAGA_SITTINGS_MS[0] + SAGA_SITTINGS_MS[1] + 4 * 2 * MINUTE,
    });
    expect(await rowsOf('reading_sessions')).toBe(0);
    expect(await rowsOf('reading_session_receipts')).toBe(0);
    expect((await stats(auth)).summary).toMatchObject({ sessions: 0, duration: { totalMs: 0 } });
    expect((await api('/reading-sessions/export', { auth })).body).toEqual([]);

    // Recording again, the same file is news: nothing of it was taken while paused.
    expect((await recording(true)).status).toBe(200);
    expect((await upload(auth, fixture('library'))).body).toMatchObject({ accepted: 3, alreadyKnown: 0 });
    const recorded = await stats(auth);
    expect(recorded.summary).toMatchObject({ sessions: 3, duration: { measuredMs: 1_530_000 } });

    // Paused again, sending it once more changes nothing that was kept.
    expect((await recording(false)).status).toBe(200);
    expect((await upload(auth, fixture('library'))).status).toBe(200);
    expect(await stats(auth)).toEqual(recorded);
    expect(await rowsOf('reading_session_receipts')).toBe(3);
  });

  it('a sitting that overlaps one KOReader sync opened takes its place on that device, its inferred time replaced', async () => {
    const { auth, key, reader } = await catalog();
    const mine = sql`user_id = ${reader.id}`;
    // KOReader's sync pushes its position twice, a minute apart (its own device id), inferring a minute…
    for (const page of [3, 6]) {
      const pushed = await SELF.fetch('http://longbox.test/koreader/syncs/progress', {
        method: 'PUT',
        headers: {
          accept: 'application/vnd.koreader.v1+json',
          'content-type': 'application/json',
          'x-auth-user': key.key,
          'x-auth-key': 'unused',
          'User-Agent': 'KOReader/2024.11 (Kobo)',
        },
        body: JSON.stringify({
          document: KOREADER_HASHES.saga,
          progress: String(page),
          percentage: page / 100,
          device: 'Kobo Libra 2',
          device_id: 'KOBO-7',
        }),
      });
      expect(pushed.status).toBe(200);
      await db.run(
        sql`UPDATE reading_sessions SET ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', ended_at, '-60 seconds') WHERE ${mine}`,
      );
    }
    // …during Saga's first sitting of the fixture (its writes moved there).
    await db.run(sql`UPDATE reading_sessions SET started_at = ${new Date((KOREADER_BASE + 120) * 1000).toISOString()},
      ended_at = ${new Date((KOREADER_BASE + 240) * 1000).toISOString()}, inferred_ms = 120000 WHERE ${mine}`);
    expect((await stats(auth)).summary.duration).toMatchObject({ measuredMs: 0, inferredMs: 120_000 });

    expect((await upload(auth, fixture('library'))).body.accepted).toBe(3);
    const devices = Object.fromEntries(
      (await stats(auth)).devices.map((d: any) => [d.deviceId, [d.deviceName, d.duration, d.sessions]]),
    );
    expect(devices).toEqual({
      'koreader:KOBO-7': ['Kobo Libra 2', { measuredMs: 600_000, inferredMs: 0, totalMs: 600_000 }, 1],
      [`api-key:${key.id}`]: ['Libra KOReader', { measuredMs: 930_000, inferredMs: 0, totalMs: 930_000 }, 2],
    });
    // Sent again, the sitting keeps its figures: still ten minutes, not twenty.
    expect((await upload(auth, fixture('library'))).body.alreadyKnown).toBe(3);
    expect((await stats(auth)).summary.duration.measuredMs).toBe(1_530_000);
  });

  it('garbage, a cut file, another database, an old one, a form or nothing: a 400 saying why; too large: 413', async () => {
    const { reader, auth } = await catalog();
    const library = fixture('library');
    const cases: Array<[BodyInit, RegExp, Record<string, string>?]> = [
      [new TextEncoder().encode('PK\u0003\u0004 this is a zip, not a database'), /not a SQLite database/],
      [library.slice(0, 3 * 1024 + 10), /cut short|not a whole number/],
      [library.slice(0, 3 * 1024), /cut short/],
      [fixture('other'), /not KOReader's statistics \(it has no page_stat_data table\)/],
      [fixture('old'), /from before 2020.*open a book in a current KOReader/],
      [new Uint8Array(0), /is empty/],
    ];
    for (const [body, message, headers] of cases) {
      const answer = await upload(auth, body, headers);
      expectError(answer, 400, 'BadRequest');
      expect(answer.body.message).toMatch(message);
    }
    const form = new FormData();
    form.append('file', new Blob([library]), 'statistics.sqlite3');
    const multipart = await api('/reading-sessions/koreader', { method: 'POST', auth, body: form });
    expectError(multipart, 400, 'BadRequest');
    expect(multipart.body.message).toMatch(/--data-binary/);

    // Over 32 MiB: refused by its declared length before it is read, and a chunked body cut off as it passes.
    const large = await upload(auth, new Uint8Array(32 * 1024 * 1024 + 1));
    expectError(large, 413, 'PayloadTooLarge');
    expect(large.body.message).toMatch(/32 MiB/);
    let sent = 0;
    const chunk = new Uint8Array(1024 * 1024);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 40) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const chunked = await SELF.fetch('http://longbox.test/api/v1/reading-sessions/koreader', {
      method: 'POST',
      headers: { 'X-API-Key': (auth as { apiKey: string }).apiKey, 'Content-Type': 'application/octet-stream' },
      body: stream,
    });
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { error: string }).error).toBe('PayloadTooLarge');
    expect(sent).toBeLessThan(40);
    expect(await db.select().from(readingSessions).where(eq(readingSessions.userId, reader.id))).toEqual([]);
  });
});

describe("a Kobo's SpentReadingMinutes (issue 35 point 2)", () => {
  it('10 then 25 minutes are 25 measured minutes on the Kobo; a total that does not grow adds nothing', async () => {
    const { auth: admin } = await setupAdmin();
    const libraryId = await createLibrary(admin);
    const pages = Array.from({ length: 5 }, (_, i) => ({ name: `00${i + 1}.jpg`, data: jpeg(64, 96, { seed: i }) }));
    await putObject('comics/Saga/Saga 001.cbz', buildZip(pages));
    const done = await scan(admin, libraryId);
    await waitForTasks(admin, libraryId, { since: done.completedAt ?? '' });
    const book = (await api(`/books?library_id=${libraryId}`, { auth: admin })).body.data[0] as { id: string };
    const user = await createUser(admin, { role: 'reader' });
    const key = await createApiKey({ basic: user }, { name: 'Kobo Libra Colour' });
    const device = new KoboDevice(key.key);
    await device.sync();
    const reader: Credentials = { basic: user };
    const now = `?from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 86_400_000).toISOString()}`;
    const measured = async () => {
      const body = await stats(reader, now);
      return body.devices.map((d: any) => [d.deviceId, d.deviceName, d.duration.measuredMs, d.duration.inferredMs]);
    };

    for (const [percent, minutes] of [
      [20, 10],
      [40, 25],
    ] as const) {
      const put = await device.putState(book.id, {
        status: 'Reading',
        progressPercent: percent,
        spentReadingMinutes: minutes,
      });
      expect(put.status).toBe(200);
    }
    expect(await measured()).toEqual([[`api-key:${key.id}`, 'Kobo Libra Colour', 25 * MINUTE, 0]]);
    // The sitting reaches back the 25 minutes the device counted.
    const [sitting] = await db.select().from(readingSessions).where(eq(readingSessions.userId, user.id));
    expect(Date.parse(sitting?.endedAt as string) - Date.parse(sitting?.startedAt as string)).toBeGreaterThanOrEqual(
      25 * MINUTE,
    );

    // The same total again, then a lower one (the device was reset): nothing; from there, 8 is 3 more.
    for (const minutes of [25, 5, 8]) {
      expect(
        (await device.putState(book.id, { status: 'Reading', progressPercent: 60, spentReadingMinutes: minutes }))
          .status,
      ).toBe(200);
    }
    expect(await measured()).toEqual([[`api-key:${key.id}`, 'Kobo Libra Colour', 28 * MINUTE, 0]]);
  });
});
