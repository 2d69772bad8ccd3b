/** Read lists and ComicRack reading-list import (docs/DECISIONS.md §Organise and share, §Collections and read lists). */
import { describe, expect, it } from 'vitest';
import { writeCbl } from '../support/clients/cbl';
import { seedBook, seedLibrary, seedSeries, seedSeriesWithBooks, softDeleteBook } from '../support/catalog-factory';

type Book = Awaited<ReturnType<typeof seedBook>>;
import { createUser, login, setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';

const titles = (body: { data: Array<{ title: string }> }) => body.data.map((b) => b.title);

async function twoSeries() {
  const library = await seedLibrary();
  const x = await seedSeriesWithBooks(library, 3, { title: 'X-Men', year: 1991 });
  const s = await seedSeriesWithBooks(library, 2, { title: 'Spider-Man', year: 1990 });
  return { library, x: x.books as [Book, Book, Book], s: s.books as [Book, Book] };
}

describe('read lists', () => {
  it('creates a list across series, reads it in order, reorders, steps next/previous and deletes it', async () => {
    const { auth } = await setupAdmin();
    const { x, s } = await twoSeries();
    const created = await api('/readlists', {
      auth,
      json: { name: 'Crossover', summary: 'An event', bookIds: [x[0].id, s[0].id, x[1].id] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Crossover',
      summary: 'An event',
      ordered: true,
      bookCount: 3,
      filtered: false,
    });
    const id = created.body.id;
    expect(titles((await api(`/readlists/${id}/books`, { auth })).body)).toEqual([
      'X-Men 1',
      'Spider-Man 1',
      'X-Men 2',
    ]);

    // Appending keeps books already there in place.
    const added = await api(`/readlists/${id}/books`, { auth, json: { bookIds: [s[1].id, x[0].id].slice(0, 1) } });
    expect(added.body.bookCount).toBe(4);
    expect((await api(`/readlists/${id}/books`, { auth, json: { bookIds: [x[0].id] } })).body.bookCount).toBe(4);

    expect(
      (
        await api(`/readlists/${id}/books`, {
          auth,
          method: 'PUT',
          json: { bookIds: [s[1].id, s[0].id, x[1].id, x[0].id] },
        })
      ).status,
    ).toBe(204);
    const page = await api(`/readlists/${id}/books?pageSize=2`, { auth });
    expect(titles(page.body)).toEqual(['Spider-Man 2', 'Spider-Man 1']);
    expect(page.body).toMatchObject({ total: 4, totalPages: 2 });

    const next = await api(`/readlists/${id}/books/${s[0].id}/next`, { auth });
    expect(next.body.title).toBe('X-Men 2');
    const previous = await api(`/readlists/${id}/books/${s[0].id}/previous`, { auth });
    expect(previous.body.title).toBe('Spider-Man 2');
    expectError(await api(`/readlists/${id}/books/${x[0].id}/next`, { auth }), 404, 'NotFound');
    expectError(await api(`/readlists/${id}/books/${s[1].id}/previous`, { auth }), 404, 'NotFound');
    expectError(await api(`/readlists/${id}/books/${x[2].id}/next`, { auth }), 404, 'NotFound');

    const ofBook = await api(`/books/${x[1].id}/readlists`, { auth });
    expect(ofBook.body.data.map((l: { name: string }) => l.name)).toEqual(['Crossover']);
    expect((await api(`/books/${x[2].id}/readlists`, { auth })).body.total).toBe(0);

    const thumbnail = await api(`/readlists/${id}/thumbnail`, { auth });
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('Content-Type')).toMatch(/^image\//);

    expect((await api(`/readlists/${id}/books/${s[1].id}`, { auth, method: 'DELETE' })).status).toBe(204);
    expect(titles((await api(`/readlists/${id}/books`, { auth })).body)).toEqual([
      'Spider-Man 1',
      'X-Men 2',
      'X-Men 1',
    ]);

    const renamed = await api(`/readlists/${id}`, { auth, method: 'PATCH', json: { name: 'Renamed', summary: '' } });
    expect(renamed.body).toMatchObject({ name: 'Renamed', summary: '' });
    expect((await api('/readlists?search=renam', { auth })).body.total).toBe(1);

    expect((await api(`/readlists/${id}`, { auth, method: 'DELETE' })).status).toBe(204);
    expectError(await api(`/readlists/${id}`, { auth }), 404, 'NotFound');
    expect((await api(`/books/${x[0].id}`, { auth })).status).toBe(200);
  });

  it('refuses unknown and repeated book ids, naming them, and changes nothing', async () => {
    const { auth } = await setupAdmin();
    const { x } = await twoSeries();
    const unknown = crypto.randomUUID();
    const refused = expectError(
      await api('/readlists', { auth, json: { name: 'Bad', bookIds: [x[0].id, unknown] } }),
      400,
      'BadRequest',
    );
    expect(refused.message).toContain(unknown);
    expect(refused.details?.[0]?.path).toBe('bookIds');
    expect((await api('/readlists', { auth })).body.total).toBe(0);

    const list = await api('/readlists', { auth, json: { name: 'Good', bookIds: [x[0].id, x[1].id] } });
    const repeated = expectError(
      await api(`/readlists/${list.body.id}/books`, { auth, method: 'PUT', json: { bookIds: [x[1].id, x[1].id] } }),
      400,
      'BadRequest',
    );
    expect(repeated.message).toContain(x[1].id);
    expectError(
      await api(`/readlists/${list.body.id}/books`, { auth, json: { bookIds: [unknown] } }),
      400,
      'BadRequest',
    );
    expect(titles((await api(`/readlists/${list.body.id}/books`, { auth })).body)).toEqual(['X-Men 1', 'X-Men 2']);
    expectError(await api('/readlists', { auth, json: { name: 'GOOD' } }), 409, 'Conflict');
    expectError(await api('/readlists', { auth, json: { bookIds: [] } }), 400, 'BadRequest');
    expectError(await api(`/readlists/${list.body.id}/books/${unknown}/next`, { auth }), 404, 'NotFound');
  });

  it('lets readers read but not write', async () => {
    const { auth } = await setupAdmin();
    const { x } = await twoSeries();
    const user = await createUser(auth);
    const reader = (await login(user.username, user.password)).auth;
    const list = await api('/readlists', { auth, json: { name: 'Shared', bookIds: [x[0].id] } });
    expect(titles((await api(`/readlists/${list.body.id}/books`, { auth: reader })).body)).toEqual(['X-Men 1']);
    expectError(await api('/readlists', { auth: reader, json: { name: 'Mine' } }), 403, 'Forbidden');
    expectError(
      await api(`/readlists/${list.body.id}/books`, { auth: reader, method: 'PUT', json: { bookIds: [] } }),
      403,
      'Forbidden',
    );
  });

  it('leaves deleted books out of its pages, counts and next/previous', async () => {
    const { auth } = await setupAdmin();
    const { x } = await twoSeries();
    const list = await api('/readlists', { auth, json: { name: 'Gaps', bookIds: [x[0].id, x[1].id, x[2].id] } });
    await softDeleteBook(x[1].id);
    expect((await api(`/readlists/${list.body.id}`, { auth })).body.bookCount).toBe(2);
    expect(titles((await api(`/readlists/${list.body.id}/books`, { auth })).body)).toEqual(['X-Men 1', 'X-Men 3']);
    expect((await api(`/readlists/${list.body.id}/books/${x[0].id}/next`, { auth })).body.title).toBe('X-Men 3');
  });
  it('lists an unordered read list by release date, whatever order its books were given in', async () => {
    const { auth } = await setupAdmin();
    const library = await seedLibrary();
    const alpha = await seedSeries(library, { title: 'Alpha' });
    const beta = await seedSeries(library, { title: 'Beta' });
    const late = await seedBook(alpha, { title: 'Alpha 2010', year: 2010 });
    const undated = await seedBook(alpha, { title: 'Alpha undated' });
    const early = await seedBook(beta, { title: 'Beta 1990', year: 1990 });
    const created = await api('/readlists', {
      auth,
      json: { name: 'By release', ordered: false, bookIds: [undated.id, late.id, early.id] },
    });
    expect(created.body).toMatchObject({ ordered: false, bookCount: 3 });
    const id = created.body.id;
    // docs/DECISIONS.md §Collections and read lists: by release date when not ordered (undated books last).
    expect(titles((await api(`/readlists/${id}/books`, { auth })).body)).toEqual([
      'Beta 1990',
      'Alpha 2010',
      'Alpha undated',
    ]);
    // Made ordered, the same list reads in the order it was given.
    await api(`/readlists/${id}`, { auth, method: 'PATCH', json: { ordered: true } });
    expect(titles((await api(`/readlists/${id}/books`, { auth })).body)).toEqual([
      'Alpha undated',
      'Alpha 2010',
      'Beta 1990',
    ]);
  });
});

describe('CBL import', () => {
  const cbl = (books: Array<{ series: string; number: string; volume?: number; year?: number }>, name = 'Event') =>
    writeCbl({ name, books });

  it('imports in the file’s order, reports the unmatched entries, and re-import updates the list', async () => {
    const { auth } = await setupAdmin();
    const { x, s } = await twoSeries();
    const file = cbl([
      { series: 'Spider-Man', number: '002', volume: 1990 },
      { series: 'X-Men', number: '1', volume: 1991 },
      { series: 'Wolverine', number: '1', volume: 1988 },
      { series: 'x-men', number: '3', year: 1991 },
      { series: 'X-Men', number: '99' },
    ]);
    const dry = await api('/readlists/import/cbl?dryRun=true', {
      auth,
      body: file,
      headers: { 'Content-Type': 'application/xml' },
    });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ name: 'Event', dryRun: true, readListId: null, matched: 3, unmatched: 2 });
    expect((await api('/readlists', { auth })).body.total).toBe(0);

    const imported = await api('/readlists/import/cbl', {
      auth,
      body: file,
      headers: { 'Content-Type': 'application/xml' },
    });
    expect(imported.body).toMatchObject({ created: true, updated: false, matched: 3, unmatched: 2 });
    const unmatched = imported.body.entries.filter((e: { matched: boolean }) => !e.matched);
    expect(unmatched.map((e: { series: string; number: string }) => `${e.series} #${e.number}`)).toEqual([
      'Wolverine #1',
      'X-Men #99',
    ]);
    expect(imported.body.entries[0]).toMatchObject({ index: 0, matched: true, bookId: s[1].id });
    const id = imported.body.readListId;
    expect(titles((await api(`/readlists/${id}/books`, { auth })).body)).toEqual([
      'Spider-Man 2',
      'X-Men 1',
      'X-Men 3',
    ]);

    // An updated list of the same name replaces the books, in its new order (sent as a multipart form).
    const form = new FormData();
    form.set(
      'file',
      new File(
        [
          cbl([
            { series: 'X-Men', number: '2' },
            { series: 'Spider-Man', number: '1' },
          ]),
        ],
        'event.cbl',
      ),
    );
    const again = await api('/readlists/import/cbl', { auth, body: form });
    expect(again.body).toMatchObject({ created: false, updated: true, readListId: id, matched: 2, unmatched: 0 });
    expect(titles((await api(`/readlists/${id}/books`, { auth })).body)).toEqual(['X-Men 2', 'Spider-Man 1']);
    expect((await api('/readlists', { auth })).body.total).toBe(1);
    expect(x).toHaveLength(3);
  });

  it('uses the year to tell two series of one name apart', async () => {
    const { auth } = await setupAdmin();
    const library = await seedLibrary();
    await seedSeriesWithBooks(library, 1, { title: 'Daredevil', year: 1964 });
    const modern = await seedSeriesWithBooks(await seedLibrary(), 1, { title: 'Daredevil', year: 2019 });
    const imported = await api('/readlists/import/cbl', {
      auth,
      body: cbl([{ series: 'Daredevil', number: '1', volume: 2019 }], 'DD'),
      headers: { 'Content-Type': 'application/xml' },
    });
    expect(imported.body.entries[0]).toMatchObject({ matched: true, seriesId: modern.series.id });
  });

  it('lists a book the file names twice once, at its first place, and marks the repeat', async () => {
    const { auth } = await setupAdmin();
    await twoSeries();
    const imported = await api('/readlists/import/cbl', {
      auth,
      body: cbl([
        { series: 'X-Men', number: '2' },
        { series: 'Spider-Man', number: '1' },
        { series: 'X-Men', number: '2' },
      ]),
      headers: { 'Content-Type': 'application/xml' },
    });
    expect(imported.status).toBe(200);
    expect(imported.body.entries.map((e: { duplicate: boolean }) => e.duplicate)).toEqual([false, false, true]);
    expect(titles((await api(`/readlists/${imported.body.readListId}/books`, { auth })).body)).toEqual([
      'X-Men 2',
      'Spider-Man 1',
    ]);
  });

  it('creates nothing, and leaves a list of that name as it was, when no entry matches', async () => {
    const { auth } = await setupAdmin();
    await twoSeries();
    const post = (names: Array<{ series: string; number: string }>) =>
      api('/readlists/import/cbl', { auth, body: cbl(names), headers: { 'Content-Type': 'application/xml' } });
    const none = await post([{ series: 'Wolverine', number: '1' }]);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ created: false, updated: false, readListId: null, matched: 0, unmatched: 1 });
    expect((await api('/readlists', { auth })).body.total).toBe(0);

    const first = await post([{ series: 'X-Men', number: '1' }]);
    expect(first.body.created).toBe(true);
    const again = await post([{ series: 'Wolverine', number: '2' }]);
    expect(again.body).toMatchObject({ updated: false, matched: 0 });
    expect(titles((await api(`/readlists/${first.body.readListId}/books`, { auth })).body)).toEqual(['X-Men 1']);
  });

  it('refuses a file that is not XML, not a reading list, or has no entries, with the reason', async () => {
    const { auth } = await setupAdmin();
    const post = (body: string) =>
      api('/readlists/import/cbl', { auth, body, headers: { 'Content-Type': 'application/xml' } });
    const notXml = expectError(await post('this is { not xml'), 400, 'BadRequest');
    expect(notXml.message.toLowerCase()).toContain('xml');
    const empty = expectError(await post(writeCbl({ name: 'Nothing', books: [] })), 400, 'BadRequest');
    expect(empty.message.toLowerCase()).toMatch(/no <?book>? ?entr/);
    const noName = expectError(
      await post('<ReadingList><Books><Book Series="A" Number="1"/></Books></ReadingList>'),
      400,
      'BadRequest',
    );
    expect(noName.message.toLowerCase()).toContain('name');
    expectError(await api('/readlists/import/cbl', { auth, body: new FormData() }), 400, 'BadRequest');
    expect((await api('/readlists', { auth })).body.total).toBe(0);
  });
});
