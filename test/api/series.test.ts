/** API.md §2 Series and Paginated envelope, §4 Series, Pagination parameters, Sorting; DECISIONS.md §Lists. */
import { describe, expect, it } from 'vitest';
import {
  seedBook,
  seedLibrary,
  seedProgress,
  seedSeries,
  seedSeriesWithBooks,
  seedSeriesWantToRead,
  seedWantToRead,
  softDeleteSeries,
} from '../support/catalog-factory';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';

const SERIES_FIELDS = [
  'ageRating',
  'bookCount',
  'coverVersion',
  'createdAt',
  'hasCustomCover',
  'id',
  'libraryId',
  'libraryName',
  'localMaxChapter',
  'localMaxVolume',
  'path',
  'publisher',
  'selectedCoverSource',
  'summary',
  'title',
  'titleSort',
  'tracked',
  'unreadCount',
  'updatedAt',
  'upstreamChapterGap',
  'upstreamGapProvider',
  'upstreamVolumeGap',
  'volumesOwned',
  'wantToRead',
  'year',
];

const titles = (body: { data: Array<{ title: string }> }) => body.data.map((s) => s.title);

/** Four series whose order differs for every sort field of API.md §4. */
async function seedSortableSeries(userId: string) {
  const library = await seedLibrary();
  const specs = [
    {
      title: 'alpha',
      createdAt: '2026-03-04T00:00:00.000Z',
      updatedAt: '2026-04-03T00:00:00.000Z',
      year: 2005,
      path: 'd-dir',
      books: [
        { fileSize: 4500, pageCount: 5 },
        { fileSize: 4500, pageCount: 5 },
      ],
      readAt: '2026-05-01T00:00:00.000Z',
    },
    {
      title: 'Bravo',
      createdAt: '2026-03-03T00:00:00.000Z',
      updatedAt: '2026-04-01T00:00:00.000Z',
      year: null,
      path: 'a-dir',
      books: [{ fileSize: 7000, pageCount: 40 }],
      readAt: '2026-05-03T00:00:00.000Z',
    },
    {
      title: 'charlie',
      createdAt: '2026-03-02T00:00:00.000Z',
      updatedAt: '2026-04-04T00:00:00.000Z',
      year: 1990,
      path: 'c-dir',
      books: [
        { fileSize: 250, pageCount: 8 },
        { fileSize: 250, pageCount: 8 },
        { fileSize: 250, pageCount: 7 },
        { fileSize: 250, pageCount: 7 },
      ],
      readAt: null,
    },
    {
      title: 'Delta',
      createdAt: '2026-03-01T00:00:00.000Z',
      updatedAt: '2026-04-02T00:00:00.000Z',
      year: 2000,
      path: 'b-dir',
      books: [
        { fileSize: 2000, pageCount: 7 },
        { fileSize: 2000, pageCount: 7 },
        { fileSize: 1000, pageCount: 6 },
      ],
      readAt: '2026-05-02T00:00:00.000Z',
    },
  ];
  for (const spec of specs) {
    const { books: bookSpecs, readAt, ...columns } = spec;
    const owner = await seedSeries(library, columns);
    let n = 0;
    for (const book of bookSpecs) {
      const row = await seedBook(owner, { ...book, number: ++n });
      if (readAt && n === 1) await seedProgress(userId, row.id, { currentPage: 2, updatedAt: readAt });
    }
  }
  return library;
}

describe('series list sorting (API.md §4 Sorting and simple filters)', () => {
  const ascending: Record<string, string[]> = {
    name: ['alpha', 'Bravo', 'charlie', 'Delta'],
    date_added: ['Delta', 'charlie', 'Bravo', 'alpha'],
    date_updated: ['Bravo', 'Delta', 'alpha', 'charlie'],
    book_count: ['Bravo', 'alpha', 'Delta', 'charlie'],
    file_size: ['charlie', 'Delta', 'Bravo', 'alpha'],
    filename: ['Bravo', 'Delta', 'charlie', 'alpha'],
    page_count: ['alpha', 'Delta', 'charlie', 'Bravo'],
  };
  // Series without a value come last in both directions.
  const withNulls: Record<string, { asc: string[]; desc: string[] }> = {
    release_date: { asc: ['charlie', 'Delta', 'alpha', 'Bravo'], desc: ['alpha', 'Delta', 'charlie', 'Bravo'] },
    date_read: { asc: ['alpha', 'Delta', 'Bravo', 'charlie'], desc: ['Bravo', 'Delta', 'alpha', 'charlie'] },
  };

  it('orders by every sort field, with order= and with <field>,<direction>, on GET and POST lists', async () => {
    const admin = await setupAdmin();
    await seedSortableSeries(admin.userId);
    const expectations = [
      ...Object.entries(ascending).map(([field, asc]) => ({ field, asc, desc: [...asc].reverse() })),
      ...Object.entries(withNulls).map(([field, orders]) => ({ field, ...orders })),
    ];
    for (const { field, asc, desc } of expectations) {
      const byOrder = await api(`/series?sort=${field}&order=asc`, { auth: admin.auth });
      expect(byOrder.status, field).toBe(200);
      expect(titles(byOrder.body), `${field} asc`).toEqual(asc);
      const byComma = await api(`/series?sort=${field},desc`, { auth: admin.auth });
      expect(titles(byComma.body), `${field} desc`).toEqual(desc);
      const posted = await api(`/series/list?sort=${field},desc`, { auth: admin.auth, json: {} });
      expect(titles(posted.body), `POST ${field} desc`).toEqual(desc);
      const postedOrder = await api(`/series/list?sort=${field}&order=asc`, { auth: admin.auth, json: {} });
      expect(titles(postedOrder.body), `POST ${field} asc`).toEqual(asc);
    }
  });

  it('defaults to name ascending; order alone flips it', async () => {
    const admin = await setupAdmin();
    await seedSortableSeries(admin.userId);
    expect(titles((await api('/series', { auth: admin.auth })).body)).toEqual(ascending.name);
    expect(titles((await api('/series?order=desc', { auth: admin.auth })).body)).toEqual(
      [...(ascending.name as string[])].reverse(),
    );
  });

  it('answers an unknown sort field or direction with 400 listing what is allowed', async () => {
    const admin = await setupAdmin();
    const unknown = expectError(await api('/series?sort=title', { auth: admin.auth }), 400, 'BadRequest');
    expect(unknown.message).toContain("'title'");
    for (const field of [...Object.keys(ascending), ...Object.keys(withNulls)]) {
      expect(unknown.message).toContain(field);
    }
    expect(unknown.details?.[0]?.path).toBe('sort');
    expectError(await api('/series?sort=name&order=up', { auth: admin.auth }), 400, 'BadRequest');
    expectError(await api('/series?sort=name,sideways', { auth: admin.auth }), 400, 'BadRequest');
    expectError(await api('/series/list?sort=nope', { auth: admin.auth, json: {} }), 400, 'BadRequest');
  });
});

describe('series list filters and envelope (API.md §2 Paginated envelope, §4 Pagination parameters)', () => {
  it('filters by library_id and hides soft-deleted series', async () => {
    const admin = await setupAdmin();
    const manga = await seedLibrary({ name: 'Manga' });
    const comics = await seedLibrary({ name: 'Comics' });
    await seedSeries(manga, { title: 'Naruto' });
    await seedSeries(comics, { title: 'Saga' });
    const gone = await seedSeries(comics, { title: 'Gone' });
    await softDeleteSeries(gone.id);

    expect(titles((await api('/series', { auth: admin.auth })).body)).toEqual(['Naruto', 'Saga']);
    const scoped = await api(`/series?library_id=${comics.id}`, { auth: admin.auth });
    expect(titles(scoped.body)).toEqual(['Saga']);
    expect(scoped.body.data[0].libraryName).toBe('Comics');
    expectError(await api('/series?library_id=nope', { auth: admin.auth }), 400, 'BadRequest');
  });

  it('pages at the edges: exact fit, last partial page, beyond the end, clamped size, legacy page_size', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    for (const title of ['s1', 's2', 's3', 's4', 's5']) await seedSeries(library, { title });

    const first = await api('/series?pageSize=2', { auth: admin.auth });
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, total: 5, totalPages: 3 });
    expect(titles(first.body)).toEqual(['s1', 's2']);
    expect(first.body.links).toEqual({
      self: '/api/v1/series?pageSize=2&page=1',
      first: '/api/v1/series?pageSize=2&page=1',
      last: '/api/v1/series?pageSize=2&page=3',
      prev: null,
      next: '/api/v1/series?pageSize=2&page=2',
    });
    const last = await api('/series?page=3&pageSize=2', { auth: admin.auth });
    expect(titles(last.body)).toEqual(['s5']);
    expect(last.body.links.next).toBeNull();
    expect(last.body.links.prev).toBe('/api/v1/series?page=2&pageSize=2');
    const beyond = await api('/series?page=4&pageSize=2', { auth: admin.auth });
    expect(beyond.body).toMatchObject({ data: [], page: 4, total: 5, totalPages: 3 });
    const exact = await api('/series?pageSize=5', { auth: admin.auth });
    expect(exact.body).toMatchObject({ totalPages: 1, total: 5 });
    expect(exact.body.links.next).toBeNull();
    const clamped = await api('/series?pageSize=10000', { auth: admin.auth });
    expect(clamped.body.pageSize).toBe(500);
    const legacy = await api('/series?page_size=1&page=2', { auth: admin.auth });
    expect(titles(legacy.body)).toEqual(['s2']);
    expectError(await api('/series?page=0', { auth: admin.auth }), 400, 'BadRequest');
    expectError(await api('/series?pageSize=0', { auth: admin.auth }), 400, 'BadRequest');
  });

  it('is empty with zero pages on an empty catalog', async () => {
    const admin = await setupAdmin();
    const res = await api('/series', { auth: admin.auth });
    expect(res.body).toMatchObject({ data: [], total: 0, totalPages: 0, page: 1 });
  });
});

describe('series detail and per-user fields (API.md §2 Series)', () => {
  it('returns exactly the Series fields with the user’s unread count and want-to-read flag', async () => {
    const admin = await setupAdmin();
    const other = await createUser(admin.auth);
    const otherAuth = (await login(other.username, other.password)).auth;
    const library = await seedLibrary({ name: 'Manga' });
    const { series, books } = await seedSeriesWithBooks(library, 3, {
      title: 'One Piece',
      summary: 'Pirates',
      publisher: 'Shueisha',
      year: 1997,
    });
    await seedProgress(admin.userId, books[0]!.id, { completed: true, currentPage: 20 });
    await seedProgress(admin.userId, books[1]!.id, { currentPage: 3 });
    // A series' wantToRead is the series itself queued (DECISIONS.md §Organise and share); a queued book of
    // it, as the other user has, does not make it true.
    await seedSeriesWantToRead(admin.userId, series.id);
    await seedWantToRead(other.id, books[2]!.id);

    const mine = await api(`/series/${series.id}`, { auth: admin.auth });
    expect(mine.status).toBe(200);
    expect(Object.keys(mine.body).sort()).toEqual(SERIES_FIELDS);
    expect(mine.body).toMatchObject({
      id: series.id,
      title: 'One Piece',
      titleSort: 'One Piece',
      summary: 'Pirates',
      publisher: 'Shueisha',
      year: 1997,
      libraryId: library.id,
      libraryName: 'Manga',
      bookCount: 3,
      unreadCount: 2,
      wantToRead: true,
      tracked: false,
      hasCustomCover: false,
      selectedCoverSource: 'first_book',
    });
    const theirs = await api(`/series/${series.id}`, { auth: otherAuth });
    expect(theirs.body).toMatchObject({ unreadCount: 3, wantToRead: false });
    // wantToRead is populated on the detail endpoint only.
    const listed = await api('/series', { auth: admin.auth });
    expect(listed.body.data[0]).toMatchObject({ unreadCount: 2, wantToRead: null });
  });

  it('reports local chapter/volume facts and upstream gaps only under the tracking rules', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const gap = async (
      seed: Parameters<typeof seedSeries>[1],
      chapters: Array<number | null>,
      volumes: Array<number | null>,
    ) => {
      const owner = await seedSeries(library, seed);
      for (let i = 0; i < chapters.length; i++) {
        await seedBook(owner, { chapter: chapters[i], volume: volumes[i], number: i + 1 });
      }
      return (await api(`/series/${owner.id}`, { auth: admin.auth })).body;
    };

    const untracked = await gap({ title: 'untracked' }, [1, 2], [null, null]);
    expect(untracked).toMatchObject({
      tracked: false,
      localMaxChapter: 2,
      upstreamChapterGap: null,
      upstreamGapProvider: null,
    });

    const chapters = await gap(
      {
        title: 'chapters',
        tracking: {
          chapterTracking: true,
          volumeTracking: false,
          providerName: 'MangaDex',
          providerChapterCount: 12.37,
          providerVolumeCount: 9,
        },
      },
      [9.5, 10, null],
      [null, null, 2],
    );
    expect(chapters).toMatchObject({
      tracked: true,
      localMaxChapter: 10,
      localMaxVolume: 2,
      volumesOwned: 1,
      upstreamChapterGap: 2.4,
      upstreamVolumeGap: null,
      upstreamGapProvider: 'MangaDex',
    });

    const volumes = await gap(
      {
        title: 'volumes',
        tracking: {
          chapterTracking: false,
          volumeTracking: true,
          providerName: 'AniList',
          providerChapterCount: 300,
          providerVolumeCount: 5,
        },
      },
      [null, null, 4],
      [1, 3, null],
    );
    expect(volumes).toMatchObject({
      volumesOwned: 2,
      localMaxVolume: 3,
      upstreamChapterGap: null,
      upstreamVolumeGap: 2,
      upstreamGapProvider: 'AniList',
    });

    const unknownCount = await gap(
      {
        title: 'unknown',
        tracking: { providerName: 'MangaDex', providerChapterCount: null, providerVolumeCount: null },
      },
      [3],
      [1],
    );
    expect(unknownCount).toMatchObject({
      tracked: true,
      upstreamChapterGap: null,
      upstreamVolumeGap: null,
      upstreamGapProvider: null,
    });

    const caughtUp = await gap(
      {
        title: 'caught up',
        tracking: { providerName: 'MangaDex', providerChapterCount: 10.02, providerVolumeCount: 1 },
      },
      [10],
      [1],
    );
    expect(caughtUp).toMatchObject({ upstreamChapterGap: null, upstreamVolumeGap: null, upstreamGapProvider: null });

    const empty = (await api(`/series/${(await seedSeries(library, { title: 'empty' })).id}`, { auth: admin.auth }))
      .body;
    expect(empty).toMatchObject({ bookCount: 0, volumesOwned: null, localMaxChapter: null, localMaxVolume: null });
  });

  it('answers 404 for an unknown or soft-deleted series and 400 for a malformed id', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const gone = await seedSeries(library);
    await softDeleteSeries(gone.id);
    expectError(await api(`/series/${crypto.randomUUID()}`, { auth: admin.auth }), 404, 'NotFound');
    expectError(await api(`/series/${gone.id}`, { auth: admin.auth }), 404, 'NotFound');
    expectError(await api('/series/not-a-uuid', { auth: admin.auth }), 400, 'BadRequest');
  });
});

describe('books of a series (API.md §4 Series)', () => {
  it('lists the live books in reading order, sortable, 404 for an unknown series', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const owner = await seedSeries(library, { title: 'Saga' });
    await seedBook(owner, { title: 'Saga #10', number: 10, sortKey: '0010' });
    await seedBook(owner, { title: 'Saga #2', number: 2, sortKey: '0002' });
    await seedBook(owner, { title: 'Saga Special', number: null, sortKey: 'special' });
    await seedBook(owner, { title: 'Saga #1', number: 1, sortKey: '0001' });
    await seedSeriesWithBooks(library, 2, { title: 'Other' });

    const res = await api(`/series/${owner.id}/books`, { auth: admin.auth });
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['Saga #1', 'Saga #2', 'Saga #10', 'Saga Special']);
    expect(res.body.total).toBe(4);
    const byTitle = await api(`/series/${owner.id}/books?sort=title,desc`, { auth: admin.auth });
    expect(titles(byTitle.body)).toEqual(['Saga Special', 'Saga #2', 'Saga #10', 'Saga #1']);
    expectError(await api(`/series/${crypto.randomUUID()}/books`, { auth: admin.auth }), 404, 'NotFound');
  });
});

describe('recently added / updated and in-progress series (API.md §4 Series)', () => {
  it('orders by creation and update time, newest first, and scopes by library', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const elsewhere = await seedLibrary();
    await seedSeries(library, {
      title: 'old',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-02-03T00:00:00.000Z',
    });
    await seedSeries(library, {
      title: 'new',
      createdAt: '2026-01-03T00:00:00.000Z',
      updatedAt: '2026-02-01T00:00:00.000Z',
    });
    await seedSeries(library, {
      title: 'mid',
      createdAt: '2026-01-02T00:00:00.000Z',
      updatedAt: '2026-02-02T00:00:00.000Z',
    });
    await seedSeries(elsewhere, {
      title: 'other',
      createdAt: '2026-01-04T00:00:00.000Z',
      updatedAt: '2026-02-04T00:00:00.000Z',
    });

    const added = await api(`/series/recently-added?library_id=${library.id}`, { auth: admin.auth });
    expect(titles(added.body)).toEqual(['new', 'mid', 'old']);
    const updated = await api(`/series/recently-updated?library_id=${library.id}`, { auth: admin.auth });
    expect(titles(updated.body)).toEqual(['old', 'mid', 'new']);
    expect(titles((await api('/series/recently-added', { auth: admin.auth })).body)[0]).toBe('other');
  });

  it('lists series where the user has a book in progress, latest activity first, per user', async () => {
    const admin = await setupAdmin();
    const other = await createUser(admin.auth);
    const otherAuth = (await login(other.username, other.password)).auth;
    const library = await seedLibrary();
    const a = await seedSeriesWithBooks(library, 2, { title: 'A' });
    const b = await seedSeriesWithBooks(library, 2, { title: 'B' });
    const done = await seedSeriesWithBooks(library, 1, { title: 'Done' });
    await seedSeriesWithBooks(library, 1, { title: 'Untouched' });
    await seedProgress(admin.userId, a.books[0]!.id, { currentPage: 3, updatedAt: '2026-06-01T00:00:00.000Z' });
    await seedProgress(admin.userId, a.books[1]!.id, { currentPage: 3, updatedAt: '2026-06-02T00:00:00.000Z' });
    await seedProgress(admin.userId, b.books[0]!.id, { currentPage: 1, updatedAt: '2026-06-03T00:00:00.000Z' });
    await seedProgress(admin.userId, done.books[0]!.id, { completed: true });
    await seedProgress(other.id, a.books[0]!.id, { currentPage: 1 });

    const mine = await api('/series/in-progress', { auth: admin.auth });
    expect(titles(mine.body)).toEqual(['B', 'A']);
    expect(mine.body.total).toBe(2);
    expect(titles((await api('/series/in-progress', { auth: otherAuth })).body)).toEqual(['A']);
  });
});

describe('marking a series read or unread (API.md §4 Series)', () => {
  it('completes every live book for the user only, then clears it again', async () => {
    const admin = await setupAdmin();
    const other = await createUser(admin.auth);
    const otherAuth = (await login(other.username, other.password)).auth;
    const library = await seedLibrary();
    const { series, books } = await seedSeriesWithBooks(library, 3, { title: 'Berserk' });
    await seedProgress(admin.userId, books[0]!.id, { currentPage: 4 });

    expect((await api(`/series/${series.id}/read`, { method: 'POST', auth: admin.auth })).status).toBe(204);
    expect((await api(`/series/${series.id}`, { auth: admin.auth })).body.unreadCount).toBe(0);
    expect((await api(`/series/${series.id}`, { auth: otherAuth })).body.unreadCount).toBe(3);
    const progress = await api(`/books/${books[0]!.id}/progress`, { auth: admin.auth });
    expect(progress.body).toMatchObject({ completed: true, currentPage: 20, progressPercentage: 1 });
    expect(progress.body.completedAt).toEqual(expect.any(String));
    const read = await api('/books/recently-read', { auth: admin.auth });
    expect(read.body.total).toBe(3);

    expect((await api(`/series/${series.id}/unread`, { method: 'POST', auth: admin.auth })).status).toBe(204);
    expect((await api(`/series/${series.id}`, { auth: admin.auth })).body.unreadCount).toBe(3);
    expectError(await api(`/books/${books[0]!.id}/progress`, { auth: admin.auth }), 404, 'NotFound');
  });

  it('answers 404 for an unknown series', async () => {
    const admin = await setupAdmin();
    for (const state of ['read', 'unread']) {
      expectError(
        await api(`/series/${crypto.randomUUID()}/${state}`, { method: 'POST', auth: admin.auth }),
        404,
        'NotFound',
      );
    }
  });
});

describe('series endpoints need credentials and permissions (API.md §5, §7; DECISIONS.md §Roles)', () => {
  it('answers 401 without credentials and 403 without the permission', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const { series } = await seedSeriesWithBooks(library, 1);
    const reader = await createUser(admin.auth);
    const readerAuth = (await login(reader.username, reader.password)).auth;
    const keyRes = await api('/api-keys', {
      auth: readerAuth,
      json: { name: 'books only', permissions: ['BooksRead', 'ProgressRead'] },
    });
    const booksOnly = { apiKey: keyRes.body.key as string };
    const endpoints: Array<{ method: string; path: string; json?: unknown; write?: boolean }> = [
      { method: 'GET', path: '/series' },
      { method: 'POST', path: '/series/list', json: {} },
      { method: 'POST', path: '/series/search', json: { query: 'x' } },
      { method: 'GET', path: '/series/in-progress' },
      { method: 'GET', path: '/series/recently-added' },
      { method: 'GET', path: '/series/recently-updated' },
      { method: 'GET', path: `/series/${series.id}` },
      { method: 'GET', path: `/series/${series.id}/books` },
      { method: 'POST', path: `/series/${series.id}/read`, write: true },
      { method: 'POST', path: `/series/${series.id}/unread`, write: true },
    ];
    for (const endpoint of endpoints) {
      const anonymous = await api(endpoint.path, { method: endpoint.method, json: endpoint.json });
      expectError(anonymous, 401, 'Unauthorized');
      const denied = await api(endpoint.path, { method: endpoint.method, json: endpoint.json, auth: booksOnly });
      expect(denied.status, `${endpoint.method} ${endpoint.path}`).toBe(403);
      const allowed = await api(endpoint.path, { method: endpoint.method, json: endpoint.json, auth: readerAuth });
      expect(allowed.status, `${endpoint.method} ${endpoint.path}`).toBe(endpoint.write ? 204 : 200);
    }
  });
});
