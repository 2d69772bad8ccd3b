/**
 * Issue 31 point 6: a new cover must show on every screen at once. Every Book and Series response names
 * its cover's version (`coverVersion`, src/catalog/cover-version.ts), which changes with the image and only
 * then; a thumbnail asked for with `?v=<coverVersion>` is immutable, one without keeps its hour; covers that
 * follow another's (a library's, a collection's, a read list's) are revalidated every time.
 */
import { describe, expect, it } from 'vitest';
import { png } from '../fixtures/images';
import { setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { fetchRaw } from '../support/media';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const IMMUTABLE = 'private, max-age=31536000, immutable';

function form(bytes: Uint8Array): FormData {
  const data = new FormData();
  data.append('file', new Blob([bytes]), 'cover.png');
  return data;
}

/** Series Saga (two books) and Solo (one), thumbnails made. */
async function seed() {
  const { auth } = await setupAdmin();
  await putObject('comics/Saga/Saga 001.cbz', await makeCbz(2, { Series: 'Saga', Number: '1' }, [60, 90]));
  await putObject('comics/Saga/Saga 002.cbz', await makeCbz(2, { Series: 'Saga', Number: '2' }, [60, 90]));
  await putObject('comics/Solo/Solo 001.cbz', await makeCbz(1, { Series: 'Solo', Number: '1' }, [60, 90]));
  const libraryId = await createLibrary(auth);
  const scanned = await scan(auth, libraryId);
  await waitForTasks(auth, libraryId, { since: scanned.completedAt });
  const series = (await api('/series?sort=name,asc', { auth })).body.data as { id: string; title: string }[];
  const saga = series.find((s) => s.title === 'Saga')!.id;
  const solo = series.find((s) => s.title === 'Solo')!.id;
  const sagaBooks = (await api(`/series/${saga}/books`, { auth })).body.data as { id: string }[];
  return { auth, libraryId, saga, solo, book1: sagaBooks[0]!.id, book2: sagaBooks[1]!.id };
}

/** The cover version of every book and series as each screen's list reads them: detail, lists, search. */
async function versions(auth: Credentials, ids: { saga: string; solo: string; book1: string; book2: string }) {
  const byId = (page: { data: { id: string; coverVersion: string }[] }) =>
    Object.fromEntries(page.data.map((item) => [item.id, item.coverVersion]));
  const [seriesList, seriesSearch, recentSeries, books, recentBooks, bookSearch, saga, book1] = await Promise.all([
    api('/series', { auth }),
    api('/series/search', { method: 'POST', auth, json: { query: 'saga' } }),
    api('/series/recently-updated', { auth }),
    api('/books', { auth }),
    api('/books/recently-added', { auth }),
    api('/books/list', { method: 'POST', auth, json: { fullTextSearch: 'saga' } }),
    api(`/series/${ids.saga}`, { auth }),
    api(`/books/${ids.book1}`, { auth }),
  ]);
  const series = byId(seriesList.body);
  const book = byId(books.body);
  // Every list names the same version for the same cover.
  expect(byId(seriesSearch.body)[ids.saga]).toBe(series[ids.saga]);
  expect(byId(recentSeries.body)[ids.saga]).toBe(series[ids.saga]);
  expect(saga.body.coverVersion).toBe(series[ids.saga]);
  expect(byId(recentBooks.body)[ids.book1]).toBe(book[ids.book1]);
  expect(byId(bookSearch.body)[ids.book1]).toBe(book[ids.book1]);
  expect(book1.body.coverVersion).toBe(book[ids.book1]);
  return { saga: series[ids.saga], solo: series[ids.solo], book1: book[ids.book1], book2: book[ids.book2] };
}

describe('cover versions (issue 31 point 6)', () => {
  it('changes a cover’s version on every list when its image changes, and only then', async () => {
    const { auth, ...ids } = await seed();
    const before = await versions(auth, ids);
    for (const version of Object.values(before)) expect(version).toMatch(/^[0-9a-z]{2,20}$/);
    // The series shows its first book's thumbnail: the same image, the same version; every other differs.
    expect(before.saga).toBe(before.book1);
    expect(new Set(Object.values(before)).size).toBe(3);
    expect(await versions(auth, ids)).toEqual(before);

    // A custom cover for the series: its version changes, its books' do not.
    const seriesCover = await api(`/series/${ids.saga}/cover`, { method: 'POST', auth, body: form(png(300, 200)) });
    expect(seriesCover.status, seriesCover.text).toBe(200);
    const afterSeries = await versions(auth, ids);
    expect(afterSeries.saga).not.toBe(before.saga);
    expect({ ...afterSeries, saga: before.saga }).toEqual(before);

    // A custom cover for a book: that book's version changes, then comes back with the generated cover.
    await api(`/books/${ids.book1}/cover`, { method: 'POST', auth, body: form(png(200, 300, 3)) });
    const afterBook = await versions(auth, ids);
    expect(afterBook.book1).not.toBe(before.book1);
    expect({ ...afterBook, book1: before.book1 }).toEqual(afterSeries);
    expect((await api(`/books/${ids.book1}/covers/selected`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await versions(auth, ids)).book1).toBe(before.book1);

    // Back to the first book's cover: a version of its own again.
    expect((await api(`/series/${ids.saga}/covers/selected`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await versions(auth, ids)).saga).not.toBe(afterSeries.saga);
  });

  it('answers a versioned cover as immutable, an unversioned one for an hour, a derived one revalidated', async () => {
    const { auth, libraryId, saga, book1 } = await seed();
    const version = (await api(`/books/${book1}`, { auth })).body.coverVersion as string;
    const seriesVersion = (await api(`/series/${saga}`, { auth })).body.coverVersion as string;
    const cacheControl = async (path: string) => {
      const response = await fetchRaw(path, { auth });
      expect(response.status, path).toBe(200);
      return response.headers.get('Cache-Control');
    };
    expect(await cacheControl(`/books/${book1}/thumbnail?v=${version}`)).toBe(IMMUTABLE);
    expect(await cacheControl(`/series/${saga}/thumbnail?v=${seriesVersion}`)).toBe(IMMUTABLE);
    expect(await cacheControl(`/books/${book1}/thumbnail`)).toBe('private, max-age=3600');
    expect(await cacheControl(`/libraries/${libraryId}/thumbnail`)).toBe('private, no-cache');
    expect(await cacheControl(`/libraries/${libraryId}/thumbnail?v=anything`)).toBe('private, no-cache');
    const collection = await api('/collections', { method: 'POST', auth, json: { name: 'Picks', seriesIds: [saga] } });
    const readList = await api('/readlists', { method: 'POST', auth, json: { name: 'Order', bookIds: [book1] } });
    expect(await cacheControl(`/collections/${collection.body.id}/thumbnail`)).toBe('private, no-cache');
    expect(await cacheControl(`/readlists/${readList.body.id}/thumbnail`)).toBe('private, no-cache');
    // The same bytes either way: the version only names them.
    const [versioned, plain] = await Promise.all([
      fetchRaw(`/books/${book1}/thumbnail?v=${version}`, { auth }),
      fetchRaw(`/books/${book1}/thumbnail`, { auth }),
    ]);
    expect(versioned.headers.get('ETag')).toBe(plain.headers.get('ETag'));
    // A version longer than any the server hands out is a clear 400.
    const tooLong = await fetchRaw(`/books/${book1}/thumbnail?v=${'x'.repeat(65)}`, { auth });
    expect(tooLong.status).toBe(400);
  });
});
