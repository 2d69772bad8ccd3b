/**
 * API.md §4 Tasks and §6 Events, DECISIONS.md §Tasks and events: the task list, one task, stats,
 * cancellation, analysis requests with their dedupe, the scan's mirrored task row, permissions, and the
 * task_progress / scan_progress / book events as the EventHub records them.
 */
import { env } from 'cloudflare:test';
import { createD1Database } from '../../src/db/client';
import { tasks as tasksTable } from '../../src/db/schema';
import { describe, expect, it } from 'vitest';
import { createApiKey, createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTask, waitForTasks } from '../support/tasks';
import { hex } from '../support/hashes';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A scanned library whose background tasks have finished. */
async function scannedLibrary(auth: Credentials, files: Record<string, number>, path = 'comics') {
  const libraryId = await createLibrary(auth, { name: `Library ${path}`, path });
  for (const [name, pages] of Object.entries(files)) await putObject(`${path}/${name}`, await makeCbz(pages));
  const scanned = await scan(auth, libraryId);
  await waitForTasks(auth, libraryId, { since: scanned.completedAt });
  return { libraryId, scanned };
}

/** Events as the hub stores and streams them (plain JSON), so their shape is checked as clients see it. */
type WireEvent = Record<string, any>;

async function hubEvents(): Promise<WireEvent[]> {
  const hub = env.EVENT_HUB.get(env.EVENT_HUB.idFromName('global'));
  return (await hub.since(0)).map((buffered) => buffered.event as WireEvent);
}

/** Events are handed to the hub after the work that caused them: wait until `predicate` holds. */
async function waitForEvents(predicate: (events: WireEvent[]) => boolean): Promise<WireEvent[]> {
  for (let i = 0; i < 200; i++) {
    const events = await hubEvents();
    if (predicate(events)) return events;
    await sleep(25);
  }
  throw new Error(`events never matched: ${JSON.stringify(await hubEvents()).slice(0, 2000)}`);
}

describe('GET /tasks, /tasks/{id}, /tasks/stats (API.md §4 Tasks)', () => {
  it('lists tasks newest first in the paginated envelope, filtered by status, type and library', async () => {
    const { auth } = await setupAdmin();
    const first = await scannedLibrary(auth, { 'A/a.cbz': 1 }, 'first');
    const second = await scannedLibrary(auth, { 'B/b.cbz': 2 }, 'second');

    const all = await api('/tasks', { auth });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['data', 'links', 'page', 'pageSize', 'total', 'totalPages']);
    expect(all.body).toMatchObject({ page: 1, pageSize: 50, total: 6, totalPages: 1 });
    const created = all.body.data.map((t: { createdAt: string }) => t.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(all.body.data.at(-1)).toMatchObject({ type: 'scan_library', libraryId: first.libraryId });

    const byLibrary = await api(`/tasks?library_id=${second.libraryId}`, { auth });
    expect(byLibrary.body.data.map((t: { type: string }) => t.type).sort()).toEqual([
      'generate_thumbnails',
      'hash_files',
      'scan_library',
    ]);
    expect(byLibrary.body.data.every((t: { libraryId: string }) => t.libraryId === second.libraryId)).toBe(true);

    const scans = await api('/tasks?type=scan_library&status=completed', { auth });
    expect(scans.body.total).toBe(2);
    expect((await api('/tasks?status=running', { auth })).body.total).toBe(0);

    const paged = await api('/tasks?pageSize=4&page=2', { auth });
    expect(paged.body).toMatchObject({ page: 2, pageSize: 4, total: 6, totalPages: 2 });
    expect(paged.body.data).toHaveLength(2);
    expect(paged.body.links.prev).toContain('page=1');

    expectError(await api('/tasks?status=sleeping', { auth }), 400, 'BadRequest');
    expectError(await api('/tasks?type=dusting', { auth }), 400, 'BadRequest');
    expectError(await api('/tasks?library_id=nope', { auth }), 400, 'BadRequest');
  });

  it('mirrors the scan in a scan_library task: progress, counters and who started it', async () => {
    const { auth, userId } = await setupAdmin();
    const { libraryId, scanned } = await scannedLibrary(auth, {
      'Saga/Saga 1.cbz': 2,
      'Saga/Saga 2.cbz': 3,
      'Oneshot.cbz': 1,
    });
    await putObject('comics/Broken/broken.cbz', 'not a zip');
    const rescanned = await scan(auth, libraryId);
    await waitForTasks(auth, libraryId, { since: rescanned.completedAt });

    const task = await api(`/tasks/${rescanned.taskId}`, { auth });
    expect(task.status).toBe(200);
    expect(task.body).toMatchObject({
      id: rescanned.taskId,
      type: 'scan_library',
      status: 'completed',
      libraryId,
      targetId: libraryId,
      createdBy: userId,
      error: null,
      progress: { current: 4, total: 4, message: '1 added, 0 updated, 0 removed, 1 with errors' },
      result: {
        filesTotal: 4,
        filesProcessed: 4,
        seriesFound: 1,
        booksFound: 4,
        booksAdded: 1,
        booksUpdated: 0,
        booksDeleted: 0,
        errors: 1,
      },
    });
    expect(Date.parse(task.body.completedAt)).toBeGreaterThanOrEqual(Date.parse(task.body.startedAt));
    expect(task.body.startedAt).toBe(rescanned.startedAt);
    expect((await api(`/tasks/${scanned.taskId}`, { auth })).body.result).toMatchObject({ booksAdded: 3 });

    // The follow-up tasks of a scan report what they did (the rescan added only a file that failed analysis).
    const hashes = (await api(`/tasks?type=hash_files&library_id=${libraryId}`, { auth })).body.data;
    expect(hashes[0]).toMatchObject({ status: 'completed', result: { processed: 0 } });
    expect(hashes[1]).toMatchObject({ status: 'completed', result: { processed: 3 } });
  });

  it('answers 404 for an unknown task and 400 for a malformed id', async () => {
    const { auth } = await setupAdmin();
    expectError(await api(`/tasks/${UNKNOWN_ID}`, { auth }), 404, 'NotFound');
    expectError(await api('/tasks/12345', { auth }), 400, 'BadRequest');
    expectError(await api(`/tasks/${UNKNOWN_ID}/cancel`, { method: 'POST', auth }), 404, 'NotFound');
    expectError(await api('/tasks/12345/cancel', { method: 'POST', auth }), 400, 'BadRequest');
  });

  it('counts tasks by status and type', async () => {
    const { auth } = await setupAdmin();
    const empty = await api('/tasks/stats', { auth });
    expect(empty.status).toBe(200);
    expect(empty.body.total).toBe(0);
    expect(empty.body.byStatus).toEqual({ pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0 });

    await scannedLibrary(auth, { 'A/a.cbz': 1 });
    const stats = await api('/tasks/stats', { auth });
    expect(stats.body.total).toBe(3);
    expect(stats.body.byStatus).toMatchObject({ completed: 3, pending: 0, running: 0 });
    expect(stats.body.byType.scan_library).toMatchObject({ completed: 1 });
    expect(stats.body.byType.hash_files).toMatchObject({ completed: 1 });
    expect(stats.body.byType.generate_thumbnails).toMatchObject({ completed: 1 });
    expect(stats.body.byType.find_duplicates).toMatchObject({ completed: 0, pending: 0 });
  });
});

describe('POST /books/{id}/analyze, /series/{id}/analyze and POST /tasks/{id}/cancel (API.md §4 Books, Series, Tasks)', () => {
  it('re-analyses a book whose file changed, and a whole series', async () => {
    const { auth } = await setupAdmin();
    const { libraryId } = await scannedLibrary(auth, { 'Saga/Saga 1.cbz': 2, 'Saga/Saga 2.cbz': 3 });
    const books = (await api(`/books?library_id=${libraryId}&sort=title&order=asc`, { auth })).body.data;
    const [saga1, saga2] = books;
    expect([saga1.pageCount, saga2.pageCount]).toEqual([2, 3]);

    const replacement = await makeCbz(5);
    await putObject('comics/Saga/Saga 1.cbz', replacement);
    const queued = await api(`/books/${saga1.id}/analyze`, { method: 'POST', auth });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({
      created: true,
      task: { type: 'analyze_book', targetId: saga1.id, libraryId, status: 'pending' },
    });
    const done = await waitForTask(auth, queued.body.task.id);
    expect(done).toMatchObject({ status: 'completed', progress: { current: 1, total: 1 } });
    const reanalysed = (await api(`/books/${saga1.id}`, { auth })).body;
    expect(reanalysed).toMatchObject({ pageCount: 5, analyzed: true, analysisError: null });
    expect(reanalysed.fileHash).toBe(hex(await crypto.subtle.digest('SHA-256', replacement)));
    expect((await api(`/series/${saga1.seriesId}`, { auth })).body.bookCount).toBe(2);

    await putObject('comics/Saga/Saga 1.cbz', await makeCbz(1));
    await putObject('comics/Saga/Saga 2.cbz', 'no longer a zip');
    const seriesTask = await api(`/series/${saga1.seriesId}/analyze`, { method: 'POST', auth });
    expect(seriesTask.status).toBe(202);
    expect(seriesTask.body.task).toMatchObject({ type: 'analyze_series', targetId: saga1.seriesId });
    expect(await waitForTask(auth, seriesTask.body.task.id)).toMatchObject({
      status: 'completed',
      progress: { current: 2, total: 2 },
    });
    const after = (await api(`/books?library_id=${libraryId}&sort=title&order=asc`, { auth })).body.data;
    expect(after[0]).toMatchObject({ pageCount: 1, analysisError: null, analyzed: true });
    expect(after[1]).toMatchObject({ pageCount: 0, analyzed: false });
    expect(after[1].analysisError).toMatch(/ZIP|zip|archive/);

    expectError(await api(`/books/${UNKNOWN_ID}/analyze`, { method: 'POST', auth }), 404, 'NotFound');
    expectError(await api(`/series/${UNKNOWN_ID}/analyze`, { method: 'POST', auth }), 404, 'NotFound');
    expectError(await api('/books/nope/analyze', { method: 'POST', auth }), 400, 'BadRequest');
  });

  it('dedupes queued requests (simultaneous ones too) and cancels pending and running tasks, but not finished ones', async () => {
    const { auth } = await setupAdmin();
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`Many/Book ${i + 1}.cbz`, 1]));
    const { libraryId, scanned } = await scannedLibrary(auth, files);
    const [someBook] = (await api(`/books?library_id=${libraryId}`, { auth })).body.data;
    // The scan's thumbnail round (queued book work, issue 11) reported its progress out of all 30 books.
    const thumbnailProgress = (await hubEvents()).filter((e) => e.task_type === 'generate_thumbnails');
    expect(thumbnailProgress.length).toBeGreaterThan(0);
    for (const event of thumbnailProgress) expect(event.progress.total).toBe(30);
    expect(thumbnailProgress.at(-1)).toMatchObject({ status: 'completed', progress: { current: 30, total: 30 } });

    // analyze_series works one book per slice in tests: wait until it is running part-way.
    const series = await api(`/series/${someBook.seriesId}/analyze`, { method: 'POST', auth });
    expect(series.body.created).toBe(true);
    for (;;) {
      const task = (await api(`/tasks/${series.body.task.id}`, { auth })).body;
      if (task.status === 'running' && task.progress.current > 0) {
        expect(task.progress).toMatchObject({ total: 30, message: `${task.progress.current} of 30 books analysed` });
        break;
      }
      if (task.status !== 'pending' && task.status !== 'running') throw new Error(`ended early: ${task.status}`);
      await sleep(5);
    }
    // The running pass may be past what a new request is about: the request queues a pass of its own,
    // and requests after it join that queued pass.
    const followUp = await api(`/series/${someBook.seriesId}/analyze`, { method: 'POST', auth });
    expect(followUp.status).toBe(202);
    expect(followUp.body).toMatchObject({ created: true, task: { status: 'pending' } });
    expect(followUp.body.task.id).not.toBe(series.body.task.id);
    const joined = await api(`/series/${someBook.seriesId}/analyze`, { method: 'POST', auth });
    expect(joined.body).toMatchObject({ created: false, task: { id: followUp.body.task.id } });

    // The runner finishes running work before starting queued work, so these requests stay pending:
    // simultaneous ones make one task.
    const requests = await Promise.all(
      Array.from({ length: 6 }, () => api(`/books/${someBook.id}/analyze`, { method: 'POST', auth })),
    );
    expect(requests.map((r) => r.status)).toEqual(Array(6).fill(202));
    expect(new Set(requests.map((r) => r.body.task.id)).size).toBe(1);
    expect(requests.filter((r) => r.body.created)).toHaveLength(1);
    const book = requests[0] as (typeof requests)[number];
    expect(book.body.task.status).toBe('pending');

    const cancelledPending = await api(`/tasks/${book.body.task.id}/cancel`, { method: 'POST', auth });
    expect(cancelledPending.status).toBe(200);
    expect(cancelledPending.body).toMatchObject({ status: 'cancelled', type: 'analyze_book' });
    expect((await api(`/tasks/${followUp.body.task.id}/cancel`, { method: 'POST', auth })).status).toBe(200);
    const cancelledRunning = await api(`/tasks/${series.body.task.id}/cancel`, { method: 'POST', auth });
    expect(cancelledRunning.body).toMatchObject({ status: 'cancelled', type: 'analyze_series' });
    expect(cancelledRunning.body.completedAt).not.toBeNull();

    // Cancelled stays cancelled: the runner does not pick the work up again.
    await sleep(300);
    const later = (await api(`/tasks/${series.body.task.id}`, { auth })).body;
    expect(later.status).toBe('cancelled');
    expect(later.progress.current).toBeLessThan(30);
    expect((await api(`/tasks/${book.body.task.id}`, { auth })).body.status).toBe('cancelled');
    expect((await api('/tasks?status=running', { auth })).body.total).toBe(0);
    // Task stream clients learn about the cancellations.
    const cancelledIds = [book.body.task.id, series.body.task.id];
    const events = await waitForEvents((all) =>
      cancelledIds.every((id) => all.some((e) => e.task_id === id && e.status === 'cancelled')),
    );
    expect(events.find((e) => e.task_id === book.body.task.id && e.status === 'cancelled')).toMatchObject({
      type: 'task_progress',
      task_type: 'analyze_book',
    });

    expectError(await api(`/tasks/${series.body.task.id}/cancel`, { method: 'POST', auth }), 409, 'Conflict');
    expectError(await api(`/tasks/${scanned.taskId}/cancel`, { method: 'POST', auth }), 409, 'Conflict');
    // A new request after a cancellation is new work.
    const fresh = await api(`/books/${someBook.id}/analyze`, { method: 'POST', auth });
    expect(fresh.body.created).toBe(true);
    expect(fresh.body.task.id).not.toBe(book.body.task.id);
    expect(await waitForTask(auth, fresh.body.task.id)).toMatchObject({ status: 'completed' });
  });

  it('a hash pass still running when the next scan queues work (a row left by an older version) ends with it', async () => {
    const { auth } = await setupAdmin();
    const { libraryId } = await scannedLibrary(auth, { 'A/a.cbz': 1 });
    // A hash pass part-way through the library (its old-style id cursor past every book): the book-work
    // queue's progress refresh closes it once the library has nothing left, and the new books get hashed.
    await createD1Database(env.DB)
      .insert(tasksTable)
      .values({
        id: crypto.randomUUID(),
        type: 'hash_files',
        status: 'running',
        uniqueKey: `hash_files:${libraryId}`,
        libraryId,
        payload: { after: 'ffffffff-ffff-4fff-bfff-ffffffffffff', processed: 1 },
        priority: 5,
        createdAt: new Date().toISOString(),
        startedAt: new Date().toISOString(),
      });
    for (let i = 1; i <= 3; i++) await putObject(`comics/B/b${i}.cbz`, await makeCbz(1));
    const rescanned = await scan(auth, libraryId);
    await waitForTasks(auth, libraryId, { since: rescanned.completedAt });
    const books = (await api(`/books?library_id=${libraryId}`, { auth })).body.data;
    expect(books).toHaveLength(4);
    for (const book of books) expect(book.fileHash, book.path).toMatch(/^[0-9a-f]{64}$/);
  });

  it('cancelling a scan task stops the scan', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    for (let i = 1; i <= 40; i++) await putObject(`comics/Many/Book ${i}.cbz`, await makeCbz(1));
    const started = await api(`/libraries/${libraryId}/scan`, { method: 'POST', auth });
    expect(started.status).toBe(202);
    const cancelled = await api(`/tasks/${started.body.taskId}/cancel`, { method: 'POST', auth });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', type: 'scan_library' });
    for (;;) {
      // The slice still under way when the cancel arrived does not bring the task row back to running.
      expect((await api(`/tasks/${started.body.taskId}`, { auth })).body.status).toBe('cancelled');
      const status = (await api(`/libraries/${libraryId}/scan-status`, { auth })).body;
      if (status.status !== 'running') {
        expect(status.status).toBe('cancelled');
        expect(status.filesProcessed).toBeLessThan(40);
        break;
      }
      await sleep(20);
    }
    expect((await api(`/tasks/${started.body.taskId}`, { auth })).body.status).toBe('cancelled');
  });

  it('deleting a library stops its running scan, which leaves nothing behind', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    for (let i = 1; i <= 40; i++) await putObject(`comics/Many/Book ${i}.cbz`, await makeCbz(1));
    const started = await api(`/libraries/${libraryId}/scan`, { method: 'POST', auth });
    for (;;) {
      const task = (await api(`/tasks/${started.body.taskId}`, { auth })).body;
      if (task.progress.current > 0) break;
      await sleep(5);
    }
    expect((await api(`/libraries/${libraryId}`, { method: 'DELETE', auth })).status).toBe(204);
    const task = await waitForTask(auth, started.body.taskId);
    expect(task).toMatchObject({
      status: 'cancelled',
      progress: { message: 'The library was deleted during the scan' },
    });
    expect(task.progress.current).toBeLessThan(40);
    expect((await api('/books', { auth })).body.total).toBe(0);
    expect((await api('/series', { auth })).body.total).toBe(0);
    expect((await api('/tasks?status=pending', { auth })).body.total).toBe(0);
  });
});

describe('POST /libraries/{id}/empty-trash: purge_deleted (DECISIONS.md §Tasks and events)', () => {
  it('removes soft-deleted books for good with their progress and cached images, and leaves live books and the bucket alone', async () => {
    const { auth } = await setupAdmin();
    const { libraryId } = await scannedLibrary(auth, { 'Kept/Kept 1.cbz': 2, 'Gone/Gone 1.cbz': 3 });
    const listed = await api(`/books?library_id=${libraryId}`, { auth });
    const byTitle = Object.fromEntries(listed.body.data.map((b: any) => [b.title, b]));
    const kept = byTitle['Kept 1'];
    const gone = byTitle['Gone 1'];
    // A rendition and progress for both books; both have thumbnails from the scan's follow-up task.
    for (const book of [kept, gone]) {
      expect((await api(`/books/${book.id}/pages/1?width=20&format=webp`, { auth })).status).toBe(200);
      expect((await api(`/books/${book.id}/progress`, { auth, method: 'PUT', json: { current_page: 2 } })).status).toBe(
        200,
      );
    }
    const cachedOf = async (id: string) => [
      ...(await env.CACHE.list({ prefix: `pages/${id}/` })).objects.map((o) => o.key),
      ...(await env.CACHE.list({ prefix: `thumbnails/books/${id}` })).objects.map((o) => o.key),
    ];
    expect(await cachedOf(gone.id)).toHaveLength(2);
    const keptImages = await cachedOf(kept.id);
    expect(keptImages).toHaveLength(2);

    await env.LIBRARY.delete('comics/Gone/Gone 1.cbz');
    await scan(auth, libraryId);
    // Soft-deleted: progress is still there in case the file comes back.
    expect((await api(`/books/${gone.id}`, { auth })).body.deleted).toBe(true);

    const queued = await api(`/libraries/${libraryId}/empty-trash`, { auth, method: 'POST' });
    expect(queued.status).toBe(202);
    expect(queued.body.task).toMatchObject({ type: 'purge_deleted', libraryId });
    const done = await waitForTask(auth, queued.body.task.id);
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ purged: 1 });

    expectError(await api(`/books/${gone.id}`, { auth }), 404, 'NotFound');
    expect(await cachedOf(gone.id)).toEqual([]);
    expect((await api('/progress?pageSize=500', { auth })).body.data.map((p: any) => p.bookId)).toEqual([kept.id]);
    expect(await cachedOf(kept.id)).toEqual(keptImages);
    expect((await api(`/books/${kept.id}`, { auth })).body.deleted).toBe(false);
    expect(await env.LIBRARY.head('comics/Kept/Kept 1.cbz')).not.toBeNull();
  });

  it('answers 404 for an unknown library and 403 without LibrariesWrite', async () => {
    const { auth } = await setupAdmin();
    const { libraryId } = await scannedLibrary(auth, { 'A/A 1.cbz': 1 });
    expectError(await api(`/libraries/${UNKNOWN_ID}/empty-trash`, { auth, method: 'POST' }), 404, 'NotFound');
    const reader = await createUser(auth, { role: 'reader' });
    const readerAuth = (await login(reader.username, reader.password)).auth;
    expectError(
      await api(`/libraries/${libraryId}/empty-trash`, { auth: readerAuth, method: 'POST' }),
      403,
      'Forbidden',
    );
    expectError(await api(`/libraries/${libraryId}/empty-trash`, { method: 'POST' }), 401, 'Unauthorized');
  });
});

describe('task permissions (DECISIONS.md §Roles and permissions: TasksRead, TasksWrite)', () => {
  it('lets maintainers read and manage tasks, and keeps readers out', async () => {
    const { auth: admin } = await setupAdmin();
    const { libraryId, scanned } = await scannedLibrary(admin, { 'A/a.cbz': 1 });
    const [book] = (await api(`/books?library_id=${libraryId}`, { auth: admin })).body.data;

    const reader = await createUser(admin, { role: 'reader' });
    const readerAuth = (await login(reader.username, reader.password)).auth;
    for (const [method, path] of [
      ['GET', '/tasks'],
      ['GET', '/tasks/stats'],
      ['GET', `/tasks/${scanned.taskId}`],
      ['POST', `/tasks/${scanned.taskId}/cancel`],
      ['POST', `/books/${book.id}/analyze`],
      ['POST', `/series/${book.seriesId}/analyze`],
    ] as const) {
      expectError(await api(path, { method, auth: readerAuth }), 403, 'Forbidden');
      expectError(await api(path, { method }), 401, 'Unauthorized');
    }

    const maintainer = await createUser(admin, { role: 'maintainer' });
    const maintainerAuth = (await login(maintainer.username, maintainer.password)).auth;
    expect((await api('/tasks', { auth: maintainerAuth })).status).toBe(200);
    expect((await api('/tasks/stats', { auth: maintainerAuth })).status).toBe(200);
    const queued = await api(`/books/${book.id}/analyze`, { method: 'POST', auth: maintainerAuth });
    expect(queued.status).toBe(202);
    expect(queued.body.task.createdBy).toBe(maintainer.id);
    await waitForTask(maintainerAuth, queued.body.task.id);

    // A key limited to TasksRead can look but not touch.
    const key = await createApiKey(maintainerAuth, { name: 'monitor', permissions: ['TasksRead'] });
    const keyAuth = { apiKey: key.key };
    expect((await api('/tasks', { auth: keyAuth })).status).toBe(200);
    expectError(await api(`/tasks/${scanned.taskId}/cancel`, { method: 'POST', auth: keyAuth }), 403, 'Forbidden');
  });
});

describe('task and scan events (API.md §6, DECISIONS.md §Tasks and events)', () => {
  it('records scan_progress, task_progress and book events with the documented fields', async () => {
    const { auth } = await setupAdmin();
    const { libraryId, scanned } = await scannedLibrary(auth, { 'Saga/Saga 1.cbz': 1, 'Saga/Saga 2.cbz': 1 });
    const events = await waitForEvents((all) =>
      all.some((e) => e.type === 'task_progress' && e.task_type === 'hash_files' && e.status === 'completed'),
    );

    const scanProgress = events.filter((e) => e.type === 'scan_progress' && e.task_id === scanned.taskId);
    expect(scanProgress.length).toBeGreaterThanOrEqual(2);
    for (const event of scanProgress) {
      expect(Object.keys(event).sort()).toEqual(
        [
          'type',
          'timestamp',
          'library_id',
          'task_id',
          'status',
          'files_total',
          'files_processed',
          'series_found',
          'books_found',
          'errors',
          // Files the scan did not read, with the reason (DECISIONS.md §Books; issue 13).
          'files_skipped',
          'skipped',
          'started_at',
          'completed_at',
        ].sort(),
      );
    }
    expect(scanProgress[0]).toMatchObject({ status: 'running', library_id: libraryId, completed_at: null });
    expect(scanProgress.at(-1)).toMatchObject({
      status: 'completed',
      files_total: 2,
      files_processed: 2,
      series_found: 1,
      books_found: 2,
      errors: 0,
      started_at: scanned.startedAt,
      completed_at: scanned.completedAt,
    });

    const taskProgress = events.filter((e) => e.type === 'task_progress');
    for (const event of taskProgress) {
      expect(Object.keys(event).sort()).toEqual(['progress', 'status', 'task_id', 'task_type', 'timestamp', 'type']);
      expect(Object.keys(event.progress).sort()).toEqual(['current', 'message', 'total']);
      expect(event.task_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(event.timestamp)).not.toBeNaN();
    }
    expect(taskProgress.filter((e) => e.task_id === scanned.taskId).at(-1)).toMatchObject({
      task_type: 'scan_library',
      status: 'completed',
      progress: { current: 2, total: 2 },
    });
    expect(taskProgress.find((e) => e.task_type === 'hash_files' && e.status === 'completed')).toMatchObject({
      progress: { current: 2, total: 2 },
    });

    const books = (await api(`/books?library_id=${libraryId}`, { auth })).body.data;
    const created = events.filter((e) => e.type === 'book_created');
    expect(created.map((e) => e.book_id).sort()).toEqual(books.map((b: { id: string }) => b.id).sort());
    for (const event of created) {
      expect(Object.keys(event).sort()).toEqual(['book_id', 'library_id', 'series_id', 'timestamp', 'type']);
      expect(event).toMatchObject({ library_id: libraryId, series_id: books[0].seriesId });
    }
  });
});
