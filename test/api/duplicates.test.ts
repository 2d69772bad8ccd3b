/**
 * API.md §4 Duplicates: books with identical content (same fileHash, DECISIONS.md §Books) found by a
 * duplicate scan after the scan's hash task, listed in groups, dismissed without touching any book,
 * and shown again when a further copy appears.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTask, waitForTasks } from '../support/tasks';
import { hex } from '../support/hashes';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

async function scanAndHash(auth: Credentials, libraryId: string) {
  const scanned = await scan(auth, libraryId);
  await waitForTasks(auth, libraryId, { since: scanned.completedAt });
}

async function findDuplicates(auth: Credentials) {
  const queued = await api('/duplicates/scan', { method: 'POST', auth });
  expect(queued.status).toBe(202);
  expect(queued.body.task).toMatchObject({ type: 'find_duplicates' });
  return waitForTask(auth, queued.body.task.id);
}

describe('duplicate groups (API.md §4 Duplicates)', () => {
  it('groups identical files, dismisses a group without touching the books, and shows it again for a new copy', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    const twin = await makeCbz(3, { Series: 'Saga', Number: '1' });
    await putObject('comics/Saga/Saga 001.cbz', twin);
    await putObject('comics/Backup/Saga 001 (copy).cbz', twin);
    await putObject('comics/Saga/Saga 002.cbz', await makeCbz(2, { Series: 'Saga', Number: '2' }));
    await scanAndHash(auth, libraryId);

    expect((await api('/duplicates', { auth })).body.total).toBe(0);
    expect(await findDuplicates(auth)).toMatchObject({ status: 'completed', result: { groups: 1 } });

    const listed = await api('/duplicates', { auth });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ page: 1, pageSize: 50, total: 1, totalPages: 1 });
    const [group] = listed.body.data;
    expect(group).toMatchObject({ fileHash: hex(await crypto.subtle.digest('SHA-256', twin)), fileSize: twin.length });
    expect(group.books.map((b: { path: string }) => b.path).sort()).toEqual([
      'comics/Backup/Saga 001 (copy).cbz',
      'comics/Saga/Saga 001.cbz',
    ]);
    expect([...group.bookIds].sort()).toEqual(group.books.map((b: { id: string }) => b.id).sort());
    expect(group.books.map((b: { title: string }) => b.title).sort()).toEqual(['Saga 001', 'Saga 001 (copy)']);
    for (const book of group.books) expect(book.libraryId).toBe(libraryId);

    expect((await api(`/duplicates/${group.id}`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await api('/duplicates', { auth })).body).toMatchObject({ total: 0, data: [] });
    const books = await api(`/books?library_id=${libraryId}`, { auth });
    expect(books.body.total).toBe(3);
    expect(books.body.data.every((b: { deleted: boolean }) => !b.deleted)).toBe(true);
    expect(await env.LIBRARY.head('comics/Backup/Saga 001 (copy).cbz')).not.toBeNull();
    expectError(await api(`/duplicates/${group.id}`, { method: 'DELETE', auth }), 404, 'NotFound');

    // Unchanged membership keeps the dismissal.
    await findDuplicates(auth);
    expect((await api('/duplicates', { auth })).body.total).toBe(0);

    // A third copy changes the group: it is shown again, with all three books.
    await putObject('comics/Elsewhere/Saga one.cbz', twin);
    await scanAndHash(auth, libraryId);
    await findDuplicates(auth);
    const again = await api('/duplicates', { auth });
    expect(again.body.total).toBe(1);
    expect(again.body.data[0].id).toBe(group.id);
    expect(again.body.data[0].bookIds).toHaveLength(3);
  });

  it('drops a group once its copies are gone', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    const twin = await makeCbz(1);
    await putObject('comics/A/one.cbz', twin);
    await putObject('comics/B/one.cbz', twin);
    await scanAndHash(auth, libraryId);
    await findDuplicates(auth);
    expect((await api('/duplicates', { auth })).body.total).toBe(1);

    await env.LIBRARY.delete('comics/B/one.cbz');
    await scanAndHash(auth, libraryId);
    // The copy's book is soft-deleted: the group is no longer a duplicate, even before the next duplicate scan.
    expect((await api('/duplicates', { auth })).body.total).toBe(0);
    await findDuplicates(auth);
    expect((await api('/duplicates', { auth })).body.total).toBe(0);
  });

  it('pages through groups', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    for (let i = 1; i <= 3; i++) {
      const twin = await makeCbz(i);
      await putObject(`comics/A/book ${i}.cbz`, twin);
      await putObject(`comics/B/book ${i}.cbz`, twin);
    }
    await scanAndHash(auth, libraryId);
    await findDuplicates(auth);
    const first = await api('/duplicates?pageSize=2', { auth });
    expect(first.body).toMatchObject({ total: 3, totalPages: 2, pageSize: 2 });
    expect(first.body.data).toHaveLength(2);
    const second = await api('/duplicates?pageSize=2&page=2', { auth });
    expect(second.body.data).toHaveLength(1);
    const ids = [...first.body.data, ...second.body.data].map((g: { id: string }) => g.id);
    expect(new Set(ids).size).toBe(3);
    for (const group of [...first.body.data, ...second.body.data]) expect(group.books).toHaveLength(2);
  });

  it('answers 404 for an unknown group, 400 for a malformed id, and checks permissions', async () => {
    const { auth } = await setupAdmin();
    expectError(await api(`/duplicates/${UNKNOWN_ID}`, { method: 'DELETE', auth }), 404, 'NotFound');
    expectError(await api('/duplicates/not-a-uuid', { method: 'DELETE', auth }), 400, 'BadRequest');
    expectError(await api('/duplicates'), 401, 'Unauthorized');

    const reader = await createUser(auth, { role: 'reader' });
    const readerAuth = (await login(reader.username, reader.password)).auth;
    expectError(await api('/duplicates/scan', { method: 'POST', auth: readerAuth }), 403, 'Forbidden');
    expectError(await api(`/duplicates/${UNKNOWN_ID}`, { method: 'DELETE', auth: readerAuth }), 403, 'Forbidden');

    const maintainer = await createUser(auth, { role: 'maintainer' });
    const maintainerAuth = (await login(maintainer.username, maintainer.password)).auth;
    expect((await api('/duplicates', { auth: maintainerAuth })).status).toBe(200);
    expect((await api('/duplicates/scan', { method: 'POST', auth: maintainerAuth })).status).toBe(202);
  });
});
