/**
 * API.md §4 Books, on-deck rule: the next unread book of each series in which the user has completed at
 * least one book and has no book in progress.
 */
import { describe, expect, it } from 'vitest';
import {
  seedBook,
  seedLibrary,
  seedProgress,
  seedSeries,
  seedSeriesWithBooks,
  softDeleteBook,
  softDeleteSeries,
} from '../support/catalog-factory';
import { writeRar5 } from '../fixtures/rar-writer';
import { ADMIN, createUser, login, setupAdmin } from '../support/factories';
import { api } from '../support/http';
import { komga } from '../support/komga';
import { makeCbz, pngPage, putObject } from '../support/library-files';
import { booksByFileName } from '../support/media';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const titles = (body: { data: Array<{ title: string }> }) => body.data.map((b) => b.title);
const at = (day: number) => `2026-09-${String(day).padStart(2, '0')}T00:00:00.000Z`;

describe('on deck (API.md §4 Books)', () => {
  it('applies the rule per series, newest activity first', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const completedOne = await seedSeriesWithBooks(library, 3, { title: 'A' });
    const inProgress = await seedSeriesWithBooks(library, 3, { title: 'B' });
    await seedSeriesWithBooks(library, 2, { title: 'C' });
    const skipped = await seedSeriesWithBooks(library, 3, { title: 'D' });
    const finished = await seedSeriesWithBooks(library, 2, { title: 'E' });

    await seedProgress(admin.userId, completedOne.books[0]!.id, { completed: true, updatedAt: at(1) });
    await seedProgress(admin.userId, inProgress.books[0]!.id, { completed: true, updatedAt: at(2) });
    await seedProgress(admin.userId, inProgress.books[1]!.id, { currentPage: 4, updatedAt: at(3) });
    await seedProgress(admin.userId, skipped.books[0]!.id, { completed: true, updatedAt: at(4) });
    await seedProgress(admin.userId, skipped.books[2]!.id, { completed: true, updatedAt: at(5) });
    for (const book of finished.books) await seedProgress(admin.userId, book.id, { completed: true, updatedAt: at(6) });

    const deck = await api('/books/on-deck', { auth: admin.auth });
    expect(deck.status).toBe(200);
    // D: the first unread book in reading order (2), A: the one after the completed first book.
    expect(titles(deck.body)).toEqual(['D 2', 'A 2']);
    expect(deck.body.total).toBe(2);
    expect(deck.body.data[0]).toMatchObject({ seriesName: 'D', number: 2 });
    expect(deck.body.data[0].readProgress).toBeUndefined();
  });

  it('drops a series once one of its books is in progress, and brings it back when that book is finished', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const { books } = await seedSeriesWithBooks(library, 3, { title: 'Vinland' });
    await api(`/books/${books[0]!.id}/read`, { method: 'POST', auth: admin.auth });
    expect(titles((await api('/books/on-deck', { auth: admin.auth })).body)).toEqual(['Vinland 2']);

    await api(`/books/${books[1]!.id}/progress`, { method: 'PUT', auth: admin.auth, json: { current_page: 3 } });
    expect((await api('/books/on-deck', { auth: admin.auth })).body.total).toBe(0);

    await api(`/books/${books[1]!.id}/read`, { method: 'POST', auth: admin.auth });
    expect(titles((await api('/books/on-deck', { auth: admin.auth })).body)).toEqual(['Vinland 3']);
  });

  it('excludes series with nothing completed, is per user, and skips deleted books and series', async () => {
    const admin = await setupAdmin();
    const other = await createUser(admin.auth);
    const otherAuth = (await login(other.username, other.password)).auth;
    const library = await seedLibrary();
    const withGap = await seedSeriesWithBooks(library, 3, { title: 'Gap' });
    const gone = await seedSeriesWithBooks(library, 2, { title: 'Gone' });
    await seedProgress(admin.userId, withGap.books[0]!.id, { completed: true });
    await softDeleteBook(withGap.books[1]!.id);
    await seedProgress(admin.userId, gone.books[0]!.id, { completed: true });
    await softDeleteSeries(gone.series.id);

    expect(titles((await api('/books/on-deck', { auth: admin.auth })).body)).toEqual(['Gap 3']);
    expect((await api('/books/on-deck', { auth: otherAuth })).body.total).toBe(0);
  });

  it('follows reading order (numbered books first) and scopes and pages by library', async () => {
    const admin = await setupAdmin();
    const manga = await seedLibrary();
    const comics = await seedLibrary();
    const owner = await seedSeries(manga, { title: 'Order' });
    const first = await seedBook(owner, { title: 'Order 1', number: 1, sortKey: 'a' });
    await seedBook(owner, { title: 'Order Extra', number: null, sortKey: 'b' });
    await seedBook(owner, { title: 'Order 2', number: 2, sortKey: 'z' });
    await seedProgress(admin.userId, first.id, { completed: true, updatedAt: at(1) });
    for (const [i, title] of ['X', 'Y'].entries()) {
      const { books } = await seedSeriesWithBooks(comics, 2, { title });
      await seedProgress(admin.userId, books[0]!.id, { completed: true, updatedAt: at(10 + i) });
    }

    expect(titles((await api(`/books/on-deck?library_id=${manga.id}`, { auth: admin.auth })).body)).toEqual([
      'Order 2',
    ]);
    const page = await api('/books/on-deck?pageSize=2&page=2', { auth: admin.auth });
    expect(page.body).toMatchObject({ total: 3, totalPages: 2, page: 2 });
    expect(titles(page.body)).toEqual(['Order 2']);
    expect(titles((await api('/books/on-deck?pageSize=2', { auth: admin.auth })).body)).toEqual(['Y 2', 'X 2']);
  });

  it('never suggests a book whose analysis failed: the next readable one instead, in every protocol', async () => {
    const admin = await setupAdmin();
    const libraryId = await createLibrary(admin.auth);
    // Issue 31 point 19: a damaged RAR (cut short after its first header) between two good books.
    const rar = writeRar5([
      { name: '01.png', data: await pngPage(60, 90) },
      { name: '02.png', data: await pngPage(60, 90, [20, 40, 200]) },
    ]);
    await putObject('comics/Saga/Saga 1.cbz', await makeCbz(2));
    await putObject('comics/Saga/Saga 2.cbr', rar.subarray(0, 40));
    await putObject('comics/Saga/Saga 3.cbz', await makeCbz(2));
    await putObject('comics/Broken End/Broken End 1.cbz', await makeCbz(2));
    await putObject('comics/Broken End/Broken End 2.cbr', rar.subarray(0, 40));
    const scanned = await scan(admin.auth, libraryId);
    await waitForTasks(admin.auth, libraryId, { since: scanned.completedAt });
    const books = await booksByFileName(admin.auth, libraryId);
    expect(books['Saga 2.cbr'].analysisError).toEqual(expect.any(String));
    expect(books['Broken End 2.cbr'].analysisError).toEqual(expect.any(String));
    for (const name of ['Saga 1.cbz', 'Broken End 1.cbz']) {
      expect((await api(`/books/${books[name].id}/read`, { method: 'POST', auth: admin.auth })).status).toBe(200);
    }

    // The damaged book is passed over: Saga 3 is next; Broken End has nothing readable left to suggest.
    const deck = await api('/books/on-deck', { auth: admin.auth });
    expect(titles(deck.body)).toEqual(['Saga 3']);
    expect(deck.body.total).toBe(1);
    const komgaDeck = await komga('/api/v1/books/ondeck', { auth: admin.auth });
    expect(komgaDeck.body.content.map((b: { name: string }) => b.name)).toEqual(['Saga 3']);
    const opds1 = await api('/opds/v1.2/on-deck', {
      auth: { basic: { username: ADMIN.username, password: ADMIN.password } },
    });
    expect([...opds1.text.matchAll(/<entry>[\s\S]*?<title>([^<]*)<\/title>/g)].map((m) => m[1])).toEqual(['Saga 3']);
    const opds2 = await api('/opds/v2.0/on-deck', { auth: admin.auth });
    expect(opds2.body.publications.map((p: { metadata: { title: string } }) => p.metadata.title)).toEqual(['Saga 3']);
  });
});
