/**
 * Issue 18 point 2: editing series and book metadata under /api/v1 with locks (DECISIONS.md §Organise and
 * share). An edit locks what it sets; neither a normal nor a deep rescan nor a changed file overwrites a
 * locked field; turning the lock off brings the file's value back.
 */
import { describe, expect, it } from 'vitest';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';
import { type ComicInfo, makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';

const FIRST: ComicInfo = {
  Series: 'Saga',
  Title: 'Chapter One',
  Number: '1',
  Summary: 'What the file says.',
  Publisher: 'Image',
  Writer: 'Brian K. Vaughan',
  Penciller: 'Fiona Staples',
  Genre: 'Science Fiction',
  Tags: 'space',
  Characters: 'Alana, Marko',
};
const SECOND: ComicInfo = {
  Series: 'Saga',
  Title: 'Chapter Two',
  Number: '2',
  Summary: 'Second book.',
  Genre: 'Drama',
};

async function seed(auth: Credentials) {
  await putObject('comics/Saga/Saga 001.cbz', await makeCbz(2, FIRST));
  await putObject('comics/Saga/Saga 002.cbz', await makeCbz(2, SECOND));
  const libraryId = await createLibrary(auth);
  await scan(auth, libraryId);
  const seriesId = (await api('/series', { auth })).body.data[0].id as string;
  const books = (await api(`/series/${seriesId}/books`, { auth })).body.data as Array<{ id: string; title: string }>;
  const first = books.find((b) => b.title === 'Chapter One')?.id as string;
  return { libraryId, seriesId, first };
}

const bookMetadata = async (auth: Credentials, id: string) => (await api(`/books/${id}/metadata`, { auth })).body;
const seriesMetadata = async (auth: Credentials, id: string) => (await api(`/series/${id}/metadata`, { auth })).body;

describe('metadata editing with locks (issue 18; DECISIONS.md §Organise and share)', () => {
  it('reads what the files state, with every lock off; series values derive from the books', async () => {
    const { auth } = await setupAdmin();
    const { seriesId, first } = await seed(auth);
    const book = await bookMetadata(auth, first);
    expect(book).toMatchObject({
      title: 'Chapter One',
      summary: 'What the file says.',
      publisher: 'Image',
      authors: [
        { name: 'Brian K. Vaughan', role: 'writer' },
        { name: 'Fiona Staples', role: 'penciller' },
      ],
      genres: ['Science Fiction'],
      tags: ['space'],
      characters: ['Alana', 'Marko'],
    });
    expect(Object.values(book.locks).every((l) => l === false)).toBe(true);
    const series = await seriesMetadata(auth, seriesId);
    expect(series).toMatchObject({ summary: 'What the file says.', publisher: 'Image' });
    expect(series.genres).toEqual(['Drama', 'Science Fiction']);
    expect(series.characters).toEqual(['Alana', 'Marko']);
    expect(series.authors.map((a: { name: string }) => a.name)).toEqual(['Brian K. Vaughan', 'Fiona Staples']);
  });

  it('filters and searches series and books by credits, roles and terms (API.md §4 Advanced filtering)', async () => {
    const { auth } = await setupAdmin();
    const { seriesId, first } = await seed(auth);
    await putObject('comics/Other/Other 001.cbz', await makeCbz(1, { Series: 'Other', Writer: 'Someone Else' }));
    await scan(auth, (await api('/libraries', { auth })).body[0].id);
    const seriesWhere = async (leaf: object) =>
      (await api('/series/list', { auth, json: { condition: { allOf: [leaf] } } })).body.data.map(
        (s: { id: string }) => s.id,
      );
    const booksWhere = async (leaf: object) =>
      (await api('/books/list', { auth, json: { condition: { allOf: [leaf] } } })).body.data.map(
        (b: { id: string }) => b.id,
      );
    expect(await seriesWhere({ character: { operator: 'is', value: 'marko' } })).toEqual([seriesId]);
    expect(await seriesWhere({ author: { operator: 'is', value: 'fiona staples' } })).toEqual([seriesId]);
    expect(await seriesWhere({ penciller: { operator: 'is', value: 'Fiona Staples' } })).toEqual([seriesId]);
    expect(await seriesWhere({ writer: { operator: 'is', value: 'Fiona Staples' } })).toEqual([]);
    expect(await booksWhere({ genre: { operator: 'is', value: 'science fiction' } })).toEqual([first]);
    expect(await booksWhere({ tag: { operator: 'isNot', value: 'space' } })).not.toContain(first);
    // Credits and terms are in the search index too.
    const found = await api('/series/search', { auth, json: { query: 'alana' } });
    expect(found.body.data.map((s: { id: string }) => s.id)).toEqual([seriesId]);
  });

  it('keeps edited fields through a changed file, a normal and a deep rescan; unlocking brings the file back', async () => {
    const { auth } = await setupAdmin();
    const { libraryId, seriesId, first } = await seed(auth);

    const edited = await api(`/books/${first}/metadata`, {
      method: 'PATCH',
      auth,
      json: { title: 'The Edited One', summary: 'My summary.', genres: ['Romance'] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      title: 'The Edited One',
      titleSort: 'edited one, the',
      summary: 'My summary.',
    });
    expect(edited.body.genres).toEqual(['Romance']);
    expect(edited.body.locks).toMatchObject({ title: true, summary: true, genres: true, publisher: false });
    const seriesEdit = await api(`/series/${seriesId}/metadata`, {
      method: 'PATCH',
      auth,
      json: { summary: 'The series, as I describe it.', status: 'ongoing', tags: ['favourite'] },
    });
    expect(seriesEdit.status).toBe(200);
    expect(seriesEdit.body.locks).toMatchObject({ summary: true, status: true, tags: true, publisher: false });

    // The edit is searchable at once.
    const found = await api('/books/list', { auth, json: { fullTextSearch: 'edited' } });
    expect(found.body.data.map((b: { id: string }) => b.id)).toEqual([first]);

    // The file changes: unlocked fields follow it, locked ones stay.
    const changed = {
      ...FIRST,
      Title: 'Chapter One, revised',
      Summary: 'Revised file summary.',
      Publisher: 'Image Comics',
      Genre: 'Space Opera',
    };
    await putObject('comics/Saga/Saga 001.cbz', await makeCbz(3, changed));
    for (const mode of ['normal', 'deep'] as const) {
      await scan(auth, libraryId, mode);
      const book = await bookMetadata(auth, first);
      expect(book).toMatchObject({ title: 'The Edited One', summary: 'My summary.', publisher: 'Image Comics' });
      expect(book.genres).toEqual(['Romance']);
      const series = await seriesMetadata(auth, seriesId);
      expect(series).toMatchObject({
        summary: 'The series, as I describe it.',
        status: 'ongoing',
        publisher: 'Image Comics',
      });
      expect(series.tags).toEqual(['favourite']);
    }

    // Unlocking puts the file's current values back (and the sort title with the title).
    const unlocked = await api(`/books/${first}/metadata/locks`, {
      method: 'PUT',
      auth,
      json: { title: false, genres: false },
    });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body).toMatchObject({ title: false, genres: false, summary: true });
    const book = await bookMetadata(auth, first);
    expect(book).toMatchObject({
      title: 'Chapter One, revised',
      titleSort: 'chapter one, revised',
      summary: 'My summary.',
    });
    expect(book.genres).toEqual(['Space Opera']);
    // A later scan keeps following the file for the unlocked fields.
    await scan(auth, libraryId, 'deep');
    expect((await bookMetadata(auth, first)).title).toBe('Chapter One, revised');

    // The series' unlocked summary derives from its first book again; its tags from the books' tags.
    await api(`/series/${seriesId}/metadata/locks`, { method: 'PUT', auth, json: { summary: false, tags: false } });
    const series = await seriesMetadata(auth, seriesId);
    expect(series.summary).toBe('My summary.');
    expect(series.tags).toEqual(['space']);
    expect(series.locks).toMatchObject({ summary: false, tags: false, status: true });
  });

  it('edits several series and books at once, counting only those the caller can see', async () => {
    const { auth } = await setupAdmin();
    const { seriesId, first } = await seed(auth);
    const missing = '00000000-0000-4000-8000-000000000000';
    const books = await api('/books/bulk/metadata', {
      method: 'PATCH',
      auth,
      json: { bookIds: [first, missing], publisher: 'Bulk Pub' },
    });
    expect(books.body).toMatchObject({ updatedCount: 1 });
    expect((await bookMetadata(auth, first)).locks.publisher).toBe(true);
    const series = await api('/series/bulk/metadata', {
      method: 'PATCH',
      auth,
      json: { seriesIds: [seriesId], year: 1999 },
    });
    expect(series.body).toMatchObject({ updatedCount: 1 });
    expect(await seriesMetadata(auth, seriesId)).toMatchObject({ year: 1999, locks: { year: true } });
    const locks = await api('/series/bulk/metadata/locks', {
      method: 'PUT',
      auth,
      json: { seriesIds: [seriesId], year: false },
    });
    expect(locks.body).toMatchObject({ updatedCount: 1 });
    expect((await seriesMetadata(auth, seriesId)).locks.year).toBe(false);
    const bookLocks = await api('/books/bulk/metadata/locks', {
      method: 'PUT',
      auth,
      json: { bookIds: [first], publisher: false },
    });
    expect(bookLocks.body).toMatchObject({ updatedCount: 1 });
    expect(await bookMetadata(auth, first)).toMatchObject({ publisher: 'Image', locks: { publisher: false } });
  });

  it('rejects unknown fields, wrong types and locks of fields that do not exist, changing nothing', async () => {
    const { auth } = await setupAdmin();
    const { seriesId, first } = await seed(auth);
    const unknown = await api(`/series/${seriesId}/metadata`, {
      method: 'PATCH',
      auth,
      json: { summary: 'x', colour: 'red' },
    });
    expectError(unknown, 400, 'BadRequest');
    expect(unknown.text).toContain('colour');
    const wrongType = await api(`/books/${first}/metadata`, {
      method: 'PATCH',
      auth,
      json: { title: 'x', year: 'soon' },
    });
    expectError(wrongType, 400, 'BadRequest');
    expect(wrongType.text).toContain('year');
    const badLock = await api(`/books/${first}/metadata/locks`, {
      method: 'PUT',
      auth,
      json: { title: true, mood: true },
    });
    expectError(badLock, 400, 'BadRequest');
    expect(badLock.text).toContain('mood');
    expect(await bookMetadata(auth, first)).toMatchObject({ title: 'Chapter One', locks: { title: false } });
    expect((await seriesMetadata(auth, seriesId)).summary).toBe('What the file says.');
    expectError(await api('/series/00000000-0000-4000-8000-000000000000/metadata', { auth }), 404, 'NotFound');
  });

  it('needs SeriesWrite or BooksWrite to edit; readers can read', async () => {
    const { auth } = await setupAdmin();
    const { seriesId, first } = await seed(auth);
    const reader = await createUser(auth, { role: 'reader' });
    const { auth: readerAuth } = await login(reader.username, reader.password);
    expect((await api(`/series/${seriesId}/metadata`, { auth: readerAuth })).status).toBe(200);
    expectError(
      await api(`/series/${seriesId}/metadata`, { method: 'PATCH', auth: readerAuth, json: { summary: 'x' } }),
      403,
      'Forbidden',
    );
    expectError(
      await api(`/books/${first}/metadata/locks`, { method: 'PUT', auth: readerAuth, json: { title: true } }),
      403,
      'Forbidden',
    );
    expectError(
      await api(`/books/bulk/metadata`, { method: 'PATCH', auth: readerAuth, json: { bookIds: [first], title: 'x' } }),
      403,
      'Forbidden',
    );
  });
});
