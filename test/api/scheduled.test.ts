/**
 * API.md §2 Library scanning_config: cron_schedule scans and scan_on_start, run by the worker's cron
 * trigger; plus the hourly clean-up of expired sessions, throttle windows, old authentication activity and
 * orphaned cached images.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { api, type Credentials } from '../support/http';
import { setupAdmin } from '../support/factories';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan, waitForScan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

async function tick(at: string) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: '* * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe('scheduled scans (API.md §2 scanning_config)', () => {
  it('starts a scan when the cron schedule matches the minute, and not otherwise', async () => {
    const { auth } = await setupAdmin();
    const hourly = await createLibrary(auth, {
      name: 'Hourly',
      path: 'hourly',
      scanning_config: { enabled: true, cron_schedule: '15 * * * *', default_mode: 'normal', scan_on_start: false },
    });
    const disabled = await createLibrary(auth, {
      name: 'Disabled',
      path: 'disabled',
      scanning_config: { enabled: false, cron_schedule: '15 * * * *', default_mode: 'normal', scan_on_start: false },
    });
    await putObject('hourly/A/a.cbz', await makeCbz(1));

    await tick('2026-11-21T10:14:00Z');
    expect((await api(`/libraries/${hourly}/scan-status`, { auth })).body.status).toBe('idle');

    await tick('2026-11-21T10:15:00Z');
    const scanned = await waitForScan(auth, hourly);
    expect(scanned).toMatchObject({ status: 'completed', booksAdded: 1 });
    expect((await api(`/libraries/${disabled}/scan-status`, { auth })).body.status).toBe('idle');
  });

  it('scans scan_on_start libraries once per deployed version', async () => {
    const { auth } = await setupAdmin();
    const onStart = await createLibrary(auth, {
      name: 'OnStart',
      path: 'onstart',
      scanning_config: { enabled: true, cron_schedule: null, default_mode: 'normal', scan_on_start: true },
    });
    await putObject('onstart/A/a.cbz', await makeCbz(1));
    const { runStartupScans } = await import('../../src/services/scheduled-scans');
    const { createD1Database } = await import('../../src/db/client');
    const db = createD1Database(env.DB);
    expect(await runStartupScans(db, env, 'version-1')).toEqual([onStart]);
    await waitForScan(auth, onStart);
    expect(await runStartupScans(db, env, 'version-1')).toEqual([]);
    expect(await runStartupScans(db, env, 'version-2')).toEqual([onStart]);
    await waitForScan(auth, onStart);
  });
});

describe('hourly clean-up', () => {
  it('removes expired sessions and ended throttle windows at the top of the hour', async () => {
    await setupAdmin();
    await env.DB.prepare(
      "INSERT INTO login_attempts (key, failures, window_started_at) VALUES ('user:ghost', 3, '2020-01-01T00:00:00.000Z')",
    ).run();
    const before = await env.DB.prepare('SELECT count(*) AS n FROM sessions').first<{ n: number }>();
    expect(before?.n).toBe(1);
    await tick('2100-01-01T00:00:00Z'); // far future: every session has expired by then
    const sessions = await env.DB.prepare('SELECT count(*) AS n FROM sessions').first<{ n: number }>();
    const attempts = await env.DB.prepare('SELECT count(*) AS n FROM login_attempts').first<{ n: number }>();
    expect(sessions?.n).toBe(0);
    expect(attempts?.n).toBe(0);
  });

  it('keeps authentication activity 30 days and 50,000 rows at most', async () => {
    await setupAdmin();
    const count = async (where = '1') =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM authentication_activity WHERE ${where}`).first<{ n: number }>())
        ?.n;
    expect((await api('/auth/login', { json: { username: 'admin', password: 'not it at all' } })).status).toBe(401);
    expect(await count()).toBe(1);
    const day = 86_400_000;
    const nextHour = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
    // 50,001 failed sign-ins of a made-up name, one every 30 s from a day ago (about 18 days back); then the
    // first of them moved to 40 days ago.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 50000)
       INSERT INTO authentication_activity (id, email, success, error, source, date_time)
       SELECT 'row-' || i, 'sprayed', 0, 'Invalid username or password', 'Password',
              strftime('%Y-%m-%dT%H:%M:%fZ', ?1 / 1000.0 - i * 30, 'unixepoch')
       FROM n`,
    )
      .bind(nextHour.getTime() - day)
      .run();
    await env.DB.prepare("UPDATE authentication_activity SET date_time = ?1 WHERE id = 'row-0'")
      .bind(new Date(nextHour.getTime() - 40 * day).toISOString())
      .run();
    expect(await count()).toBe(50_002);

    await tick(nextHour.toISOString());
    expect(await count()).toBe(50_000);
    expect(await count("id = 'row-0'")).toBe(0); // older than 30 days
    expect(await count("id = 'row-50000'")).toBe(0); // the oldest left, beyond the newest 50,000
    expect(await count("id = 'row-49999'")).toBe(1);
    expect(await count("email = 'admin@example.com'")).toBe(1); // the real, recent one stays
  });
});

describe('hourly clean-up of the CACHE bucket', () => {
  /** A scanned library whose books have their thumbnails (scan follow-up task) and one page rendition each. */
  async function libraryWithImages(auth: Credentials, path: string, files: string[]) {
    const libraryId = await createLibrary(auth, { name: path, path });
    for (const name of files) await putObject(`${path}/${name}`, await makeCbz(2));
    const scanned = await scan(auth, libraryId);
    await waitForTasks(auth, libraryId, { since: scanned.completedAt });
    const books = (await api(`/books?library_id=${libraryId}`, { auth })).body.data as Array<{
      id: string;
      title: string;
    }>;
    for (const book of books) {
      expect((await api(`/books/${book.id}/pages/1?width=20&format=webp`, { auth })).status).toBe(200);
    }
    return { libraryId, books };
  }

  const cachedKeysOf = async (bookId: string) => [
    ...(await env.CACHE.list({ prefix: `pages/${bookId}/` })).objects.map((o) => o.key),
    ...(await env.CACHE.list({ prefix: `thumbnails/books/${bookId}` })).objects.map((o) => o.key),
  ];

  it("removes a deleted library's thumbnails and renditions within 16 hours, and keeps those of live and trashed books", async () => {
    const { auth } = await setupAdmin();
    const removed = await libraryWithImages(auth, 'removed', ['A/A 1.cbz', 'B/B 1.cbz']);
    const kept = await libraryWithImages(auth, 'kept', ['C/C 1.cbz', 'D/D 1.cbz']);
    for (const book of [...removed.books, ...kept.books]) expect(await cachedKeysOf(book.id)).toHaveLength(2);

    // One kept book goes to the trash: its row stays (it may come back), so do its images.
    await env.LIBRARY.delete('kept/D/D 1.cbz');
    await scan(auth, kept.libraryId);
    const trashed = kept.books.find((book) => book.title === 'D 1');
    expect((await api(`/books/${trashed?.id}`, { auth })).body.deleted).toBe(true);

    expect((await api(`/libraries/${removed.libraryId}`, { auth, method: 'DELETE' })).status).toBe(204);
    // Deleting the library leaves its images behind; the sweep takes one slice of the bucket per hour.
    for (const book of removed.books) expect(await cachedKeysOf(book.id)).toHaveLength(2);
    for (let hour = 0; hour < 16; hour++) await tick(new Date(Date.UTC(2026, 10, 21, hour)).toISOString());

    for (const book of removed.books) expect(await cachedKeysOf(book.id)).toEqual([]);
    for (const book of kept.books) expect(await cachedKeysOf(book.id)).toHaveLength(2);
    // The user's files are never touched.
    expect(await env.LIBRARY.head('removed/A/A 1.cbz')).not.toBeNull();
    expect(await env.LIBRARY.head('kept/C/C 1.cbz')).not.toBeNull();
  });

  it('sweeps only at the top of the hour', async () => {
    const { auth } = await setupAdmin();
    const removed = await libraryWithImages(auth, 'removed', ['A/A 1.cbz']);
    expect((await api(`/libraries/${removed.libraryId}`, { auth, method: 'DELETE' })).status).toBe(204);
    for (let minute = 1; minute < 60; minute += 7) {
      for (let hour = 0; hour < 16; hour++) await tick(new Date(Date.UTC(2026, 10, 21, hour, minute)).toISOString());
    }
    expect(await cachedKeysOf(removed.books[0]?.id ?? '')).toHaveLength(2);
  });
});
