/**
 * API.md §4 Advanced filtering, POST /series/search and on-deck; DECISIONS.md §Lists: the edges of how
 * lists are computed — totals of pages that count their own matches, readStatus from the requesting
 * user's progress only, overlapping genre/tag lists, and series and book search rows kept apart.
 */
import { describe, expect, it } from 'vitest';
import {
  seedBook,
  seedLibrary,
  seedProgress,
  seedSeries,
  seedSeriesWithBooks,
  softDeleteBook,
} from '../support/catalog-factory';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';

const leaf = (field: string, operator: string, value?: string) => ({
  [field]: value === undefined ? { operator } : { operator, value },
});

async function list(auth: Credentials, path: string, body: Record<string, unknown>) {
  const res = await api(path, { auth, json: body });
  if (res.status !== 200) throw new Error(`${path} failed: ${res.status} ${res.text}`);
  return {
    titles: (res.body.data as Array<{ title: string }>).map((item) => item.title),
    total: res.body.total as number,
  };
}

describe('totals of filtered, searched and on-deck pages (API.md §4 pagination envelope)', () => {
  it('reports the full total on every page, past the end included', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const owner = await seedSeries(library, { title: 'Dragon Road' });
    for (let n = 1; n <= 5; n++) await seedBook(owner, { title: `Dragon ${n}`, genres: ['Fantasy'] });
    await seedBook(owner, { title: 'Other', genres: ['Drama'] });
    const condition = leaf('genre', 'is', 'fantasy');

    const first = await list(admin.auth, '/books/list?pageSize=2', { condition });
    expect(first).toEqual({ titles: ['Dragon 1', 'Dragon 2'], total: 5 });
    expect(await list(admin.auth, '/books/list?pageSize=2&page=3', { condition })).toEqual({
      titles: ['Dragon 5'],
      total: 5,
    });
    expect(await list(admin.auth, '/books/list?pageSize=2&page=9', { condition })).toEqual({ titles: [], total: 5 });
    expect(await list(admin.auth, '/books/list?pageSize=2&page=9', { fullTextSearch: 'dragon' })).toEqual({
      titles: [],
      total: 6,
    });
    expect(await list(admin.auth, '/series/search?page=2', { query: 'dragon' })).toEqual({ titles: [], total: 1 });

    for (const book of (await seedSeriesWithBooks(library, 2, { title: 'Deck' })).books.slice(0, 1)) {
      await seedProgress(admin.userId, book.id, { completed: true });
    }
    const pastDeck = await api('/books/on-deck?page=2', { auth: admin.auth });
    expect(pastDeck.body).toMatchObject({ data: [], total: 1 });
  });

  it('counts a book once when it matches several branches of anyOf, and leaves deleted books out', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const owner = await seedSeries(library, { title: 'Mixed' });
    await seedBook(owner, { title: 'Both', genres: ['Fantasy'], tags: ['classic', 'award'] });
    await seedBook(owner, { title: 'Genre only', genres: ['Fantasy'] });
    await seedBook(owner, { title: 'Tag only', tags: ['classic'] });
    await seedBook(owner, { title: 'Neither', genres: ['Drama'] });
    const gone = await seedBook(owner, { title: 'Deleted', genres: ['Fantasy'], tags: ['classic'] });
    await softDeleteBook(gone.id);

    const condition = {
      anyOf: [leaf('genre', 'is', 'fantasy'), leaf('tag', 'is', 'classic'), leaf('tag', 'beginsWith', 'aw')],
    };
    expect(await list(admin.auth, '/books/list', { condition })).toEqual({
      titles: ['Both', 'Genre only', 'Tag only'],
      total: 3,
    });
    // The same lists under allOf with a per-user test, and negated.
    const unreadFantasy = { allOf: [condition, leaf('readStatus', 'is', 'unread')] };
    expect((await list(admin.auth, '/books/list', { condition: unreadFantasy })).total).toBe(3);
    expect(await list(admin.auth, '/books/list', { condition: leaf('tag', 'isNot', 'classic') })).toEqual({
      titles: ['Genre only', 'Neither'],
      total: 2,
    });
  });
});

describe('readStatus is the requesting user’s (DECISIONS.md §Lists)', () => {
  it('sees every book and series as unread for a user without any progress', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const { books } = await seedSeriesWithBooks(library, 2, { title: 'Read' });
    const { books: partly } = await seedSeriesWithBooks(library, 2, { title: 'Partly' });
    for (const book of books) await seedProgress(admin.userId, book.id, { completed: true });
    await seedProgress(admin.userId, partly[0]!.id, { currentPage: 2 });
    const reader = await createUser(admin.auth);
    const auth = (await login(reader.username, reader.password)).auth;

    const books_ = (status: string, operator = 'is') =>
      list(auth, '/books/list', { condition: leaf('readStatus', operator, status) });
    const series_ = (status: string, operator = 'is') =>
      list(auth, '/series/list', { condition: leaf('readStatus', operator, status) });
    expect((await books_('unread')).total).toBe(4);
    expect((await books_('in_progress')).total).toBe(0);
    expect((await books_('read')).total).toBe(0);
    expect((await books_('read', 'isNot')).total).toBe(4);
    expect(await series_('unread')).toEqual({ titles: ['Partly', 'Read'], total: 2 });
    expect((await series_('in_progress')).total).toBe(0);
    expect((await series_('read')).total).toBe(0);
    expect((await series_('unread', 'isNot')).total).toBe(0);

    // The admin's own view of the same catalog.
    expect(await list(admin.auth, '/series/list', { condition: leaf('readStatus', 'is', 'read') })).toEqual({
      titles: ['Read'],
      total: 1,
    });
    expect(await list(admin.auth, '/books/list', { condition: leaf('readStatus', 'is', 'in_progress') })).toEqual({
      titles: ['Partly 1'],
      total: 1,
    });
  });

  it('judges a series by its live books: a deleted unread book does not keep it in progress', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const { books } = await seedSeriesWithBooks(library, 3, { title: 'Trimmed' });
    await seedProgress(admin.userId, books[0]!.id, { completed: true });
    await seedProgress(admin.userId, books[1]!.id, { completed: true });
    const status = async (value: string) =>
      (await list(admin.auth, '/series/list', { condition: leaf('readStatus', 'is', value) })).titles;
    expect(await status('in_progress')).toEqual(['Trimmed']);
    await softDeleteBook(books[2]!.id);
    expect(await status('read')).toEqual(['Trimmed']);
    expect(await status('in_progress')).toEqual([]);

    // Progress only on deleted books counts for nothing: the series is unread.
    const { books: gone } = await seedSeriesWithBooks(library, 2, { title: 'Gone' });
    await seedProgress(admin.userId, gone[0]!.id, { completed: true });
    await softDeleteBook(gone[0]!.id);
    expect(await status('unread')).toEqual(['Gone']);
  });
});

describe('search rows of series and books stay apart (DECISIONS.md §Lists)', () => {
  it('answers series from /series/search and books from fullTextSearch, for the same words', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const owner = await seedSeries(library, { title: 'Moonlight Harbor' });
    await seedBook(owner, { title: 'Moonlight Harbor 1' });
    await seedBook(owner, { title: 'Harbor Lights' });
    await seedSeries(library, { title: 'Harbor Tales' });

    expect(await list(admin.auth, '/series/search', { query: 'harbor' })).toMatchObject({ total: 2 });
    expect((await list(admin.auth, '/series/search', { query: 'moonlight' })).titles).toEqual(['Moonlight Harbor']);
    expect((await list(admin.auth, '/books/list', { fullTextSearch: 'harbor' })).total).toBe(2);
    expect((await list(admin.auth, '/series/list', { fullTextSearch: 'tales' })).titles).toEqual(['Harbor Tales']);
  });
});
