/**
 * DECISIONS.md §Reader apps, issue 10: every Komga endpoint the clients call answers with JSON the
 * clients deserialize — checked against schemas transcribed from Mihon's extension and tracker and
 * Komelia's komga-client (test/support/komga-client-dtos.ts) — and with Komga's semantics where they
 * differ from Longbox's (0-based pages of a Spring envelope, 1-based page numbers, completed flags,
 * numberSort, sort names).
 */
import { describe, expect, it } from 'vitest';
import {
  expectParses,
  KomeliaBook,
  KomeliaBookPage,
  KomeliaLibrary,
  KomeliaPage,
  KomeliaSeries,
  MihonBookDto,
  MihonCollectionDto,
  MihonLibraryDto,
  MihonPageDto,
  MihonPageWrapper,
  MihonReadProgressV2Dto,
  MihonSeriesDto,
  MihonTrackerSeriesDto,
} from '../support/komga-client-dtos';
import { api } from '../support/http';
import { komga, komgaLibrary } from '../support/komga';
import { imageKind, imageSize } from '../support/media';
import { waitForTasks } from '../support/tasks';
import { z } from 'zod';

async function seriesByName(auth: any) {
  const page = await komga('/api/v1/series?unpaged=true', { auth });
  return Object.fromEntries(page.body.content.map((s: any) => [s.name, s])) as Record<string, any>;
}

describe('Komga API contract (issue 10; DECISIONS.md §Reader apps)', () => {
  it('libraries, series pages, series and books deserialize in Mihon and Komelia', async () => {
    const { admin, libraryId } = await komgaLibrary();
    const auth = admin.auth;

    const libraries = await komga('/api/v1/libraries', { auth });
    expect(libraries.status).toBe(200);
    expectParses(z.array(MihonLibraryDto), libraries.body, 'libraries (Mihon)');
    expectParses(z.array(KomeliaLibrary), libraries.body, 'libraries (Komelia)');
    expect(libraries.body).toEqual([expect.objectContaining({ id: libraryId, name: 'Manga' })]);
    const library = await komga(`/api/v1/libraries/${libraryId}`, { auth });
    expectParses(KomeliaLibrary, library.body, 'library');

    // Mihon's popular request: page 0, sorted by titleSort, Spring page envelope.
    const popular = await komga('/api/v1/series?search=&page=0&deleted=false&sort=metadata.titleSort,asc', { auth });
    expect(popular.status).toBe(200);
    expectParses(MihonPageWrapper(MihonSeriesDto), popular.body, 'series page (Mihon)');
    expectParses(KomeliaPage(KomeliaSeries), popular.body, 'series page (Komelia)');
    expect(popular.body).toMatchObject({
      totalElements: 2,
      totalPages: 1,
      number: 0,
      size: 20,
      first: true,
      last: true,
      empty: false,
      numberOfElements: 2,
      pageable: { pageNumber: 0, pageSize: 20, offset: 0, paged: true, unpaged: false },
      sort: { sorted: true, unsorted: false, empty: false },
    });
    expect(popular.body.content.map((s: any) => s.name)).toEqual(['Berserk', 'Saga']);

    const berserk = popular.body.content[0];
    expect(berserk).toMatchObject({
      libraryId,
      booksCount: 3,
      booksReadCount: 0,
      booksUnreadCount: 3,
      booksInProgressCount: 0,
      deleted: false,
      metadata: { title: 'Berserk', status: 'ONGOING', publisher: 'Hakusensha', readingDirection: 'RIGHT_TO_LEFT' },
      booksMetadata: {
        authors: [{ name: 'Kentaro Miura', role: 'writer' }],
        releaseDate: '1990-01-01',
        // Komga's aggregation: the first book's summary, which Mihon shows when the series has none.
        summary: 'Guts arrives.',
        summaryNumber: '1',
      },
    });
    expect(berserk.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    const detail = await komga(`/api/v1/series/${berserk.id}`, { auth });
    expectParses(MihonSeriesDto, detail.body, 'series (Mihon)');
    expectParses(MihonTrackerSeriesDto, detail.body, 'series (Mihon tracker)');
    expectParses(KomeliaSeries, detail.body, 'series (Komelia)');

    // Mihon's chapter list: unpaged, READY only.
    const books = await komga(`/api/v1/series/${berserk.id}/books?unpaged=true&media_status=READY&deleted=false`, {
      auth,
    });
    expect(books.status).toBe(200);
    expectParses(MihonPageWrapper(MihonBookDto), books.body, 'books page (Mihon)');
    expectParses(KomeliaPage(KomeliaBook), books.body, 'books page (Komelia)');
    expect(books.body).toMatchObject({ totalElements: 3, totalPages: 1, last: true, size: 3, numberOfElements: 3 });
    expect(books.body.pageable).toMatchObject({ paged: false, unpaged: true });
    const first = books.body.content[0];
    expect(books.body.content.map((b: any) => [b.name, b.number, b.metadata.number, b.metadata.numberSort])).toEqual([
      ['Black Swordsman', 1, '1', 1],
      ['Brand', 2, '2', 2],
      ['Guardians', 3, '3', 3],
    ]);
    expect(first).toMatchObject({
      seriesId: berserk.id,
      seriesTitle: 'Berserk',
      libraryId,
      readProgress: null,
      deleted: false,
      media: { status: 'READY', mediaType: 'application/zip', pagesCount: 3, mediaProfile: 'DIVINA' },
      metadata: { authors: [{ name: 'Kentaro Miura', role: 'writer' }], tags: ['Seinen'] },
    });
    expect(first.size).toMatch(/^\d+(\.\d)? (B|KiB|MiB)$/);

    const book = await komga(`/api/v1/books/${first.id}`, { auth });
    expectParses(MihonBookDto, book.body, 'book (Mihon)');
    expectParses(KomeliaBook, book.body, 'book (Komelia)');
  });

  it('pages are 1-based with sizes, page images come whatever the Accept header, convert transcodes', async () => {
    const { admin, libraryId } = await komgaLibrary();
    const auth = admin.auth;
    // Page sizes come from the dimensions pass that runs after a scan.
    await waitForTasks(auth, libraryId);
    const { Berserk } = await seriesByName(auth);
    const books = await komga(`/api/v1/series/${Berserk.id}/books?unpaged=true`, { auth });
    const bookId = books.body.content[0].id;

    const pages = await komga(`/api/v1/books/${bookId}/pages`, { auth });
    expect(pages.status).toBe(200);
    expectParses(z.array(MihonPageDto), pages.body, 'pages (Mihon)');
    expectParses(z.array(KomeliaBookPage), pages.body, 'pages (Komelia)');
    expect(pages.body.map((p: any) => [p.number, p.fileName, p.mediaType, p.width, p.height])).toEqual([
      [1, '1.png', 'image/png', 60, 90],
      [2, '2.png', 'image/png', 60, 90],
      [3, '3.png', 'image/png', 60, 90],
    ]);

    // Mihon asks for images; Komelia's Ktor client says it accepts JSON: both get the image.
    for (const accept of ['image/*,*/*;q=0.8', 'application/json']) {
      const image = await komga(`/api/v1/books/${bookId}/pages/2`, { auth, headers: { Accept: accept } });
      expect(image.status).toBe(200);
      expect(image.headers.get('Content-Type')).toBe('image/png');
      expect(imageKind(image.bytes)).toBe('png');
    }
    const jpeg = await komga(`/api/v1/books/${bookId}/pages/1?convert=jpeg`, { auth });
    expect(jpeg.status).toBe(200);
    expect(imageKind(jpeg.bytes)).toBe('jpeg');
    expect(imageSize(jpeg.bytes)).toEqual({ width: 60, height: 90 });
    // zero_based=true counts from 0, as Komga allows.
    const zeroBased = await komga(`/api/v1/books/${bookId}/pages/0?zero_based=true`, { auth });
    expect(zeroBased.status).toBe(200);

    for (const [path, status] of [
      [`/api/v1/books/${bookId}/pages/0`, 400],
      [`/api/v1/books/${bookId}/pages/4`, 404],
      [`/api/v1/books/${bookId}/pages/abc`, 400],
      [`/api/v1/books/${bookId}/pages/1?convert=gif`, 400],
    ] as const) {
      const bad = await komga(path, { auth });
      expect(bad.status, path).toBe(status);
      expect(bad.body).toMatchObject({ status, path: expect.stringContaining('/komga/api/v1/books/') });
    }

    // Komelia's page strip: a 300 px high JPEG of the page (never enlarged: this one is 90 px high).
    const pageThumbnail = await komga(`/api/v1/books/${bookId}/pages/1/thumbnail`, { auth });
    expect(pageThumbnail.status).toBe(200);
    expect(imageKind(pageThumbnail.bytes)).toBe('jpeg');
    expect(imageSize(pageThumbnail.bytes)).toEqual({ width: 60, height: 90 });

    const thumbnail = await komga(`/api/v1/books/${bookId}/thumbnail`, { auth });
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('Content-Type')).toMatch(/^image\//);
    const seriesThumbnail = await komga(`/api/v1/series/${Berserk.id}/thumbnail`, { auth });
    expect(seriesThumbnail.status).toBe(200);
    const file = await komga(`/api/v1/books/${bookId}/file`, { auth });
    expect(file.status).toBe(200);
    expect(file.headers.get('Content-Disposition')).toContain('Berserk 001.cbz');
    // Typed as the book's media.mediaType (Komga), not the API's comic-book type.
    const book = await komga(`/api/v1/books/${bookId}`, { auth });
    expect(book.body.media.mediaType).toBe('application/zip');
    expect(file.headers.get('Content-Type')).toBe(book.body.media.mediaType);
    expect((await api(`/books/${bookId}/file`, { auth })).headers.get('Content-Type')).toBe(
      'application/vnd.comicbook+zip',
    );
    expect([file.bytes[0], file.bytes[1]]).toEqual([0x50, 0x4b]);
  });

  it('book progress: PATCH with 1-based page, completed flag, last page completes, DELETE; visible in /api/v1', async () => {
    const { admin } = await komgaLibrary();
    const auth = admin.auth;
    const { Berserk } = await seriesByName(auth);
    const books = (await komga(`/api/v1/series/${Berserk.id}/books?unpaged=true`, { auth })).body.content;
    const [one, two] = books;

    expect(
      (await komga(`/api/v1/books/${one.id}/read-progress`, { method: 'PATCH', auth, json: { page: 2 } })).status,
    ).toBe(204);
    const reading = (await komga(`/api/v1/books/${one.id}`, { auth })).body;
    expect(reading.readProgress).toMatchObject({ page: 2, completed: false });
    const own = await api(`/books/${one.id}/progress`, { auth });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ currentPage: 2, completed: false });

    // Reaching the last page (3) completes the book, as in Komga.
    await komga(`/api/v1/books/${one.id}/read-progress`, { method: 'PATCH', auth, json: { page: 3 } });
    expect((await komga(`/api/v1/books/${one.id}`, { auth })).body.readProgress).toMatchObject({
      page: 3,
      completed: true,
    });
    // Paperback's tracker: {"page":1,"completed":true} marks the book read on its last page.
    await komga(`/api/v1/books/${two.id}/read-progress`, { method: 'PATCH', auth, json: { page: 1, completed: true } });
    expect((await komga(`/api/v1/books/${two.id}`, { auth })).body.readProgress).toMatchObject({
      page: 2,
      completed: true,
    });
    const series = (await komga(`/api/v1/series/${Berserk.id}`, { auth })).body;
    expect(series).toMatchObject({ booksReadCount: 2, booksUnreadCount: 1, booksInProgressCount: 0 });

    expect((await komga(`/api/v1/books/${two.id}/read-progress`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await komga(`/api/v1/books/${two.id}`, { auth })).body.readProgress).toBeNull();

    for (const [json, status] of [
      [{}, 400],
      [{ page: 0 }, 400],
      [{ page: 99 }, 400],
      [{ page: 'two' }, 400],
    ] as const) {
      const bad = await komga(`/api/v1/books/${one.id}/read-progress`, { method: 'PATCH', auth, json });
      expect(bad.status, JSON.stringify(json)).toBe(status);
    }
    const malformed = await komga(`/api/v1/books/${one.id}/read-progress`, {
      method: 'PATCH',
      auth,
      headers: { 'Content-Type': 'application/json' },
      json: undefined,
    });
    expect(malformed.status).toBe(400);
    const unknown = await komga('/api/v1/books/00000000-0000-4000-8000-000000000000/read-progress', {
      method: 'PATCH',
      auth,
      json: { page: 1 },
    });
    expect(unknown.status).toBe(404);

    // Series read / unread.
    expect((await komga(`/api/v1/series/${Berserk.id}/read-progress`, { method: 'POST', auth })).status).toBe(204);
    expect((await komga(`/api/v1/series/${Berserk.id}`, { auth })).body.booksReadCount).toBe(3);
    expect((await komga(`/api/v1/series/${Berserk.id}/read-progress`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await komga(`/api/v1/series/${Berserk.id}`, { auth })).body.booksUnreadCount).toBe(3);
  });

  it("Mihon's tracker: GET counts and the continuous run, PUT marks books up to a numberSort", async () => {
    const { admin } = await komgaLibrary();
    const auth = admin.auth;
    const { Berserk } = await seriesByName(auth);
    const url = `/api/v2/series/${Berserk.id}/read-progress/tachiyomi`;

    const fresh = await komga(url, { auth });
    expect(fresh.status).toBe(200);
    expect(expectParses(MihonReadProgressV2Dto, fresh.body, 'tracker progress')).toEqual({
      booksCount: 3,
      booksReadCount: 0,
      booksUnreadCount: 3,
      booksInProgressCount: 0,
      lastReadContinuousNumberSort: 0,
      maxNumberSort: 3,
    });

    expect((await komga(url, { method: 'PUT', auth, json: { lastBookNumberSortRead: 2 } })).status).toBe(204);
    expect((await komga(url, { auth })).body).toMatchObject({
      booksReadCount: 2,
      booksUnreadCount: 1,
      lastReadContinuousNumberSort: 2,
    });
    // A lower value never unmarks (Komga semantics).
    await komga(url, { method: 'PUT', auth, json: { lastBookNumberSortRead: 1 } });
    expect((await komga(url, { auth })).body.booksReadCount).toBe(2);

    // A gap breaks the continuous run: book 1 unread again → 0.
    const books = (await komga(`/api/v1/series/${Berserk.id}/books?unpaged=true`, { auth })).body.content;
    await komga(`/api/v1/books/${books[0].id}/read-progress`, { method: 'DELETE', auth });
    expect((await komga(url, { auth })).body).toMatchObject({ booksReadCount: 1, lastReadContinuousNumberSort: 0 });

    expect((await komga(url, { method: 'PUT', auth, json: { lastBookNumberSortRead: 'x' } })).status).toBe(400);
    expect(
      (await komga('/api/v2/series/00000000-0000-4000-8000-000000000000/read-progress/tachiyomi', { auth })).status,
    ).toBe(404);
  });

  it("older Tachiyomi forks' v1 tracker counts books: GET the continuous run, PUT the first n books read", async () => {
    const { admin } = await komgaLibrary();
    const auth = admin.auth;
    const { Berserk } = await seriesByName(auth);
    const url = `/api/v1/series/${Berserk.id}/read-progress/tachiyomi`;
    expect((await komga(url, { auth })).body).toEqual({
      booksCount: 3,
      booksReadCount: 0,
      booksUnreadCount: 3,
      booksInProgressCount: 0,
      lastReadContinuousIndex: 0,
    });
    expect((await komga(url, { method: 'PUT', auth, json: { lastBookRead: 2 } })).status).toBe(204);
    expect((await komga(url, { auth })).body).toMatchObject({ booksReadCount: 2, lastReadContinuousIndex: 2 });
    const books = (await komga(`/api/v1/series/${Berserk.id}/books?unpaged=true`, { auth })).body.content;
    await komga(`/api/v1/books/${books[2].id}/read-progress`, { method: 'PATCH', auth, json: { completed: true } });
    await komga(`/api/v1/books/${books[1].id}/read-progress`, { method: 'DELETE', auth });
    // Book 2 unread breaks the run after book 1, although book 3 is read.
    expect((await komga(url, { auth })).body).toMatchObject({ booksReadCount: 2, lastReadContinuousIndex: 1 });
    expect((await komga(`/api/v2/series/${Berserk.id}/read-progress/tachiyomi`, { auth })).body).toMatchObject({
      lastReadContinuousNumberSort: 1,
    });
    expect((await komga(url, { method: 'PUT', auth, json: { lastBookRead: -1 } })).status).toBe(400);
  });

  it('browse filters, new/updated, ondeck, books/list, next/previous, filter values', async () => {
    const { admin, libraryId } = await komgaLibrary();
    const auth = admin.auth;
    const { Berserk, Saga } = await seriesByName(auth);
    const names = (page: any) => page.body.content.map((s: any) => s.name);

    expect(names(await komga('/api/v1/series?search=saga', { auth }))).toEqual(['Saga']);
    expect(names(await komga('/api/v1/series?genre=Dark%20Fantasy', { auth }))).toEqual(['Berserk']);
    expect(names(await komga('/api/v1/series?publisher=Hakusensha', { auth }))).toEqual(['Berserk']);
    expect(names(await komga(`/api/v1/series?library_id=${libraryId}&sort=metadata.titleSort,desc`, { auth }))).toEqual(
      ['Saga', 'Berserk'],
    );
    // Lists: comma-separated or repeated, any of them (Spring binding).
    const other = '00000000-0000-4000-8000-000000000000';
    expect(names(await komga(`/api/v1/series?library_id=${other},${libraryId}`, { auth }))).toEqual([
      'Berserk',
      'Saga',
    ]);
    expect(names(await komga(`/api/v1/series?library_id=${other}`, { auth }))).toEqual([]);
    expect(names(await komga('/api/v1/series?genre=Space%20Opera&genre=Dark%20Fantasy', { auth }))).toEqual([
      'Berserk',
      'Saga',
    ]);
    // Mihon's author filter: `author=<name>,<role>`, any of them.
    expect(names(await komga('/api/v1/series?author=Kentaro%20Miura,writer', { auth }))).toEqual(['Berserk']);
    expect(names(await komga('/api/v1/series?author=kentaro%20miura,penciller', { auth }))).toEqual([]);
    const eitherAuthor = await komga(
      '/api/v1/series?author=Kentaro%20Miura,writer&author=Brian%20K.%20Vaughan,writer&size=1',
      {
        auth,
      },
    );
    expect(eitherAuthor.body).toMatchObject({ totalElements: 2, totalPages: 2, numberOfElements: 1 });
    expect(names(eitherAuthor)).toEqual(['Berserk']);
    // Mihon's "Books" type searches books.
    const bookSearch = await komga('/api/v1/books?search=brand&page=0&deleted=false', { auth });
    expectParses(MihonPageWrapper(MihonBookDto), bookSearch.body, 'book search');
    expect(names(bookSearch)).toEqual(['Brand']);
    expect(names(await komga('/api/v1/series?status=ONGOING', { auth }))).toEqual(['Berserk', 'Saga']);
    expect(names(await komga('/api/v1/series?status=ENDED', { auth }))).toEqual([]);
    expect(names(await komga('/api/v1/series?deleted=true', { auth }))).toEqual([]);
    expect((await komga('/api/v1/series?read_status=SOMETIMES', { auth })).status).toBe(400);
    expect((await komga('/api/v1/series?page=-1', { auth })).status).toBe(400);

    // Paging: size 1, page 1 (0-based) is the second series.
    const second = await komga('/api/v1/series?size=1&page=1&sort=metadata.titleSort,asc', { auth });
    expect(second.body).toMatchObject({
      number: 1,
      size: 1,
      totalPages: 2,
      totalElements: 2,
      first: false,
      last: true,
    });
    expect(names(second)).toEqual(['Saga']);
    expect((await komga('/api/v1/series?size=100000', { auth })).body.size).toBe(500);

    const books = (await komga(`/api/v1/series/${Berserk.id}/books?unpaged=true`, { auth })).body.content;
    await komga(`/api/v1/books/${books[0].id}/read-progress`, { method: 'PATCH', auth, json: { completed: true } });
    expect(names(await komga('/api/v1/series?read_status=IN_PROGRESS', { auth }))).toEqual(['Berserk']);
    expect(names(await komga('/api/v1/series?read_status=UNREAD', { auth }))).toEqual(['Saga']);

    const ondeck = await komga('/api/v1/books/ondeck', { auth });
    expectParses(KomeliaPage(KomeliaBook), ondeck.body, 'ondeck');
    expect(ondeck.body.content.map((b: any) => b.name)).toEqual(['Brand']);

    for (const path of ['/api/v1/series/new', '/api/v1/series/updated']) {
      const page = await komga(`${path}?page=0&size=20&deleted=false`, { auth });
      expectParses(KomeliaPage(KomeliaSeries), page.body, path);
      expect(page.body.totalElements).toBe(2);
    }

    await komga(`/api/v1/books/${books[1].id}/read-progress`, { method: 'PATCH', auth, json: { page: 1 } });
    const keepReading = await komga('/api/v1/books/list?sort=readProgress.readDate,desc', {
      auth,
      json: { condition: { allOf: [{ readStatus: { operator: 'is', value: 'IN_PROGRESS' } }] } },
    });
    expectParses(KomeliaPage(KomeliaBook), keepReading.body, 'books/list');
    expect(keepReading.body.content.map((b: any) => b.name)).toEqual(['Brand']);
    const inSeries = await komga('/api/v1/books/list?sort=metadata.numberSort,desc', {
      auth,
      json: {
        condition: {
          allOf: [{ seriesId: { operator: 'is', value: Berserk.id } }, { deleted: { operator: 'isFalse' } }],
        },
      },
    });
    expect(inSeries.body.content.map((b: any) => b.name)).toEqual(['Guardians', 'Brand', 'Black Swordsman']);
    const seriesList = await komga('/api/v1/series/list', {
      auth,
      json: { condition: { anyOf: [{ title: { operator: 'beginsWith', value: 'sa' } }] } },
    });
    expectParses(KomeliaPage(KomeliaSeries), seriesList.body, 'series/list');
    expect(names(seriesList)).toEqual(['Saga']);
    expect(
      (await komga('/api/v1/books/list', { auth, json: { condition: { mystery: { operator: 'is', value: 'x' } } } }))
        .status,
    ).toBe(400);

    const next = await komga(`/api/v1/books/${books[0].id}/next`, { auth });
    expectParses(KomeliaBook, next.body, 'next book');
    expect(next.body.name).toBe('Brand');
    expect((await komga(`/api/v1/books/${books[1].id}/previous`, { auth })).body.name).toBe('Black Swordsman');
    expect((await komga(`/api/v1/books/${books[2].id}/next`, { auth })).status).toBe(404);
    expect((await komga(`/api/v1/books/${books[0].id}/previous`, { auth })).status).toBe(404);

    // Mihon's filter sheet, Paperback's trailing slashes.
    expect((await komga('/api/v1/genres', { auth })).body).toEqual(['Dark Fantasy', 'Space Opera']);
    expect((await komga('/api/v1/genres/', { auth })).body).toEqual(['Dark Fantasy', 'Space Opera']);
    expect((await komga('/api/v1/tags/series/', { auth })).body).toEqual(['Seinen']);
    expect((await komga('/api/v1/publishers', { auth })).body).toEqual(['Hakusensha']);
    expect((await komga('/api/v1/authors', { auth })).body).toEqual([
      { name: 'Brian K. Vaughan', role: 'writer' },
      { name: 'Kentaro Miura', role: 'writer' },
    ]);
    const authorsPage = await komga('/api/v2/authors?search=miura', { auth });
    expectParses(KomeliaPage(z.object({ name: z.string(), role: z.string() })), authorsPage.body, 'v2 authors');
    expect(authorsPage.body.content).toEqual([{ name: 'Kentaro Miura', role: 'writer' }]);
    const collections = await komga('/api/v1/collections?unpaged=true', { auth });
    expectParses(MihonPageWrapper(MihonCollectionDto), collections.body, 'collections');
    expect((await komga(`/api/v1/series/${Saga.id}/`, { auth })).body.name).toBe('Saga');
  });

  it('unknown paths and ids get Komga-style errors, never a 500', async () => {
    const { admin } = await komgaLibrary();
    const auth = admin.auth;
    for (const path of [
      '/api/v1/series/not-a-uuid',
      '/api/v1/books/not-a-uuid',
      '/api/v1/books/not-a-uuid/pages',
      '/api/v1/libraries/nope',
      '/api/v1/nothing-here',
    ]) {
      const response = await komga(path, { auth });
      expect(response.status, path).toBe(404);
      expect(response.body).toMatchObject({ status: 404, error: 'Not Found', path: `/komga${path}` });
    }
    let deep: unknown = { title: { operator: 'is', value: 'x' } };
    for (let i = 0; i < 5000; i++) deep = { allOf: [deep] };
    const tooDeep = await komga('/api/v1/series/list', { auth, json: { condition: deep } });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.message).toMatch(/nest/);
    const emptyBody = await komga('/api/v1/series/list', {
      auth,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(emptyBody.status).toBe(200);
    for (const [path, status] of [
      ['/api/v1/series?page=abc', 400],
      ['/api/v1/series?size=-5', 400],
      ['/api/v1/series?library_id=not-a-uuid', 200],
    ] as const) {
      expect((await komga(path, { auth })).status, path).toBe(status);
    }
    const garbledKey = await komga('/api/v1/series', { headers: { 'X-API-Key': 'garbage' } });
    expect(garbledKey.status).toBe(401);
    expect(garbledKey.headers.get('WWW-Authenticate')).toBe('Basic realm="Longbox"');
  });
});
