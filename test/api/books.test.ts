/** API.md §2 Book, §4 Books, Sorting and simple filters; DECISIONS.md §Lists and §Storage (soft deletion). */
import { describe, expect, it } from 'vitest';
import {
  seedBook,
  seedLibrary,
  seedProgress,
  seedSeries,
  seedSeriesWithBooks,
  seedWantToRead,
  softDeleteBook,
} from '../support/catalog-factory';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';

const BOOK_FIELDS = [
  'ageRating',
  'analysisError',
  'analyzed',
  'chapter',
  'coverVersion',
  'createdAt',
  'deleted',
  'fileFormat',
  'fileHash',
  'fileSize',
  'id',
  'libraryId',
  'libraryName',
  'number',
  'numberSort',
  'pageCount',
  'path',
  'readerHash',
  'readingDirection',
  'seriesId',
  'seriesName',
  'summary',
  'title',
  'titleSort',
  'updatedAt',
  'volume',
  'wantToRead',
];

const titles = (body: { data: Array<{ title: string }> }) => body.data.map((b) => b.title);

async function reader(admin: { auth: Credentials }) {
  const user = await createUser(admin.auth);
  return { id: user.id, auth: (await login(user.username, user.password)).auth };
}

describe('book list sorting (API.md §4 Sorting and simple filters)', () => {
  const ascending: Record<string, string[]> = {
    title: ['whiskey', 'Xray', 'yankee', 'Zulu'],
    file_size: ['Xray', 'Zulu', 'yankee', 'whiskey'],
    page_count: ['whiskey', 'Zulu', 'Xray', 'yankee'],
    created_at: ['Zulu', 'yankee', 'whiskey', 'Xray'],
    modified_at: ['Xray', 'whiskey', 'Zulu', 'yankee'],
  };

  async function seedSortableBooks() {
    const library = await seedLibrary();
    const owner = await seedSeries(library, { title: 'Sortable' });
    const at = (day: number) => `2026-02-0${day}T00:00:00.000Z`;
    await seedBook(owner, {
      title: 'whiskey',
      number: 3,
      fileSize: 400,
      pageCount: 10,
      createdAt: at(3),
      updatedAt: at(2),
    });
    await seedBook(owner, {
      title: 'Xray',
      number: null,
      fileSize: 100,
      pageCount: 30,
      createdAt: at(4),
      updatedAt: at(1),
    });
    await seedBook(owner, {
      title: 'yankee',
      number: 1,
      fileSize: 300,
      pageCount: 40,
      createdAt: at(2),
      updatedAt: at(4),
    });
    await seedBook(owner, {
      title: 'Zulu',
      number: 2,
      fileSize: 200,
      pageCount: 20,
      createdAt: at(1),
      updatedAt: at(3),
    });
    return owner;
  }

  it('orders by every sort field in both directions, on GET /books and POST /books/list', async () => {
    const admin = await setupAdmin();
    await seedSortableBooks();
    for (const [field, asc] of Object.entries(ascending)) {
      const desc = [...asc].reverse();
      expect(titles((await api(`/books?sort=${field}&order=asc`, { auth: admin.auth })).body), field).toEqual(asc);
      expect(titles((await api(`/books?sort=${field}&order=desc`, { auth: admin.auth })).body), field).toEqual(desc);
      const posted = await api(`/books/list?sort=${field},desc`, { auth: admin.auth, json: {} });
      expect(titles(posted.body), `POST ${field}`).toEqual(desc);
    }
    // Books without a number come last in both directions.
    expect(titles((await api('/books?sort=number&order=asc', { auth: admin.auth })).body)).toEqual([
      'yankee',
      'Zulu',
      'whiskey',
      'Xray',
    ]);
    expect(titles((await api('/books?sort=number,desc', { auth: admin.auth })).body)).toEqual([
      'whiskey',
      'Zulu',
      'yankee',
      'Xray',
    ]);
  });

  it('defaults to title, or to reading order within a series', async () => {
    const admin = await setupAdmin();
    const owner = await seedSortableBooks();
    expect(titles((await api('/books', { auth: admin.auth })).body)).toEqual(ascending.title);
    expect(titles((await api(`/books?series_id=${owner.id}`, { auth: admin.auth })).body)).toEqual([
      'yankee',
      'Zulu',
      'whiskey',
      'Xray',
    ]);
  });

  it('answers an unknown sort field with 400 listing the allowed ones', async () => {
    const admin = await setupAdmin();
    const error = expectError(await api('/books?sort=name', { auth: admin.auth }), 400, 'BadRequest');
    for (const field of ['title', 'number', 'file_size', 'page_count', 'created_at', 'modified_at']) {
      expect(error.message).toContain(field);
    }
    expectError(await api('/books/list?sort=size,asc', { auth: admin.auth, json: {} }), 400, 'BadRequest');
  });
});

describe('book list filters and soft deletion (API.md §4, DECISIONS.md §Storage)', () => {
  it('filters by library_id and series_id and hides soft-deleted books from lists only', async () => {
    const admin = await setupAdmin();
    const manga = await seedLibrary({ name: 'Manga' });
    const comics = await seedLibrary({ name: 'Comics' });
    const naruto = await seedSeriesWithBooks(manga, 2, { title: 'Naruto' });
    const bleach = await seedSeriesWithBooks(manga, 1, { title: 'Bleach' });
    await seedSeriesWithBooks(comics, 1, { title: 'Saga' });
    await softDeleteBook(naruto.books[1]!.id);

    expect(titles((await api('/books', { auth: admin.auth })).body)).toEqual(['Bleach 1', 'Naruto 1', 'Saga 1']);
    expect(titles((await api(`/books?library_id=${manga.id}`, { auth: admin.auth })).body)).toEqual([
      'Bleach 1',
      'Naruto 1',
    ]);
    expect(titles((await api(`/books?series_id=${bleach.series.id}`, { auth: admin.auth })).body)).toEqual([
      'Bleach 1',
    ]);
    expect(
      (await api(`/books?library_id=${comics.id}&series_id=${bleach.series.id}`, { auth: admin.auth })).body.total,
    ).toBe(0);
    expect((await api('/books/recently-added', { auth: admin.auth })).body.total).toBe(3);

    const deleted = await api(`/books/${naruto.books[1]!.id}`, { auth: admin.auth });
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toBe(true);
    expectError(await api('/books?series_id=42', { auth: admin.auth }), 400, 'BadRequest');
  });

  it('pages with the envelope', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    await seedSeriesWithBooks(library, 3, { title: 'P' });
    const second = await api('/books?pageSize=2&page=2', { auth: admin.auth });
    expect(second.body).toMatchObject({ page: 2, pageSize: 2, total: 3, totalPages: 2 });
    expect(titles(second.body)).toEqual(['P 3']);
    expect(second.body.links).toMatchObject({ prev: '/api/v1/books?pageSize=2&page=1', next: null });
  });
});

describe('book detail and per-user fields (API.md §2 Book)', () => {
  it('returns exactly the Book fields; readProgress and wantToRead are the requesting user’s', async () => {
    const admin = await setupAdmin();
    const other = await reader(admin);
    const library = await seedLibrary({ name: 'Manga' });
    const owner = await seedSeries(library, { title: 'Dune' });
    const book = await seedBook(owner, {
      title: 'Dune 1',
      summary: 'Spice',
      fileFormat: 'epub',
      fileSize: 123456,
      readerHash: 'abc',
      pageCount: 300,
      number: 1,
      volume: 1,
      chapter: 1.5,
      analysisError: 'broken page 7',
    });
    await seedProgress(admin.userId, book.id, { currentPage: 12 });
    await seedWantToRead(other.id, book.id);

    const mine = await api(`/books/${book.id}`, { auth: admin.auth });
    expect(mine.status).toBe(200);
    expect(Object.keys(mine.body).sort()).toEqual([...BOOK_FIELDS, 'readProgress'].sort());
    expect(mine.body).toMatchObject({
      id: book.id,
      title: 'Dune 1',
      titleSort: 'Dune 1',
      summary: 'Spice',
      libraryId: library.id,
      libraryName: 'Manga',
      seriesId: owner.id,
      seriesName: 'Dune',
      path: book.path,
      fileFormat: 'epub',
      fileSize: 123456,
      fileHash: book.fileHash,
      readerHash: 'abc',
      pageCount: 300,
      analyzed: true,
      analysisError: 'broken page 7',
      number: 1,
      volume: 1,
      chapter: 1.5,
      readingDirection: 'ltr',
      wantToRead: false,
      deleted: false,
    });
    expect(mine.body.readProgress).toMatchObject({
      bookId: book.id,
      userId: admin.userId,
      currentPage: 12,
      completed: false,
    });

    const theirs = await api(`/books/${book.id}`, { auth: other.auth });
    expect(Object.keys(theirs.body).sort()).toEqual(BOOK_FIELDS);
    expect(theirs.body.wantToRead).toBe(true);
    // Lists carry the same per-user fields.
    const listed = await api('/books', { auth: other.auth });
    expect(listed.body.data[0]).toMatchObject({ wantToRead: true });
    expect(listed.body.data[0].readProgress).toBeUndefined();
    expect((await api('/books', { auth: admin.auth })).body.data[0].readProgress.currentPage).toBe(12);
  });

  it('resolves the reading direction: series value, else the book’s own, else the library default', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary({ defaultReadingDirection: 'rtl' });
    const plain = await seedSeries(library, { title: 'plain' });
    const webtoon = await seedSeries(library, { title: 'webtoon', readingDirection: 'webtoon' });
    const inherits = await seedBook(plain, { title: 'inherits' });
    const own = await seedBook(plain, { title: 'own', readingDirection: 'ttb' });
    const overridden = await seedBook(webtoon, { title: 'overridden', readingDirection: 'ltr' });
    const direction = async (id: string) => (await api(`/books/${id}`, { auth: admin.auth })).body.readingDirection;
    expect(await direction(inherits.id)).toBe('rtl');
    expect(await direction(own.id)).toBe('ttb');
    expect(await direction(overridden.id)).toBe('webtoon');
  });

  it('answers 404 for an unknown book and 400 for a malformed id', async () => {
    const admin = await setupAdmin();
    expectError(await api(`/books/${crypto.randomUUID()}`, { auth: admin.auth }), 404, 'NotFound');
    expectError(await api('/books/123', { auth: admin.auth }), 400, 'BadRequest');
  });
});

describe('reading-state book lists (API.md §4 Books)', () => {
  it('recently added: newest first; in progress and recently read: the user’s latest activity first', async () => {
    const admin = await setupAdmin();
    const other = await reader(admin);
    const library = await seedLibrary();
    const { books } = await seedSeriesWithBooks(library, 5, { title: 'R' });
    const [b1, b2, b3, b4, b5] = books as [
      (typeof books)[0],
      (typeof books)[0],
      (typeof books)[0],
      (typeof books)[0],
      (typeof books)[0],
    ];
    await seedProgress(admin.userId, b1.id, { currentPage: 2, updatedAt: '2026-07-01T00:00:00.000Z' });
    await seedProgress(admin.userId, b2.id, { currentPage: 2, updatedAt: '2026-07-03T00:00:00.000Z' });
    await seedProgress(admin.userId, b3.id, { completed: true, updatedAt: '2026-07-02T00:00:00.000Z' });
    await seedProgress(admin.userId, b4.id, { completed: true, updatedAt: '2026-07-04T00:00:00.000Z' });
    await seedProgress(other.id, b5.id, { currentPage: 1 });
    await softDeleteBook(b1.id);

    expect(titles((await api('/books/recently-added', { auth: admin.auth })).body)).toEqual([
      'R 5',
      'R 4',
      'R 3',
      'R 2',
    ]);
    const reading = await api('/books/in-progress', { auth: admin.auth });
    expect(titles(reading.body)).toEqual(['R 2']);
    expect(reading.body.data[0].readProgress).toMatchObject({ currentPage: 2, completed: false });
    expect(titles((await api('/books/recently-read', { auth: admin.auth })).body)).toEqual(['R 4', 'R 3']);
    expect(titles((await api('/books/in-progress', { auth: other.auth })).body)).toEqual(['R 5']);
    expect((await api(`/books/in-progress?library_id=${crypto.randomUUID()}`, { auth: admin.auth })).body.total).toBe(
      0,
    );
  });
});

describe('book endpoints need credentials and permissions (API.md §5, §7; DECISIONS.md §Roles)', () => {
  it('answers 401 without credentials and 403 without BooksRead', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const { books } = await seedSeriesWithBooks(library, 1);
    const user = await reader(admin);
    const key = await api('/api-keys', { auth: user.auth, json: { name: 'series only', permissions: ['SeriesRead'] } });
    const seriesOnly = { apiKey: key.body.key as string };
    const endpoints: Array<{ method: string; path: string; json?: unknown }> = [
      { method: 'GET', path: '/books' },
      { method: 'POST', path: '/books/list', json: {} },
      { method: 'GET', path: '/books/in-progress' },
      { method: 'GET', path: '/books/on-deck' },
      { method: 'GET', path: '/books/recently-added' },
      { method: 'GET', path: '/books/recently-read' },
      { method: 'GET', path: `/books/${books[0]!.id}` },
    ];
    for (const endpoint of endpoints) {
      const label = `${endpoint.method} ${endpoint.path}`;
      expectError(await api(endpoint.path, { method: endpoint.method, json: endpoint.json }), 401, 'Unauthorized');
      const denied = await api(endpoint.path, { method: endpoint.method, json: endpoint.json, auth: seriesOnly });
      expect(denied.status, label).toBe(403);
      expect(denied.body.error, label).toBe('Forbidden');
      const allowed = await api(endpoint.path, { method: endpoint.method, json: endpoint.json, auth: user.auth });
      expect(allowed.status, label).toBe(200);
    }
  });
});
