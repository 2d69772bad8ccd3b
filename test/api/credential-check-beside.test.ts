/**
 * The credential check beside the request (docs/ARCHITECTURE.md, "The credential check beside the request";
 * DECISIONS.md §Far readers; issue 30 point 2): a request whose credential this isolate checked before starts
 * its handler as the principal it found then, while the credential is checked again; nothing computed before
 * the check reaches a caller it refuses, and nothing computed for an older state of the caller's access is
 * sent. Every request goes through the real worker (test/support/faults.ts), whose platform seam records the
 * D1 statements and R2 reads each request made, so a test can tell that the speculative read really ran.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { koboDeviceBooks, readingSessions, readingStatistics, readProgress } from '../../src/db/schema';
import { db, seedBook, seedLibrary, seedSeries } from '../support/catalog-factory';
import { ADMIN, createUser, setupAdmin } from '../support/factories';
import { faultyWorker, type FaultyWorker } from '../support/faults';
import { seedKoboBooks } from '../support/kobo-library';
import { api, type Credentials } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

/** The worker with every D1 statement and LIBRARY read recorded; `fail` refuses the statements it matches. */
function recordingWorker(fail?: (sql: string[]) => Error | undefined) {
  const statements: string[][] = [];
  const libraryReads: string[] = [];
  const worker = faultyWorker({
    d1: ({ sql }) => {
      statements.push(sql);
      return fail?.(sql);
    },
    r2Get: ({ bucket, key }) => {
      if (bucket === 'LIBRARY') libraryReads.push(key);
      return undefined;
    },
  });
  return {
    worker,
    statements,
    libraryReads,
    /** Forgets what earlier requests recorded, once their work after the answer is done. */
    async reset() {
      await worker.settle();
      statements.length = 0;
      libraryReads.length = 0;
    },
  };
}

async function json(worker: FaultyWorker, path: string, auth: Credentials, init: RequestInit = {}) {
  const res = await worker.fetch(path, { ...init, auth });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

async function newKey(
  worker: FaultyWorker,
  owner: Credentials,
  body: Record<string, unknown> = { name: 'reader app' },
) {
  const res = await json(worker, '/api-keys', owner, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${res.text}`);
  return { id: res.body.id as string, auth: { apiKey: res.body.key as string } as Credentials };
}

/** The statements of a request other than the credential check (the key's, a session's or a user's row). */
const catalogReads = (statements: string[][]) =>
  statements.filter((batch) => batch.some((sql) => /"series"/.test(sql) && !/"api_keys"|"sessions"/.test(sql)));

describe('a revoked credential whose request already started (DECISIONS.md §Far readers)', () => {
  it('answers 401 without a byte of the series list the speculative read fetched', async () => {
    await setupAdmin();
    const library = await seedLibrary();
    await seedSeries(library, { title: 'Nightshade Archive' });
    const { worker, statements, reset } = recordingWorker();
    const admin = await worker.signIn(ADMIN);
    const key = await newKey(worker, admin);

    const first = await json(worker, '/series', key.auth);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Nightshade Archive');

    expect((await json(worker, `/api-keys/${key.id}`, admin, { method: 'DELETE' })).status).toBe(204);
    await reset();
    const refused = await json(worker, '/series', key.auth);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'Unauthorized', message: 'Invalid API key' });
    expect(refused.text).not.toContain('Nightshade');
    expect(refused.headers.get('WWW-Authenticate')).toContain('Basic');
    // The list was read as the remembered principal while the key was checked: the data existed, and stayed in.
    expect(catalogReads(statements).length).toBeGreaterThan(0);
  });

  it('answers 401 to a page read whose bytes already came from R2: no page header, no byte, nothing left in the edge cache', async () => {
    const { auth: selfAdmin } = await setupAdmin();
    const libraryId = await createLibrary(selfAdmin, { name: 'Pages', path: 'spec-pages' });
    const file = 'spec-pages/Series/Book.cbz';
    await putObject(file, await makeCbz(3));
    const scanned = await scan(selfAdmin, libraryId);
    await waitForTasks(selfAdmin, libraryId, { since: scanned.completedAt });
    const { worker, libraryReads, reset } = recordingWorker();
    const admin = await worker.signIn(ADMIN);
    const books = await json(worker, `/books?library_id=${libraryId}`, admin);
    const bookId = books.body.data[0].id as string;
    const key = await newKey(worker, admin);

    // Remembered by a first read (page 1, which the edge cache now keeps).
    const page1 = await worker.fetch(`/books/${bookId}/pages/1`, { auth: key.auth });
    expect(page1.status).toBe(200);
    await page1.arrayBuffer();
    expect((await json(worker, `/api-keys/${key.id}`, admin, { method: 'DELETE' })).status).toBe(204);

    await reset();
    const refused = await worker.fetch(`/books/${bookId}/pages/2`, { auth: key.auth });
    const body = await refused.text();
    expect(refused.status).toBe(401);
    expect(JSON.parse(body)).toMatchObject({ error: 'Unauthorized' });
    expect(refused.headers.get('Content-Type')).toContain('application/json');
    for (const header of ['ETag', 'X-Longbox-Cache', 'Last-Modified', 'Cache-Control']) {
      expect(refused.headers.get(header), header).toBeNull();
    }
    // The page was read from the book file as the remembered principal...
    expect(libraryReads).toContain(file);
    // ...and what the handler left for after its answer (filling the edge cache) never started.
    await reset();
    const again = await worker.fetch(`/books/${bookId}/pages/2`, { auth: admin });
    expect(again.status).toBe(200);
    expect(again.headers.get('X-Longbox-Cache')).toBe('miss');
    await again.arrayBuffer();
    const cached = await worker.fetch(`/books/${bookId}/pages/1`, { auth: admin });
    expect(cached.headers.get('X-Longbox-Cache')).toBe('hit');
    await cached.arrayBuffer();
  }, 60_000);

  it('refuses an ended session at once although its principal is remembered', async () => {
    await setupAdmin();
    const library = await seedLibrary();
    await seedSeries(library, { title: 'Quiet Harbour' });
    const { worker } = recordingWorker();
    const session = await worker.signIn(ADMIN);
    expect((await json(worker, '/series', session)).status).toBe(200);
    expect((await json(worker, '/auth/logout', session, { method: 'POST' })).status).toBe(204);
    const refused = await json(worker, '/series', session);
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('Quiet Harbour');
  });
});

describe('a write that reads beside the check (checked-writes: DECISIONS.md §Far readers, "Writes wait for the check")', () => {
  it('reads as the remembered key while it is checked, and writes nothing once the check refuses it', async () => {
    await setupAdmin();
    const library = await seedLibrary();
    const followed = await seedSeries(library, { title: 'Paper Lantern' });
    const { worker, statements, reset } = recordingWorker();
    const admin = await worker.signIn(ADMIN);
    const key = await newKey(worker, admin);
    const track = (auth: Credentials, body: unknown) =>
      json(worker, `/series/${followed.id}/tracking`, auth, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await track(key.auth, { trackVolumes: false })).status).toBe(200);

    expect((await json(worker, `/api-keys/${key.id}`, admin, { method: 'DELETE' })).status).toBe(204);
    await reset();
    const refused = await track(key.auth, { tracked: true });
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('Paper Lantern');
    // The series was read beside the check, as the remembered key...
    expect(catalogReads(statements).length).toBeGreaterThan(0);
    // ...and nothing was written: not the tracking, nor the aliases and polls turning it on would seed.
    const writes = statements.flat().filter((sql) => /^\s*(insert|update|delete)\b/i.test(sql));
    expect(writes.filter((sql) => /"(series_tracking|series_aliases|release_polls)"/.test(sql))).toEqual([]);
    const after = await json(worker, `/series/${followed.id}/tracking`, admin);
    expect(after.body).toMatchObject({ tracked: false, trackVolumes: false, sources: [] });
  });
});

describe('access changed since the isolate remembered the caller', () => {
  it('never serves the series of a library taken away: the speculative answer is made again as the checked caller', async () => {
    await setupAdmin();
    const kept = await seedLibrary({ name: 'Kept' });
    const taken = await seedLibrary({ name: 'Taken' });
    await seedSeries(kept, { title: 'Lantern Street' });
    const hidden = await seedSeries(taken, { title: 'Beacon Hollow' });
    const { worker, statements, reset } = recordingWorker();
    const admin = await worker.signIn(ADMIN);
    const reader = await createUserThrough(worker, admin);
    const grant = (ids: string[]) =>
      json(worker, `/users/${reader.id}`, admin, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ sharedAllLibraries: false, sharedLibraryIds: ids }),
      });
    expect((await grant([kept.id, taken.id])).status).toBe(200);
    const key = await newKey(worker, reader.auth, { name: 'tablet' });

    expect((await json(worker, `/series/${hidden.id}`, key.auth)).status).toBe(200);
    expect((await json(worker, '/series', key.auth)).text).toContain('Beacon Hollow');

    expect((await grant([kept.id])).status).toBe(200);
    await reset();
    const detail = await json(worker, `/series/${hidden.id}`, key.auth);
    expect(detail.status).toBe(404);
    expect(detail.text).not.toContain('Beacon');
    // Read twice: once as the remembered principal (who still saw it), once as the checked one.
    expect(catalogReads(statements)).toHaveLength(2);

    const list = await json(worker, '/series', key.auth);
    expect(list.status).toBe(200);
    expect(list.text).toContain('Lantern Street');
    expect(list.text).not.toContain('Beacon');
  });

  it('answers with the permissions the caller has now: a demoted key owner gets the 403 the check implies', async () => {
    await setupAdmin();
    const { worker } = recordingWorker();
    const admin = await worker.signIn(ADMIN);
    const maintainer = await createUserThrough(worker, admin, 'maintainer');
    const key = await newKey(worker, maintainer.auth, { name: 'maintenance' });
    expect((await json(worker, '/tasks', key.auth)).status).toBe(200);
    const demoted = await json(worker, `/users/${maintainer.id}`, admin, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ role: 'reader' }),
    });
    expect(demoted.status).toBe(200);
    const refused = await json(worker, '/tasks', key.auth);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'Forbidden' });
  });
});

describe('progress writes made beside the check (their statements test the credential)', () => {
  const writes = (statements: string[][]) =>
    statements.filter((batch) => batch.some((sql) => /^insert into "read_progress"/i.test(sql)));

  async function readerWithBook() {
    await setupAdmin();
    const kept = await seedLibrary({ name: 'Kept' });
    const taken = await seedLibrary({ name: 'Taken' });
    const keptBook = await seedBook(await seedSeries(kept, { title: 'Lantern Street' }), { pageCount: 20 });
    const takenBook = await seedBook(await seedSeries(taken, { title: 'Beacon Hollow' }), {
      pageCount: 20,
      readerHash: 'c0ffee'.padEnd(32, '0'),
    });
    const recording = recordingWorker();
    const admin = await recording.worker.signIn(ADMIN);
    const reader = await createUserThrough(recording.worker, admin);
    const grant = (body: Record<string, unknown>) =>
      json(recording.worker, `/users/${reader.id}`, admin, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await grant({ sharedAllLibraries: false, sharedLibraryIds: [kept.id, taken.id] })).status).toBe(200);
    const key = await newKey(recording.worker, reader.auth, { name: 'tablet' });
    const put = (bookId: string, page: number) =>
      json(recording.worker, `/books/${bookId}/progress`, key.auth, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ current_page: page }),
      });
    const stored = async (bookId: string) =>
      (await db.select().from(readProgress).where(eq(readProgress.bookId, bookId)).all()).map((r) => r.currentPage);
    // Reading statistics fold each write into a sitting in the write's own statement (DECISIONS.md §Reading
    // statistics): a refused write leaves the sitting where the last accepted write left it.
    const sittings = async (bookId: string) =>
      (await db.select().from(readingSessions).where(eq(readingSessions.bookId, bookId)).all()).map((r) => r.lastPage);
    return { ...recording, admin, reader, key, grant, put, stored, sittings, kept, taken, keptBook, takenBook };
  }

  it('a key revoked meanwhile writes nothing and answers 401, though the write was tried', async () => {
    const t = await readerWithBook();
    expect((await t.put(t.keptBook.id, 3)).status).toBe(200);
    expect((await json(t.worker, `/api-keys/${t.key.id}`, t.reader.auth, { method: 'DELETE' })).status).toBe(204);
    await t.reset();
    const refused = await t.put(t.keptBook.id, 9);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'Unauthorized' });
    expect(writes(t.statements)).toHaveLength(1);
    expect(await t.stored(t.keptBook.id)).toEqual([3]);
    expect(await t.sittings(t.keptBook.id)).toEqual([3]);
  });

  it('access to the book taken away: nothing written as the remembered reader, and the checked one gets 404', async () => {
    const t = await readerWithBook();
    expect((await t.put(t.takenBook.id, 2)).status).toBe(200);
    expect((await t.grant({ sharedLibraryIds: [t.kept.id] })).status).toBe(200);
    await t.reset();
    const refused = await t.put(t.takenBook.id, 5);
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain('Beacon');
    // Tried as the remembered principal (the guard wrote nothing), then made again as the checked one.
    expect(writes(t.statements)).toHaveLength(2);
    expect(await t.stored(t.takenBook.id)).toEqual([2]);
    expect(await t.sittings(t.takenBook.id)).toEqual([2]);
  });

  it('a change that still lets the reader see the book: written once, by the checked caller', async () => {
    const t = await readerWithBook();
    expect((await t.put(t.keptBook.id, 2)).status).toBe(200);
    expect((await t.grant({ ageRestriction: { age: 18, restriction: 'EXCLUDE' } })).status).toBe(200);
    await t.reset();
    const written = await t.put(t.keptBook.id, 6);
    expect(written.status).toBe(200);
    expect(written.body).toMatchObject({ currentPage: 6 });
    expect(writes(t.statements)).toHaveLength(2);
    expect(await t.stored(t.keptBook.id)).toEqual([6]);
    expect(await t.sittings(t.keptBook.id)).toEqual([6]);
  });

  it('nothing changed: the write goes beside the check, with no read of the book before it', async () => {
    const t = await readerWithBook();
    expect((await t.put(t.keptBook.id, 2)).status).toBe(200);
    await t.reset();
    const written = await t.put(t.keptBook.id, 4);
    expect(written.status).toBe(200);
    // The key's statement and the write's batch: nothing else.
    expect(t.statements).toHaveLength(2);
    expect(writes(t.statements)).toHaveLength(1);
    expect(await t.stored(t.keptBook.id)).toEqual([4]);
    const outOfRange = await t.put(t.keptBook.id, 21);
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body.details).toEqual([{ path: 'current_page', message: 'must be between 1 and 20' }]);
    expect(await t.stored(t.keptBook.id)).toEqual([4]);
    expect(await t.sittings(t.keptBook.id)).toEqual([4]);
  });

  it("KOReader's push with a key revoked meanwhile writes nothing and answers KOReader's 401", async () => {
    const t = await readerWithBook();
    const push = (progress: string) =>
      json(t.worker, '/koreader/syncs/progress', t.key.auth, {
        method: 'PUT',
        headers: {
          accept: 'application/vnd.koreader.v1+json',
          'x-auth-user': (t.key.auth as { apiKey: string }).apiKey,
          'x-auth-key': 'x',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ document: t.takenBook.readerHash, progress, percentage: 0.2, device: 'Kobo' }),
      });
    expect((await push('4')).status).toBe(200);
    expect((await json(t.worker, `/api-keys/${t.key.id}`, t.reader.auth, { method: 'DELETE' })).status).toBe(204);
    await t.reset();
    const refused = await push('8');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ code: 2001, message: 'Unauthorized' });
    expect(writes(t.statements)).toHaveLength(1);
    expect(await t.stored(t.takenBook.id)).toEqual([4]);
    expect(await t.sittings(t.takenBook.id)).toEqual([4]);
  });
});

/** A Kobo's refusal: the same 401 whatever the reason (DECISIONS.md §Kobo e-readers, the device and its key). */
const KOBO_REFUSAL = {
  error: 'Unauthorized',
  message: 'This Kobo sync URL is not valid: its API key is unknown, revoked or expired',
};

describe('a Kobo beside its key’s check (the key is in its URL: DECISIONS.md §Kobo e-readers)', () => {
  /** One scanned comic (its cover made), a reader, and the Kobo requests of it. */
  async function koboLibrary() {
    const { auth: selfAdmin } = await setupAdmin();
    const libraryId = await createLibrary(selfAdmin, { name: 'Kobo shelf', path: 'kobo-shelf' });
    const file = 'kobo-shelf/Harbour Lights/Harbour Lights 001.cbz';
    await putObject(file, await makeCbz(3));
    const scanned = await scan(selfAdmin, libraryId);
    await waitForTasks(selfAdmin, libraryId, { since: scanned.completedAt });
    const recording = recordingWorker();
    const admin = await recording.worker.signIn(ADMIN);
    const books = await json(recording.worker, `/books?library_id=${libraryId}`, admin);
    const bookId = books.body.data[0].id as string;
    const reader = await createUserThrough(recording.worker, admin);
    const kobo = (key: Credentials, path: string, init: RequestInit = {}) =>
      recording.worker.fetch(`/kobo/${(key as { apiKey: string }).apiKey}/v1${path}`, init);
    const putState = (key: Credentials, status: string, percent: number, minutes: number) =>
      kobo(key, `/library/${bookId}/state`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          ReadingStates: [
            {
              StatusInfo: { Status: status },
              CurrentBookmark: { ProgressPercent: percent, Location: { Source: 'OEBPS/page-0002.xhtml' } },
              Statistics: { SpentReadingMinutes: minutes },
            },
          ],
        }),
      });
    const stored = async () =>
      (await db.select().from(readProgress).where(eq(readProgress.bookId, bookId)).all()).map((r) => r.currentPage);
    const minutesRead = async () =>
      (await db.select().from(readingStatistics).where(eq(readingStatistics.bookId, bookId)).all()).map(
        (r) => r.spentReadingMinutes,
      );
    const sittings = async () =>
      (await db.select().from(readingSessions).where(eq(readingSessions.bookId, bookId)).all()).map((r) => r.lastPage);
    return { ...recording, admin, reader, file, bookId, kobo, putState, stored, minutesRead, sittings };
  }

  it('a key revoked meanwhile: metadata, state, download and cover answer the 401 without a byte of the book', async () => {
    const t = await koboLibrary();
    // What each reads beside the check: the book as the device gets it; the download's book, file and pages; the cover.
    const calls: Array<[string, string, RegExp]> = [
      ['metadata', `/library/${t.bookId}/metadata`, /kobo_device_books/],
      ['reading state', `/library/${t.bookId}/state`, /kobo_device_books/],
      ['download', `/books/${t.bookId}/file/epub`, /"book_pages"/],
      ['cover', `/books/${t.bookId}/thumbnail/120/160/false/image.jpg`, /from "books"/],
    ];
    // One key per call, each remembered by a first read (a refused check forgets the key in the isolate).
    const keys = [];
    for (const [what, path] of calls) {
      const key = await newKey(t.worker, t.reader.auth, { name: `Kobo ${what}` });
      const first = await t.kobo(key.auth, path);
      expect(first.status, what).toBe(200);
      await first.arrayBuffer();
      keys.push(key);
    }
    for (const key of keys) {
      expect((await json(t.worker, `/api-keys/${key.id}`, t.reader.auth, { method: 'DELETE' })).status).toBe(204);
    }
    for (const [i, [what, path, read]] of calls.entries()) {
      await t.reset();
      const refused = await t.kobo((keys[i] as { auth: Credentials }).auth, path);
      const body = await refused.text();
      expect(refused.status, what).toBe(401);
      expect(JSON.parse(body), what).toEqual({ ...KOBO_REFUSAL, details: null });
      expect(refused.headers.get('Content-Type'), what).toContain('application/json');
      for (const header of [
        'ETag',
        'Content-Disposition',
        'Content-Range',
        'Last-Modified',
        'Cache-Control',
        'X-Longbox-Cache',
      ]) {
        expect(refused.headers.get(header), `${what}: ${header}`).toBeNull();
      }
      expect(body, what).not.toContain('Harbour');
      // The book was read as the remembered reader while the key was checked: the data existed, and stayed in.
      expect(
        t.statements.some((batch) => batch.some((sql) => read.test(sql))),
        `${what} read beside the check`,
      ).toBe(true);
    }
  }, 60_000);

  it('a reading state with the account disabled meanwhile writes nothing (progress, reading time, sitting) and answers the 401', async () => {
    const t = await koboLibrary();
    const key = await newKey(t.worker, t.reader.auth, { name: 'Kobo Libra' });
    expect((await t.putState(key.auth, 'Reading', 40, 5)).status).toBe(200);
    expect(await t.stored()).toEqual([2]);
    const disabled = await json(t.worker, `/users/${t.reader.id}`, t.admin, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ isActive: false }),
    });
    expect(disabled.status).toBe(200);
    await t.reset();
    const refused = await t.putState(key.auth, 'Finished', 100, 9);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ ...KOBO_REFUSAL, details: null });
    // The write was tried as the remembered reader, and its statements found the account disabled.
    expect(t.statements.some((batch) => batch.some((sql) => /^insert into "read_progress"/i.test(sql)))).toBe(true);
    expect(await t.stored()).toEqual([2]);
    expect(await t.minutesRead()).toEqual([5]);
    expect(await t.sittings()).toEqual([2]);
  }, 60_000);

  it('nothing changed: the reading state is written beside the check, with no read of the book before it', async () => {
    const t = await koboLibrary();
    const key = await newKey(t.worker, t.reader.auth, { name: 'Kobo Sage' });
    expect((await t.putState(key.auth, 'Reading', 40, 5)).status).toBe(200);
    await t.reset();
    const written = await t.putState(key.auth, 'Finished', 100, 12);
    expect(written.status).toBe(200);
    expect(((await written.json()) as { RequestResult: string }).RequestResult).toBe('Success');
    // The key's statement and the write's batch: nothing else.
    expect(t.statements).toHaveLength(2);
    expect(await t.stored()).toEqual([3]);
    expect(await t.minutesRead()).toEqual([12]);
  }, 60_000);
});

describe('a Kobo’s sync beside its key’s check (its page is recorded in the same batch, guarded by the key)', () => {
  async function syncingReader() {
    await setupAdmin();
    const kept = await seedLibrary({ name: 'Kept' });
    const taken = await seedLibrary({ name: 'Taken' });
    const [keptBook] = await seedKoboBooks(kept, 1, 'Lantern');
    const [takenBook] = await seedKoboBooks(taken, 1, 'Beacon');
    const recording = recordingWorker();
    const admin = await recording.worker.signIn(ADMIN);
    const reader = await createUserThrough(recording.worker, admin);
    const key = await newKey(recording.worker, reader.auth, { name: 'Kobo Elipsa' });
    let token: string | null = null;
    /** One sync page as the device asks for it (with the token it kept), and what it sent. */
    const sync = async () => {
      const path = `/kobo/${(key.auth as { apiKey: string }).apiKey}/v1/library/sync`;
      const res = await recording.worker.fetch(path, { headers: token ? { 'x-kobo-synctoken': token } : {} });
      const text = await res.text();
      if (res.status === 200) token = res.headers.get('x-kobo-synctoken');
      const items =
        res.status === 200 ? (JSON.parse(text) as Array<Record<string, { BookEntitlement?: { Id: string } }>>) : [];
      const ids = (kind: string) =>
        items.flatMap((item) => (item[kind]?.BookEntitlement ? [item[kind].BookEntitlement.Id] : []));
      return { status: res.status, text, sent: ids('NewEntitlement'), removed: ids('ChangedEntitlement') };
    };
    const recorded = async () =>
      Object.fromEntries(
        (await db.select().from(koboDeviceBooks).where(eq(koboDeviceBooks.apiKeyId, key.id)).all()).map((row) => [
          row.bookId,
          row.state,
        ]),
      );
    const pageWrites = (statements: string[][]) =>
      statements.filter((batch) => batch.some((sql) => /^insert into "kobo_device_books"/i.test(sql)));
    return { ...recording, admin, reader, key, kept, taken, keptBook, takenBook, sync, recorded, pageWrites };
  }

  type SyncingReader = Awaited<ReturnType<typeof syncingReader>>;
  type SyncPage = Awaited<ReturnType<SyncingReader['sync']>>;

  /**
   * After a first sync (both books sent), a new book in one of the reader's libraries and, unless nothing changed,
   * the reader's access changed by the admin (`access`: PUT /users/{id}); then the next sync page, made beside the
   * key's check, and what it sent and recorded.
   */
  const cases: Array<{
    name: string;
    sequel: { library: 'kept' | 'taken'; title: string };
    access?: (t: SyncingReader) => Record<string, unknown>;
    /** What the next page must be (`first`: the first sync's page). */
    expectNext: (t: SyncingReader, next: SyncPage, first: SyncPage) => Promise<void>;
  }> = [
    {
      name: 'access taken away meanwhile: the page made as the remembered reader records nothing; the checked one removes the book',
      // A book the remembered reader would get, and the library it is in taken away.
      sequel: { library: 'taken', title: 'Beacon Sequel' },
      access: (t) => ({ sharedAllLibraries: false, sharedLibraryIds: [t.kept.id] }),
      expectNext: async (t, next, first) => {
        expect(sorted(first.sent)).toEqual(sorted([t.keptBook, t.takenBook]));
        expect(next.status).toBe(200);
        expect(next.sent).toEqual([]);
        expect(next.removed).toEqual([t.takenBook]);
        expect(next.text).not.toContain('Beacon');
        // Made twice: as the remembered reader beside the check (its guarded writes wrote nothing: no sequel
        // recorded), then as the checked one.
        expect(t.pageWrites(t.statements)).toHaveLength(2);
        expect(await t.recorded()).toEqual({ [t.keptBook as string]: 'sent', [t.takenBook as string]: 'removed' });
      },
    },
    {
      name: 'the account disabled meanwhile: the 401, and nothing of the page the remembered reader was given is recorded',
      sequel: { library: 'kept', title: 'Lantern Sequel' },
      access: () => ({ isActive: false }),
      expectNext: async (t, refused) => {
        expect(refused.status).toBe(401);
        expect(JSON.parse(refused.text)).toEqual({ ...KOBO_REFUSAL, details: null });
        expect(refused.text).not.toContain('Lantern');
        // The page was made and its record tried as the remembered reader; the sequel it sent was not recorded.
        expect(t.pageWrites(t.statements)).toHaveLength(1);
        expect(await t.recorded()).toEqual({ [t.keptBook as string]: 'sent', [t.takenBook as string]: 'sent' });
      },
    },
    {
      name: 'nothing changed: a sync page is the key’s statement and one batch',
      sequel: { library: 'kept', title: 'Lantern Sequel' },
      expectNext: async (t, next) => {
        expect(next.status).toBe(200);
        expect(next.sent).toHaveLength(1);
        expect(t.statements).toHaveLength(2);
      },
    },
  ];

  it.each(cases)(
    '$name',
    async ({ sequel, access, expectNext }) => {
      const t = await syncingReader();
      const first = await t.sync();
      await seedKoboBooks(t[sequel.library], 1, sequel.title);
      if (access) {
        const changed = await json(t.worker, `/users/${t.reader.id}`, t.admin, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(access(t)),
        });
        expect(changed.status).toBe(200);
      }
      await t.reset();
      await expectNext(t, await t.sync(), first);
    },
    60_000,
  );
});

/** The user's session rows. */
const sessionsOf = async (userId: string) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?').bind(userId).first<{ n: number }>())
    ?.n ?? 0;

describe("Komga's guard beside the check (a password sign-in gets a KOMGA-SESSION cookie)", () => {
  async function remembered() {
    const { auth: selfAdmin } = await setupAdmin();
    await seedSeries(await seedLibrary(), { title: 'Tidewater Ledger' });
    const reader = await createUser(selfAdmin);
    const { worker, statements, reset } = recordingWorker();
    const basic: Credentials = { basic: { username: reader.username, password: reader.password } };
    // Remembered by a first call (checked before its handler), which also gave the client a session.
    const first = await json(worker, '/komga/api/v1/series', basic);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Tidewater Ledger');
    await reset();
    // No session the next call could hand back: it would have to write one.
    await env.DB.prepare('DELETE FROM sessions WHERE user_id = ?').bind(reader.id).run();
    return { selfAdmin, reader, worker, statements, reset, basic };
  }

  it('a disabled account gets a 401 with nothing of the list read beside the check, and no session row', async () => {
    const { selfAdmin, reader, worker, statements, reset, basic } = await remembered();
    const disabled = await api(`/users/${reader.id}`, { method: 'PUT', auth: selfAdmin, json: { isActive: false } });
    expect(disabled.status).toBe(200);
    await reset();

    const refused = await json(worker, '/komga/api/v1/series', basic);
    await worker.settle();
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('Tidewater');
    expect(refused.headers.get('Set-Cookie') ?? '').not.toContain('KOMGA-SESSION=ey');
    // The list was read as the remembered reader while the password was checked, yet no session was written.
    expect(catalogReads(statements).length).toBeGreaterThan(0);
    expect(await sessionsOf(reader.id)).toBe(0);
  });

  it('a reader still allowed gets the list beside the check, and the cookie of a session written after it', async () => {
    const { reader, worker, statements, basic } = await remembered();
    const again = await json(worker, '/komga/api/v1/series', basic);
    expect(again.status).toBe(200);
    expect(again.text).toContain('Tidewater Ledger');
    expect(again.headers.get('Set-Cookie')).toContain('KOMGA-SESSION=');
    expect(catalogReads(statements).length).toBeGreaterThan(0);
    expect(await sessionsOf(reader.id)).toBe(1);
  });

  it('an ended KOMGA-SESSION beside a live remember-me cookie: the list is read again through remember-me', async () => {
    const { auth: selfAdmin } = await setupAdmin();
    await seedSeries(await seedLibrary(), { title: 'Tidewater Ledger' });
    const reader = await createUser(selfAdmin);
    const { worker, statements, reset } = recordingWorker();
    const basic: Credentials = { basic: { username: reader.username, password: reader.password } };
    // Komelia's sign-in: a session cookie and the long-lived remember-me cookie, two sessions.
    const me = await worker.fetch('/komga/api/v2/users/me?remember-me=true', { auth: basic });
    expect(me.status).toBe(200);
    await me.arrayBuffer();
    const cookies = new Map(
      me.headers.getSetCookie().map((line) => line.split(';')[0]?.split('=') as [string, string]),
    );
    const session = cookies.get('KOMGA-SESSION') as string;
    const rememberMe = cookies.get('komga-remember-me') as string;
    expect(session).toMatch(/^ey/);
    expect(rememberMe).toMatch(/^ey/);
    const withCookies = async () => {
      const res = await worker.fetch('/komga/api/v1/series', {
        headers: { Cookie: `KOMGA-SESSION=${session}; komga-remember-me=${rememberMe}` },
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    };
    // Remembered by a first call with the cookies (checked before its handler).
    const first = await withCookies();
    expect(first.status).toBe(200);
    // The session cookie's session ends (signed out on another device); the remember-me one lives on.
    const sid = JSON.parse(atob(session.split('.')[1] as string)).sid as string;
    expect((await env.DB.prepare('DELETE FROM sessions WHERE id = ?').bind(sid).run()).meta.changes).toBe(1);
    await reset();

    // The list is read as the remembered session's caller beside the check, which refuses that session: the
    // answer is made again, and the guard signs in with remember-me as it does without a remembered session.
    const again = await withCookies();
    expect(again.status).toBe(200);
    expect(again.text).toContain('Tidewater Ledger');
    expect(again.headers.getSetCookie().join('\n')).toContain(`KOMGA-SESSION=${rememberMe}`);
    expect(catalogReads(statements).length).toBeGreaterThan(1);
  });
});

describe('work after the answer', () => {
  it('a refused key is recorded although the first write of the record fails: tried again, the answer unchanged', async () => {
    await setupAdmin();
    let failures = 1;
    const { worker } = recordingWorker((sql) => {
      if (failures > 0 && sql.some((s) => /insert into "authentication_activity"/i.test(s))) {
        failures -= 1;
        return new Error('D1_ERROR: Network connection lost.');
      }
      return undefined;
    });
    const admin = await worker.signIn(ADMIN);
    const key = await newKey(worker, admin, { name: 'scanner' });
    const forged = `${(key.auth as { apiKey: string }).apiKey.slice(0, -4)}AAAA`;
    const refused = await json(worker, '/series', { apiKey: forged });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'Unauthorized', message: 'Invalid API key' });
    await worker.settle();
    expect(failures).toBe(0);
    const activity = await json(worker, '/komga/api/v2/users/authentication-activity', admin);
    expect(activity.status).toBe(200);
    expect(activity.body.content).toEqual(
      expect.arrayContaining([expect.objectContaining({ apiKeyComment: 'scanner', error: 'Invalid API key' })]),
    );
  });
});

const sorted = (ids: ReadonlyArray<string | undefined>) => [...ids].sort();

async function createUserThrough(worker: FaultyWorker, admin: Credentials, role = 'reader') {
  const username = `reader${Math.random().toString(36).slice(2, 8)}`;
  const password = 'reader-password-1';
  const created = await json(worker, '/users', admin, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password, role, customPermissions: [] }),
  });
  if (created.status !== 201) throw new Error(`user: ${created.status} ${created.text}`);
  return { id: created.body.id as string, auth: await worker.signIn({ username, password }) };
}
