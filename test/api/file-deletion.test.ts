/**
 * Issue 31 point 10 and DECISIONS.md §Storage "Deleting files": an administrator may delete a book's object,
 * or every object of a series, and the images made from them, with `confirm=true`; the books then go to
 * the trash as if their files had disappeared. Nobody else may, nothing happens without the confirmation,
 * and the other books' files stay untouched.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ADMIN, createUser, login, setupAdmin } from '../support/factories';
import { faultyWorker, r2InternalError } from '../support/faults';
import { api, type Credentials, expectError } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { eventually } from '../support/eventually';
import { booksByFileName, fetchRaw } from '../support/media';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const KEYS = {
  saga1: 'comics/Saga/Saga 001.cbz',
  saga2: 'comics/Saga/Saga 002.cbz',
  solo: 'comics/Solo/Solo 001.cbz',
};

/** Saga (two books) and Solo (one), with thumbnails and a page rendition of each book. */
async function seed() {
  const { auth } = await setupAdmin();
  await putObject(KEYS.saga1, await makeCbz(2, { Series: 'Saga', Number: '1' }, [60, 90]));
  await putObject(KEYS.saga2, await makeCbz(2, { Series: 'Saga', Number: '2' }, [60, 90]));
  await putObject(KEYS.solo, await makeCbz(2, { Series: 'Solo', Number: '1' }, [60, 90]));
  const libraryId = await createLibrary(auth);
  const scanned = await scan(auth, libraryId);
  await waitForTasks(auth, libraryId, { since: scanned.completedAt });
  const books = await booksByFileName(auth, libraryId);
  for (const book of Object.values(books) as { id: string }[]) {
    expect((await fetchRaw(`/books/${book.id}/pages/1?width=30`, { auth })).status).toBe(200);
  }
  const ids = {
    saga1: books['Saga 001.cbz'].id as string,
    saga2: books['Saga 002.cbz'].id as string,
    solo: books['Solo 001.cbz'].id as string,
    saga: books['Saga 001.cbz'].seriesId as string,
    soloSeries: books['Solo 001.cbz'].seriesId as string,
  };
  return { auth, libraryId, ids };
}

/** What storage holds for a book: its object, its thumbnail, its renditions. */
async function stored(bookId: string, key: string) {
  return {
    object: (await env.LIBRARY.head(key)) !== null,
    thumbnail: (await env.CACHE.head(`thumbnails/books/${bookId}`)) !== null,
    renditions: (await env.CACHE.list({ prefix: `pages/${bookId}/` })).objects.length,
  };
}
const KEPT = { object: true, thumbnail: true, renditions: 1 };
const GONE = { object: false, thumbnail: false, renditions: 0 };

/** The object is gone with the answer; its images go right after it (waitUntil). */
async function removed(bookId: string, key: string) {
  expect((await stored(bookId, key)).object).toBe(false);
  return eventually(
    () => stored(bookId, key),
    (now) => now.thumbnail === GONE.thumbnail && now.renditions === GONE.renditions,
  );
}

async function reader(admin: Credentials, role: 'reader' | 'maintainer') {
  const user = await createUser(admin, { role });
  return (await login(user.username, user.password)).auth;
}

describe('deleting book files (issue 31 point 10)', () => {
  it('removes one book’s object and images for an admin who confirms; the book goes to the trash', async () => {
    const { auth, libraryId, ids } = await seed();
    expect(await stored(ids.saga1, KEYS.saga1)).toEqual(KEPT);

    // Without the confirmation nothing happens, and the answer says why.
    const unconfirmed = expectError(
      await api(`/books/${ids.saga1}/file`, { method: 'DELETE', auth }),
      400,
      'BadRequest',
    );
    expect(unconfirmed.message).toMatch(/confirm/);
    expect(await stored(ids.saga1, KEYS.saga1)).toEqual(KEPT);

    const deleted = await api(`/books/${ids.saga1}/file?confirm=true`, { method: 'DELETE', auth });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await removed(ids.saga1, KEYS.saga1)).toEqual(GONE);
    // The other books keep their files and images.
    expect(await stored(ids.saga2, KEYS.saga2)).toEqual(KEPT);
    expect(await stored(ids.solo, KEYS.solo)).toEqual(KEPT);

    expect((await api(`/books/${ids.saga1}`, { auth })).body.deleted).toBe(true);
    const saga = (await api(`/series/${ids.saga}`, { auth })).body;
    expect(saga.bookCount).toBe(1);
    const live = (await api(`/series/${ids.saga}/books`, { auth })).body.data.map((b: { id: string }) => b.id);
    expect(live).toEqual([ids.saga2]);
    // A later scan finds it gone as well; it does not come back.
    await scan(auth, libraryId);
    expect((await api(`/books/${ids.saga1}`, { auth })).body.deleted).toBe(true);
    // Deleted already: a second request is a 404, like any book that is not there.
    expectError(await api(`/books/${ids.saga1}/file?confirm=true`, { method: 'DELETE', auth }), 404, 'NotFound');
  });

  it('removes every object of a series; the series leaves the catalog', async () => {
    const { auth, ids } = await seed();
    expectError(await api(`/series/${ids.saga}/file`, { method: 'DELETE', auth }), 400, 'BadRequest');
    const deleted = await api(`/series/${ids.saga}/file?confirm=true`, { method: 'DELETE', auth });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await removed(ids.saga1, KEYS.saga1)).toEqual(GONE);
    expect(await removed(ids.saga2, KEYS.saga2)).toEqual(GONE);
    expect(await stored(ids.solo, KEYS.solo)).toEqual(KEPT);
    expectError(await api(`/series/${ids.saga}`, { auth }), 404, 'NotFound');
    const titles = (await api('/series', { auth })).body.data.map((s: { title: string }) => s.title);
    expect(titles).toEqual(['Solo']);
    expectError(await api(`/series/${ids.saga}/file?confirm=true`, { method: 'DELETE', auth }), 404, 'NotFound');
  });

  it('keeps the book when storage refuses to delete its object: a 503 to retry, nothing reads as deleted', async () => {
    const { auth, ids } = await seed();
    const worker = faultyWorker({ r2Delete: ({ bucket }) => (bucket === 'LIBRARY' ? r2InternalError() : undefined) });
    const through = await worker.signIn(ADMIN);
    const failed = await worker.fetch(`/books/${ids.saga1}/file?confirm=true`, { method: 'DELETE', auth: through });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('Retry-After')).toMatch(/^\d+$/);
    await worker.settle();
    // The book was trashed beside the delete and is back: live, counted, its file and images kept.
    expect(await stored(ids.saga1, KEYS.saga1)).toEqual(KEPT);
    expect((await api(`/books/${ids.saga1}`, { auth })).body.deleted).toBe(false);
    expect((await api(`/series/${ids.saga}`, { auth })).body.bookCount).toBe(2);
    // Sent again once storage answers, it is done.
    const deleted = await api(`/books/${ids.saga1}/file?confirm=true`, { method: 'DELETE', auth });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await removed(ids.saga1, KEYS.saga1)).toEqual(GONE);
  });

  it('refuses maintainers and readers, and answers an unknown id with a 404', async () => {
    const { auth, ids } = await seed();
    for (const role of ['maintainer', 'reader'] as const) {
      const caller = await reader(auth, role);
      for (const path of [`/books/${ids.solo}/file?confirm=true`, `/series/${ids.soloSeries}/file?confirm=true`]) {
        expectError(await api(path, { method: 'DELETE', auth: caller }), 403, 'Forbidden');
      }
    }
    expect(await stored(ids.solo, KEYS.solo)).toEqual(KEPT);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectError(await api(`/books/${unknown}/file?confirm=true`, { method: 'DELETE', auth }), 404, 'NotFound');
    expectError(await api(`/series/${unknown}/file?confirm=true`, { method: 'DELETE', auth }), 404, 'NotFound');
  });
});
