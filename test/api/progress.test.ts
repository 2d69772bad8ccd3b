/**
 * API.md §2 ReadProgress and API key (device attribution), §4 Reading progress; DECISIONS.md §Roles (progress
 * permissions) and §Storage (deleted books keep their progress).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { readProgress } from '../../src/db/schema';
import { db, seedBook, seedLibrary, seedProgress, seedSeries, softDeleteBook } from '../support/catalog-factory';
import { createApiKey, createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';

async function seedOneBook(seed: Parameters<typeof seedBook>[1] = {}) {
  const library = await seedLibrary();
  const owner = await seedSeries(library, { title: 'Progress' });
  return seedBook(owner, seed);
}

const put = (bookId: string, auth: Credentials, json: unknown, headers?: Record<string, string>) =>
  api(`/books/${bookId}/progress`, { method: 'PUT', auth, json, headers });

describe('PUT /books/{id}/progress per format (API.md §2 ReadProgress)', () => {
  it('page-based books: percentage = currentPage / pageCount; startedAt kept; completedAt follows completion', async () => {
    const admin = await setupAdmin();
    const book = await seedOneBook({ fileFormat: 'cbz', pageCount: 20 });

    const first = await put(book.id, admin.auth, { current_page: 5, is_completed: false, progress_percentage: 0.9 });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual([
      'bookId',
      'completed',
      'completedAt',
      'currentPage',
      'id',
      'locator',
      'progressPercentage',
      'startedAt',
      'updatedAt',
      'userId',
    ]);
    expect(first.body).toMatchObject({
      bookId: book.id,
      userId: admin.userId,
      currentPage: 5,
      completed: false,
      completedAt: null,
      progressPercentage: 0.25,
    });

    const later = await put(book.id, admin.auth, { currentPage: 20, isCompleted: true });
    expect(later.body).toMatchObject({ id: first.body.id, currentPage: 20, completed: true, progressPercentage: 1 });
    expect(later.body.startedAt).toBe(first.body.startedAt);
    expect(later.body.updatedAt >= first.body.updatedAt).toBe(true);
    expect(later.body.completedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/));

    const again = await put(book.id, admin.auth, { current_page: 20, is_completed: true });
    expect(again.body.completedAt).toBe(later.body.completedAt);
    const reopened = await put(book.id, admin.auth, { current_page: 3 });
    expect(reopened.body).toMatchObject({
      completed: false,
      completedAt: null,
      currentPage: 3,
      progressPercentage: 0.15,
    });
    expect((await api(`/books/${book.id}/progress`, { auth: admin.auth })).body).toEqual(reopened.body);
  });

  it("accepts Codex-rs's `completed` for is_completed; the documented name wins when both are sent", async () => {
    const admin = await setupAdmin();
    const book = await seedOneBook({ fileFormat: 'cbz', pageCount: 20 });
    const codex = await put(book.id, admin.auth, { currentPage: 20, completed: true });
    expect(codex.status).toBe(200);
    expect(codex.body).toMatchObject({ currentPage: 20, completed: true });
    expect(codex.body.completedAt).not.toBeNull();
    const both = await put(book.id, admin.auth, { current_page: 4, is_completed: false, completed: true });
    expect(both.body).toMatchObject({ currentPage: 4, completed: false, completedAt: null });
    expectError(await put(book.id, admin.auth, { current_page: 4, completed: 'yes' }), 400, 'BadRequest');
  });

  it('cbr and pdf are page-based too', async () => {
    const admin = await setupAdmin();
    for (const fileFormat of ['cbr', 'pdf'] as const) {
      const book = await seedOneBook({ fileFormat, pageCount: 8 });
      const res = await put(book.id, admin.auth, { current_page: 2, is_completed: false, progress_percentage: 0.7 });
      expect(res.body.progressPercentage, fileFormat).toBe(0.25);
    }
  });

  it('reflowable epub stores the reader’s percentage; fixed-layout epub is page-based', async () => {
    const admin = await setupAdmin();
    const reflowable = await seedOneBook({ fileFormat: 'epub', epubLayout: 'reflowable', pageCount: 100 });
    const stored = await put(reflowable.id, admin.auth, {
      current_page: 3,
      is_completed: false,
      progress_percentage: 0.42,
    });
    expect(stored.body).toMatchObject({ currentPage: 3, progressPercentage: 0.42 });
    const derived = await put(reflowable.id, admin.auth, { current_page: 10, is_completed: false });
    expect(derived.body.progressPercentage).toBe(0.1);

    const fixed = await seedOneBook({ fileFormat: 'epub', epubLayout: 'image', pageCount: 10 });
    const pages = await put(fixed.id, admin.auth, { current_page: 5, is_completed: false, progress_percentage: 0.9 });
    expect(pages.body.progressPercentage).toBe(0.5);
  });

  it('rejects pages outside 1..pageCount and malformed bodies with field details', async () => {
    const admin = await setupAdmin();
    const book = await seedOneBook({ pageCount: 20 });
    const beyond = expectError(
      await put(book.id, admin.auth, { current_page: 21, is_completed: false }),
      400,
      'BadRequest',
    );
    expect(beyond.details).toEqual([{ path: 'current_page', message: 'must be between 1 and 20' }]);
    const zero = expectError(
      await put(book.id, admin.auth, { current_page: 0, is_completed: false }),
      400,
      'BadRequest',
    );
    expect(zero.details?.[0]?.path).toBe('current_page');
    for (const body of [
      { current_page: -1 },
      { current_page: 2.5 },
      { current_page: '3' },
      { is_completed: true },
      { current_page: 3, progress_percentage: 1.5 },
      { current_page: 3, progress_percentage: -0.1 },
      { current_page: 3, bookmark: 'x' },
    ]) {
      expectError(await put(book.id, admin.auth, body), 400, 'BadRequest');
    }
    const unanalyzed = await seedOneBook({ pageCount: 0, analyzed: false });
    expectError(await put(unanalyzed.id, admin.auth, { current_page: 1, is_completed: false }), 400, 'BadRequest');
    expectError(await api(`/books/${book.id}/progress`, { auth: admin.auth }), 404, 'NotFound');
  });
});

describe('reading, clearing and listing progress (API.md §4 Reading progress)', () => {
  it('marks a book read and unread, clears progress, and 404s unknown books', async () => {
    const admin = await setupAdmin();
    const book = await seedOneBook({ pageCount: 12 });
    const read = await api(`/books/${book.id}/read`, { method: 'POST', auth: admin.auth });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ bookId: book.id, currentPage: 12, completed: true, progressPercentage: 1 });
    expect((await api(`/books/${book.id}/unread`, { method: 'POST', auth: admin.auth })).status).toBe(204);
    expectError(await api(`/books/${book.id}/progress`, { auth: admin.auth }), 404, 'NotFound');

    await put(book.id, admin.auth, { current_page: 4, is_completed: false });
    expect((await api(`/books/${book.id}/progress`, { method: 'DELETE', auth: admin.auth })).status).toBe(204);
    expectError(await api(`/books/${book.id}/progress`, { auth: admin.auth }), 404, 'NotFound');
    expect((await api(`/books/${book.id}/progress`, { method: 'DELETE', auth: admin.auth })).status).toBe(204);

    const unknown = crypto.randomUUID();
    for (const [method, path, json] of [
      ['GET', `/books/${unknown}/progress`, undefined],
      ['PUT', `/books/${unknown}/progress`, { current_page: 1, is_completed: false }],
      ['DELETE', `/books/${unknown}/progress`, undefined],
      ['POST', `/books/${unknown}/read`, undefined],
      ['POST', `/books/${unknown}/unread`, undefined],
    ] as const) {
      expectError(await api(path, { method, json, auth: admin.auth }), 404, 'NotFound');
    }
    expectError(await api('/books/xyz/progress', { auth: admin.auth }), 400, 'BadRequest');
  });

  it('keeps the progress of a soft-deleted book and still lets it be read and changed', async () => {
    const admin = await setupAdmin();
    const book = await seedOneBook({ pageCount: 10 });
    await put(book.id, admin.auth, { current_page: 6, is_completed: false });
    await softDeleteBook(book.id);
    expect((await api(`/books/${book.id}/progress`, { auth: admin.auth })).body.currentPage).toBe(6);
    expect((await put(book.id, admin.auth, { current_page: 7, is_completed: false })).status).toBe(200);
    expect((await api('/progress', { auth: admin.auth })).body.total).toBe(1);
    // The book itself no longer shows in reading lists.
    expect((await api('/progress/currently-reading', { auth: admin.auth })).body.total).toBe(0);
  });

  it('lists only the user’s own progress, latest first, and the books they are reading', async () => {
    const admin = await setupAdmin();
    const other = await createUser(admin.auth);
    const otherAuth = (await login(other.username, other.password)).auth;
    const library = await seedLibrary();
    const owner = await seedSeries(library, { title: 'List' });
    const a = await seedBook(owner, { title: 'A' });
    const b = await seedBook(owner, { title: 'B' });
    const c = await seedBook(owner, { title: 'C' });
    await seedProgress(admin.userId, a.id, { currentPage: 2, updatedAt: '2026-08-01T00:00:00.000Z' });
    await seedProgress(admin.userId, b.id, { completed: true, updatedAt: '2026-08-03T00:00:00.000Z' });
    await seedProgress(admin.userId, c.id, { currentPage: 5, updatedAt: '2026-08-02T00:00:00.000Z' });
    await seedProgress(other.id, a.id, { currentPage: 9 });

    const mine = await api('/progress?pageSize=2', { auth: admin.auth });
    expect(mine.body).toMatchObject({ total: 3, totalPages: 2, pageSize: 2 });
    expect(mine.body.data.map((p: { bookId: string }) => p.bookId)).toEqual([b.id, c.id]);
    const rest = await api('/progress?page=2&page_size=2', { auth: admin.auth });
    expect(rest.body.data.map((p: { bookId: string }) => p.bookId)).toEqual([a.id]);
    const theirs = await api('/progress', { auth: otherAuth });
    expect(theirs.body.data).toEqual([expect.objectContaining({ bookId: a.id, currentPage: 9, userId: other.id })]);

    const reading = await api('/progress/currently-reading', { auth: admin.auth });
    expect(reading.body.data.map((book: { title: string }) => book.title)).toEqual(['C', 'A']);
    expect(reading.body.data[0].readProgress).toMatchObject({ currentPage: 5, completed: false });
  });
});

describe('device attribution (API.md §2 API key)', () => {
  const deviceOf = async (userId: string, bookId: string) =>
    db
      .select({ deviceId: readProgress.deviceId, deviceName: readProgress.deviceName, userId: readProgress.userId })
      .from(readProgress)
      .where(eq(readProgress.bookId, bookId))
      .all()
      .then((rows) => rows.find((row) => row.userId === userId));

  it('names the API key when one is used, else a hash of the User-Agent shared by sessions of the same app', async () => {
    const admin = await setupAdmin();
    const book = await seedOneBook();
    const key = await createApiKey(admin.auth, { name: 'Kobo Libra' });
    await put(book.id, { apiKey: key.key }, { current_page: 2, is_completed: false });
    expect(await deviceOf(admin.userId, book.id)).toMatchObject({
      deviceId: `api-key:${key.id}`,
      deviceName: 'Kobo Libra',
    });

    const agent = { 'User-Agent': 'KOReader/2024.11 (Kindle)' };
    await put(book.id, admin.auth, { current_page: 3, is_completed: false }, agent);
    const first = await deviceOf(admin.userId, book.id);
    expect(first?.deviceId).toMatch(/^ua:[0-9a-f]{16}$/);
    expect(first?.deviceName).toBe('KOReader/2024.11 (Kindle)');
    const secondSession = await login('admin', 'admin-password-1');
    await put(book.id, secondSession.auth, { current_page: 4, is_completed: false }, agent);
    expect((await deviceOf(admin.userId, book.id))?.deviceId).toBe(first?.deviceId);
    await put(book.id, admin.auth, { current_page: 5, is_completed: false }, { 'User-Agent': 'Panels/3.0' });
    expect((await deviceOf(admin.userId, book.id))?.deviceId).not.toBe(first?.deviceId);
  });
});

describe('progress permissions (DECISIONS.md §Roles: ProgressRead or BooksRead; ProgressWrite or BooksWrite)', () => {
  it('accepts either permission of each pair and refuses keys holding neither', async () => {
    const admin = await setupAdmin();
    const book = await seedOneBook({ pageCount: 10 });
    const keyWith = async (permissions: string[]) => ({
      apiKey: (await createApiKey(admin.auth, { name: permissions.join('+'), permissions })).key,
    });
    const progressRead = await keyWith(['ProgressRead']);
    const booksRead = await keyWith(['BooksRead']);
    const progressWrite = await keyWith(['ProgressWrite']);
    const booksWrite = await keyWith(['BooksWrite']);
    const seriesRead = await keyWith(['SeriesRead']);

    const body = { current_page: 2, is_completed: false };
    expect((await put(book.id, progressWrite, body)).status).toBe(200);
    expect((await put(book.id, booksWrite, body)).status).toBe(200);
    for (const denied of [progressRead, booksRead, seriesRead]) {
      expectError(await put(book.id, denied, body), 403, 'Forbidden');
      expectError(await api(`/books/${book.id}/read`, { method: 'POST', auth: denied }), 403, 'Forbidden');
      expectError(await api(`/books/${book.id}/progress`, { method: 'DELETE', auth: denied }), 403, 'Forbidden');
    }
    for (const allowed of [progressRead, booksRead]) {
      expect((await api(`/books/${book.id}/progress`, { auth: allowed })).status).toBe(200);
      expect((await api('/progress', { auth: allowed })).status).toBe(200);
      expect((await api('/progress/currently-reading', { auth: allowed })).status).toBe(200);
    }
    for (const denied of [progressWrite, seriesRead]) {
      expectError(await api(`/books/${book.id}/progress`, { auth: denied }), 403, 'Forbidden');
      expectError(await api('/progress', { auth: denied }), 403, 'Forbidden');
    }
    expect((await api(`/books/${book.id}/unread`, { method: 'POST', auth: booksWrite })).status).toBe(204);
  });

  it('answers 401 on every progress endpoint without credentials', async () => {
    await setupAdmin();
    const book = await seedOneBook();
    for (const [method, path, json] of [
      ['GET', `/books/${book.id}/progress`, undefined],
      ['PUT', `/books/${book.id}/progress`, { current_page: 1, is_completed: false }],
      ['DELETE', `/books/${book.id}/progress`, undefined],
      ['POST', `/books/${book.id}/read`, undefined],
      ['POST', `/books/${book.id}/unread`, undefined],
      ['GET', '/progress', undefined],
      ['GET', '/progress/currently-reading', undefined],
    ] as const) {
      expectError(await api(path, { method, json }), 401, 'Unauthorized');
    }
  });
});
