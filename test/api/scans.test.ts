/**
 * API.md §4 Scanning and issue 3 points 4–5: a library folder in R2 becomes series and books; normal
 * scans pick up only changes, removed files soft-delete their books (progress kept) and come back,
 * one scan per library at a time, cancel, resume after a restart.
 */
import { abortAllDurableObjects, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, expectError } from '../support/http';
import { setupAdmin } from '../support/factories';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan, waitForScan } from '../support/scans';

async function seedLibraryFiles() {
  await putObject(
    'comics/Saga/Saga 002.cbz',
    await makeCbz(3, {
      Series: 'Saga',
      Number: '2',
      Volume: 1,
      Publisher: 'Image',
      Year: 2012,
      Writer: 'Brian K. Vaughan',
      Genre: 'Science Fiction',
    }),
  );
  await putObject('comics/Saga/Saga 010.cbz', await makeCbz(2, { Series: 'Saga', Number: '10.5', Publisher: 'Image' }));
  await putObject(
    'comics/Saga/Saga 001.cbz',
    await makeCbz(4, { Series: 'Saga', Number: '1', Volume: 1, Manga: 'YesAndRightToLeft' }),
  );
  await putObject('comics/Oneshot.cbz', await makeCbz(2));
  await putObject('comics/Broken/broken.cbz', 'this is not a zip file at all');
  await putObject('comics/Saga/.hidden.cbz', await makeCbz(1));
  await putObject('comics/Saga/notes.txt', 'not a book');
  await putObject('other/Elsewhere.cbz', await makeCbz(1));
}

describe('scanning a library (API.md §4 Scanning, DECISIONS.md §Storage)', () => {
  it('groups books by folder, reads ComicInfo, records analysis errors and keeps going', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    await seedLibraryFiles();

    const result = await scan(auth, libraryId);
    expect(result).toMatchObject({ status: 'completed', filesTotal: 5, filesProcessed: 5, booksAdded: 5, errors: 1 });

    const series = await api(`/series?library_id=${libraryId}&sort=name&order=asc`, { auth });
    expect(series.status).toBe(200);
    expect(series.body.data.map((s: { title: string }) => s.title)).toEqual(['Broken', 'Oneshot', 'Saga']);
    const saga = series.body.data.find((s: { title: string }) => s.title === 'Saga');
    expect(saga).toMatchObject({
      bookCount: 3,
      publisher: 'Image',
      year: 2012,
      localMaxChapter: 10.5,
      localMaxVolume: 1,
    });

    const books = await api(`/series/${saga.id}/books?sort=number&order=asc`, { auth });
    expect(books.body.data.map((b: { fileName?: string; path: string }) => b.path.split('/').pop())).toEqual([
      'Saga 001.cbz',
      'Saga 002.cbz',
      'Saga 010.cbz',
    ]);
    const [first, , last] = books.body.data;
    expect(first).toMatchObject({
      pageCount: 4,
      fileFormat: 'cbz',
      number: 1,
      volume: 1,
      readingDirection: 'rtl',
      deleted: false,
    });
    expect(last).toMatchObject({ number: 10, chapter: 10.5, pageCount: 2 });

    const broken = series.body.data.find((s: { title: string }) => s.title === 'Broken');
    const brokenBooks = await api(`/series/${broken.id}/books`, { auth });
    expect(brokenBooks.body.data[0].analysisError).toMatch(/not a ZIP|not a zip|archive/i);
    expect(brokenBooks.body.data[0].pageCount).toBe(0);
  });

  it('rescans only changes, soft-deletes removed files with progress kept, and restores them', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    await seedLibraryFiles();
    await scan(auth, libraryId);

    const unchanged = await scan(auth, libraryId);
    expect(unchanged).toMatchObject({
      status: 'completed',
      filesTotal: 5,
      booksAdded: 0,
      booksUpdated: 0,
      booksDeleted: 0,
    });

    const oneshotSeries = (await api(`/series?library_id=${libraryId}&sort=name&order=asc`, { auth })).body.data[1];
    const oneshot = (await api(`/series/${oneshotSeries.id}/books`, { auth })).body.data[0];
    expect(
      (
        await api(`/books/${oneshot.id}/progress`, {
          method: 'PUT',
          auth,
          json: { current_page: 2, is_completed: false },
        })
      ).status,
    ).toBe(200);

    const bytes = await (await env.LIBRARY.get('comics/Oneshot.cbz'))!.arrayBuffer();
    await env.LIBRARY.delete('comics/Oneshot.cbz');
    const removed = await scan(auth, libraryId);
    expect(removed).toMatchObject({ booksDeleted: 1 });
    const gone = await api(`/books/${oneshot.id}`, { auth });
    expect(gone.body.deleted).toBe(true);

    await env.LIBRARY.put('comics/Oneshot.cbz', bytes);
    const back = await scan(auth, libraryId);
    expect(back).toMatchObject({ booksUpdated: 1, booksDeleted: 0 });
    const restored = await api(`/books/${oneshot.id}`, { auth });
    expect(restored.body).toMatchObject({ deleted: false, pageCount: 2 });
    const progress = await api(`/books/${oneshot.id}/progress`, { auth });
    expect(progress.body.currentPage).toBe(2);

    const deep = await scan(auth, libraryId, 'deep');
    expect(deep).toMatchObject({ status: 'completed', booksUpdated: 5 });
  });

  it('allows one scan per library at a time, and cancel stops it', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    for (let i = 1; i <= 60; i++) await putObject(`comics/Many/Book ${i}.cbz`, await makeCbz(1));

    const first = await api(`/libraries/${libraryId}/scan`, { method: 'POST', auth });
    expect(first.status).toBe(202);
    expectError(await api(`/libraries/${libraryId}/scan`, { method: 'POST', auth }), 409, 'Conflict');
    const active = await api('/scans/active', { auth });
    expect(active.body.map((s: { libraryId: string }) => s.libraryId)).toContain(libraryId);

    const cancelled = await api(`/libraries/${libraryId}/scan/cancel`, { method: 'POST', auth });
    expect(cancelled.status).toBe(202);
    const final = await waitForScan(auth, libraryId);
    expect(final.status).toBe('cancelled');
    expect(final.filesProcessed).toBeLessThan(60);
    expectError(await api(`/libraries/${libraryId}/scan/cancel`, { method: 'POST', auth }), 409, 'Conflict');

    const task = await api(`/tasks/${final.taskId}`, { auth });
    expect(task.body).toMatchObject({ type: 'scan_library', status: 'cancelled' });
  });

  it('resumes from stored state when its Durable Object restarts mid-scan', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    for (let i = 1; i <= 60; i++) await putObject(`comics/Many/Book ${i}.cbz`, await makeCbz(1));
    await api(`/libraries/${libraryId}/scan`, { method: 'POST', auth });
    // The test config runs one step per alarm (LONGBOX_SCAN__SLICE_MS=1): wait until the scan is
    // part-way, then abort every Durable Object as a deploy or crash would. Only storage and alarms survive.
    for (;;) {
      const status = (await api(`/libraries/${libraryId}/scan-status`, { auth })).body;
      if (status.filesProcessed > 0 && status.filesProcessed < 60) break;
      if (status.status !== 'running') throw new Error(`scan ended before the restart: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await abortAllDurableObjects();
    const final = await waitForScan(auth, libraryId);
    expect(final).toMatchObject({ status: 'completed', filesTotal: 60, booksAdded: 60 });
    const books = await api(`/books?library_id=${libraryId}&pageSize=100`, { auth });
    expect(books.body.total).toBe(60);
  });

  it('answers 404 for an unknown library and 403 for a reader starting a scan', async () => {
    const { auth } = await setupAdmin();
    expectError(
      await api('/libraries/00000000-0000-4000-8000-000000000000/scan', { method: 'POST', auth }),
      404,
      'NotFound',
    );
    expectError(await api('/libraries/not-a-uuid/scan-status', { auth }), 400, 'BadRequest');
    expectError(await api('/scans/active'), 401, 'Unauthorized');
  });
});
