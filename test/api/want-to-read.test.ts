/** Want-to-read: each user's queue of series and books (docs/DECISIONS.md §Organise and share). */
import { describe, expect, it } from 'vitest';
import { seedLibrary, seedSeriesWithBooks, seedWantToRead } from '../support/catalog-factory';

/** A series with its books as a tuple of `count` (so the test may index them). */
async function seriesOf(library: { id: string }, count: number, title: string) {
  const seeded = await seedSeriesWithBooks(library, count, { title });
  const books = seeded.books.map((book) => ({ id: book.id }));
  return { series: seeded.series, books: books as [{ id: string }, { id: string }, ...Array<{ id: string }>] };
}
import { createUser, login, setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';

describe('want to read', () => {
  it('queues series and books per user, in order, and a queued series shows wantToRead', async () => {
    const { auth, userId } = await setupAdmin();
    const library = await seedLibrary();
    const a = await seriesOf(library, 2, 'Alpha');
    const b = await seriesOf(library, 1, 'Beta');
    await seedWantToRead(userId, b.books[0].id); // a row from before series could be queued

    const added = await api('/want-to-read', { auth, json: { seriesId: a.series.id } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      itemType: 'series',
      seriesId: a.series.id,
      bookId: null,
      series: { title: 'Alpha' },
    });
    expect((await api('/want-to-read', { auth, json: { seriesId: a.series.id } })).status).toBe(200);
    expect((await api('/want-to-read', { auth, json: { bookId: a.books[1].id } })).status).toBe(201);

    const queue = await api('/want-to-read', { auth });
    expect(queue.body.total).toBe(3);
    expect(queue.body.data.map((e: { id: string }) => e.id)).toEqual([b.books[0].id, a.series.id, a.books[1].id]);

    expect((await api(`/series/${a.series.id}`, { auth })).body.wantToRead).toBe(true);
    expect((await api(`/series/${b.series.id}`, { auth })).body.wantToRead).toBe(false);
    expect((await api(`/books/${a.books[1].id}`, { auth })).body.wantToRead).toBe(true);

    expect((await api('/want-to-read/order', { auth, method: 'PUT', json: { ids: [a.books[1].id] } })).status).toBe(
      204,
    );
    expect((await api('/want-to-read', { auth })).body.data.map((e: { id: string }) => e.id)).toEqual([
      a.books[1].id,
      b.books[0].id,
      a.series.id,
    ]);

    // Another user's queue is their own.
    const other = await createUser(auth);
    const otherAuth = (await login(other.username, other.password)).auth;
    expect((await api('/want-to-read', { auth: otherAuth })).body.total).toBe(0);
    expect((await api(`/series/${a.series.id}`, { auth: otherAuth })).body.wantToRead).toBe(false);

    expect((await api(`/want-to-read/series/${a.series.id}`, { auth, method: 'DELETE' })).status).toBe(204);
    expectError(await api(`/want-to-read/series/${a.series.id}`, { auth, method: 'DELETE' }), 404, 'NotFound');
    expect((await api(`/want-to-read/books/${a.books[1].id}`, { auth, method: 'DELETE' })).status).toBe(204);
    expect((await api('/want-to-read', { auth })).body.total).toBe(1);
  });

  it('adds in bulk and refuses bad input without queueing anything', async () => {
    const { auth } = await setupAdmin();
    const library = await seedLibrary();
    const a = await seriesOf(library, 2, 'Alpha');
    const unknown = crypto.randomUUID();
    const refused = expectError(
      await api('/want-to-read/bulk', { auth, json: { seriesIds: [a.series.id], bookIds: [unknown] } }),
      400,
      'BadRequest',
    );
    expect(refused.message).toContain(unknown);
    expect((await api('/want-to-read', { auth })).body.total).toBe(0);
    const bulk = await api('/want-to-read/bulk', {
      auth,
      json: { seriesIds: [a.series.id], bookIds: [a.books[0].id] },
    });
    expect(bulk.body).toEqual({ added: 2, alreadyPresent: 0 });
    expect((await api('/want-to-read/bulk', { auth, json: { bookIds: [a.books[0].id] } })).body).toEqual({
      added: 0,
      alreadyPresent: 1,
    });
    expectError(
      await api('/want-to-read', { auth, json: { seriesId: a.series.id, bookId: a.books[0].id } }),
      400,
      'BadRequest',
    );
    expectError(await api('/want-to-read', { auth, json: {} }), 400, 'BadRequest');
    expectError(await api('/want-to-read', { auth, json: { bookId: unknown } }), 400, 'BadRequest');
    expectError(await api('/want-to-read/order', { auth, method: 'PUT', json: { ids: [unknown] } }), 400, 'BadRequest');
    expectError(await api('/want-to-read'), 401, 'Unauthorized');
  });
});
