/**
 * Komga's list and author search conditions (`collectionId`, `readListId`, `author`; Komga's
 * SeriesSearchHelper/BookSearchHelper) and Mihon's `author=<name>,<role>` parameter, through /komga: each
 * narrows the list in SQL, so pages and totals agree; a collection or read list the reader may not see
 * matches nothing, and hidden members stay hidden.
 */
import { describe, expect, it } from 'vitest';
import { buildAccessFixture } from '../support/access-fixture';
import { ADMIN } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { type KomgaResponse, komga, komgaLibrary } from '../support/komga';
import { makeCbz, putObject } from '../support/library-files';
import { scan } from '../support/scans';
import { statementCounter } from '../support/statements';

type Page = {
  content: Array<{ id: string; name: string }>;
  totalElements: number;
  numberOfElements: number;
  message?: string;
};

const names = (response: KomgaResponse<Page>) => response.body.content.map((item) => item.name);

async function catalog(auth: Credentials) {
  const series = (await komga<Page>('/api/v1/series?unpaged=true', { auth })).body.content;
  const books = (await komga('/api/v1/books?unpaged=true', { auth })).body.content as Array<{
    id: string;
    name: string;
    seriesTitle: string;
  }>;
  const seriesId = (name: string) => series.find((s) => s.name === name)?.id as string;
  const bookId = (name: string) => books.find((b) => b.name === name)?.id as string;
  return { seriesId, bookId };
}

async function createCollection(auth: Credentials, name: string, seriesIds: string[]): Promise<string> {
  const created = await komga('/api/v1/collections', { auth, json: { name, ordered: false, seriesIds } });
  expect(created.status).toBe(200);
  return created.body.id;
}

async function createReadList(auth: Credentials, name: string, bookIds: string[]): Promise<string> {
  const created = await komga('/api/v1/readlists', { auth, json: { name, summary: '', ordered: true, bookIds } });
  expect(created.status).toBe(200);
  return created.body.id;
}

const searchSeries = (auth: Credentials, condition: unknown, query = 'unpaged=true') =>
  komga<Page>(`/api/v1/series/list?${query}`, { auth, json: { condition } });
const searchBooks = (auth: Credentials, condition: unknown, query = 'unpaged=true') =>
  komga<Page>(`/api/v1/books/list?${query}`, { auth, json: { condition } });

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('collectionId and readListId search conditions', () => {
  it('narrow series to a collection and books to a read list, with is and isNot, paged and counted', async () => {
    const { admin } = await komgaLibrary();
    const auth = admin.auth;
    const { seriesId, bookId } = await catalog(auth);
    const space = await createCollection(auth, 'Space', [seriesId('Saga')]);
    const both = await createCollection(auth, 'Both', [seriesId('Saga'), seriesId('Berserk')]);

    // Komelia sends its kotlinx discriminator beside the key.
    const inSpace = await searchSeries(auth, { type: 'CollectionId', collectionId: { operator: 'is', value: space } });
    expect(inSpace.status).toBe(200);
    expect(names(inSpace)).toEqual(['Saga']);
    expect(inSpace.body.totalElements).toBe(1);
    expect(names(await searchSeries(auth, { collectionId: { operator: 'isNot', value: space } }))).toEqual(['Berserk']);
    const firstOfBoth = await searchSeries(auth, { collectionId: { operator: 'is', value: both } }, 'size=1&page=0');
    expect(firstOfBoth.body).toMatchObject({ totalElements: 2, numberOfElements: 1 });
    expect(names(firstOfBoth)).toEqual(['Berserk']);
    const notInEither = {
      allOf: [
        { collectionId: { operator: 'isNot', value: space } },
        { collectionId: { operator: 'isNot', value: both } },
      ],
    };
    expect(names(await searchSeries(auth, notInEither))).toEqual([]);
    // An unknown collection has no series; none is excluded by it either.
    expect((await searchSeries(auth, { collectionId: { operator: 'is', value: UNKNOWN } })).body.totalElements).toBe(0);
    expect(names(await searchSeries(auth, { collectionId: { operator: 'isNot', value: UNKNOWN } }))).toEqual([
      'Berserk',
      'Saga',
    ]);

    const arc = await createReadList(auth, 'Arc', [bookId('Guardians'), bookId('Brand')]);
    const inArc = await searchBooks(auth, { allOf: [{ readListId: { operator: 'is', value: arc } }] });
    expect(inArc.body.totalElements).toBe(2);
    expect(names(inArc).sort()).toEqual(['Brand', 'Guardians']);
    const pageOfArc = await searchBooks(auth, { readListId: { operator: 'is', value: arc } }, 'size=1&page=1');
    expect(pageOfArc.body).toMatchObject({ totalElements: 2, numberOfElements: 1 });
    const berserkOutsideArc = await searchBooks(auth, {
      allOf: [
        { seriesId: { operator: 'is', value: seriesId('Berserk') } },
        { readListId: { operator: 'isNot', value: arc } },
      ],
    });
    expect(names(berserkOutsideArc)).toEqual(['Black Swordsman']);
    expect((await searchBooks(auth, { readListId: { operator: 'is', value: UNKNOWN } })).body.totalElements).toBe(0);

    // Each condition belongs to its own resource, and takes Komga's id operators only.
    expect((await searchBooks(auth, { collectionId: { operator: 'is', value: space } })).status).toBe(400);
    expect((await searchSeries(auth, { readListId: { operator: 'is', value: arc } })).status).toBe(400);
    const badOperator = await searchSeries(auth, { collectionId: { operator: 'contains', value: space } });
    expect(badOperator.status).toBe(400);
    expect(badOperator.body.message).toContain('collectionId');
  });

  it('shows a restricted reader only the members it may see, and nothing of a collection it may not see', async () => {
    const f = await buildAccessFixture();
    const reader: Credentials = { apiKey: f.userKey };
    const hidden = await createCollection(f.admin, 'Hidden', [f.series.xadult.seriesId, f.series.xbeta.seriesId]);
    const mixed = await createCollection(f.admin, 'Mixed', [f.series.xteen.seriesId, f.series.xadult.seriesId]);
    const readList = await createReadList(f.admin, 'Mixed books', [
      f.series.xadult.bookIds[0] as string,
      f.series.xteen.bookIds[1] as string,
    ]);

    const ofHidden = await searchSeries(reader, { collectionId: { operator: 'is', value: hidden } });
    expect(ofHidden.status).toBe(200);
    expect(ofHidden.body).toMatchObject({ totalElements: 0, content: [] });
    const ofMixed = await searchSeries(reader, { collectionId: { operator: 'is', value: mixed } });
    expect(names(ofMixed)).toEqual(['Zork Xteen']);
    expect(ofMixed.body.totalElements).toBe(1);
    // isNot of the hidden collection lists what the reader sees anyway, never its members.
    const notHidden = names(await searchSeries(reader, { collectionId: { operator: 'isNot', value: hidden } }));
    expect(notHidden).not.toContain('Zork Xadult');
    expect(notHidden).not.toContain('Zork Xbeta');
    expect(notHidden).toContain('Zork Xteen');

    const books = await searchBooks(reader, { readListId: { operator: 'is', value: readList } });
    expect(books.body.totalElements).toBe(1);
    expect(books.body.content.map((b) => b.id)).toEqual([f.series.xteen.bookIds[1]]);
    // The admin sees both members.
    expect((await searchBooks(f.admin, { readListId: { operator: 'is', value: readList } })).body.totalElements).toBe(
      2,
    );
  }, 120_000);

  it('takes a smart collection of series as its rule, and refuses what the rule cannot stand for', async () => {
    const { admin } = await komgaLibrary();
    const auth = admin.auth;
    const { seriesId } = await catalog(auth);
    const smart = async (body: Record<string, unknown>) => {
      const created = await api('/collections', { auth, json: body });
      expect(created.status).toBe(201);
      return created.body.id as string;
    };
    const dark = await smart({ name: 'Dark', condition: { genre: { operator: 'is', value: 'Dark Fantasy' } } });
    const space = await createCollection(auth, 'Space', [seriesId('Saga')]);

    expect(names(await searchSeries(auth, { collectionId: { operator: 'is', value: dark } }))).toEqual(['Berserk']);
    const either = {
      anyOf: [{ collectionId: { operator: 'is', value: dark } }, { collectionId: { operator: 'is', value: space } }],
    };
    expect(names(await searchSeries(auth, either))).toEqual(['Berserk', 'Saga']);
    // The same series the collection shows Komga clients.
    const shown = (await komga(`/api/v1/collections/${dark}`, { auth })).body.seriesIds;
    expect(shown).toEqual([seriesId('Berserk')]);

    const negated = await searchSeries(auth, { collectionId: { operator: 'isNot', value: dark } });
    expect(negated.status).toBe(400);
    expect(negated.body.message).toContain(`/api/v1/collections/${dark}/series`);
    const searched = await smart({ name: 'Searched', fullTextSearch: 'berserk' });
    const bySearch = await searchSeries(auth, { collectionId: { operator: 'is', value: searched } });
    expect(bySearch.status).toBe(400);
    expect(bySearch.body.message).toContain('search terms');
    // A smart collection of books holds no series.
    const ofBooks = await smart({
      name: 'Books',
      target: 'books',
      condition: { title: { operator: 'is', value: 'Brand' } },
    });
    expect((await searchSeries(auth, { collectionId: { operator: 'is', value: ofBooks } })).body.totalElements).toBe(0);
  });
});

describe('collection.number and readList.number sorts', () => {
  it('order a collection’s series and a read list’s books by their positions, and are dropped without one', async () => {
    const { admin, libraryId } = await komgaLibrary();
    const auth = admin.auth;
    const { seriesId, bookId } = await catalog(auth);
    const sagaFirst = (
      await komga('/api/v1/collections', {
        auth,
        json: { name: 'Saga first', ordered: true, seriesIds: [seriesId('Saga'), seriesId('Berserk')] },
      })
    ).body.id as string;
    const berserkFirst = (
      await komga('/api/v1/collections', {
        auth,
        json: { name: 'Berserk first', ordered: true, seriesIds: [seriesId('Berserk'), seriesId('Saga')] },
      })
    ).body.id as string;
    const inCollection = (id: string) => ({ collectionId: { operator: 'is', value: id } });

    // By name Berserk comes first; the collection's order puts Saga first, and desc reverses it.
    expect(names(await searchSeries(auth, inCollection(sagaFirst), 'sort=collection.number'))).toEqual([
      'Saga',
      'Berserk',
    ]);
    expect(names(await searchSeries(auth, inCollection(sagaFirst), 'sort=collection.number,desc'))).toEqual([
      'Berserk',
      'Saga',
    ]);
    expect(names(await searchSeries(auth, inCollection(berserkFirst), 'sort=collection.number'))).toEqual([
      'Berserk',
      'Saga',
    ]);
    // Paged, the order holds across pages.
    const second = await searchSeries(auth, inCollection(sagaFirst), 'sort=collection.number,asc&size=1&page=1');
    expect(second.body).toMatchObject({ totalElements: 2, numberOfElements: 1 });
    expect(names(second)).toEqual(['Berserk']);
    // The first collection the condition names (depth first) gives the order, as in Komga's DAO.
    const nested = { allOf: [{ libraryId: { operator: 'is', value: libraryId } }, inCollection(sagaFirst)] };
    expect(names(await searchSeries(auth, nested, 'sort=collection.number'))).toEqual(['Saga', 'Berserk']);
    // Without a collection to follow, Komga drops the sort: the next property applies, else the default.
    expect(names(await searchSeries(auth, undefined, 'sort=collection.number,desc'))).toEqual(['Berserk', 'Saga']);
    expect(names(await searchSeries(auth, undefined, 'sort=collection.number&sort=metadata.titleSort,desc'))).toEqual([
      'Saga',
      'Berserk',
    ]);
    // A smart collection has no positions: its rule's own sort orders it.
    const smart = await api('/collections', {
      auth,
      json: {
        name: 'All, reversed',
        condition: { libraryId: { operator: 'is', value: libraryId } },
        sort: 'name,desc',
      },
    });
    expect(smart.status).toBe(201);
    expect(names(await searchSeries(auth, inCollection(smart.body.id), 'sort=collection.number'))).toEqual([
      'Saga',
      'Berserk',
    ]);

    const arc = await createReadList(auth, 'Arc', [bookId('Guardians'), bookId('Black Swordsman'), bookId('Brand')]);
    const inArc = { readListId: { operator: 'is', value: arc } };
    expect(names(await searchBooks(auth, inArc, 'sort=readList.number'))).toEqual([
      'Guardians',
      'Black Swordsman',
      'Brand',
    ]);
    expect(names(await searchBooks(auth, inArc, 'sort=readList.number,desc'))).toEqual([
      'Brand',
      'Black Swordsman',
      'Guardians',
    ]);
    const berserkBooks = { seriesId: { operator: 'is', value: seriesId('Berserk') } };
    expect(names(await searchBooks(auth, berserkBooks, 'sort=readList.number&sort=metadata.numberSort,desc'))).toEqual([
      'Guardians',
      'Brand',
      'Black Swordsman',
    ]);
  });
});

describe('author search condition and Mihon’s author parameter', () => {
  it('matches name and role as Komga does, for series and books', async () => {
    const { admin } = await komgaLibrary();
    const auth = admin.auth;
    const author = (operator: string, value: unknown) => ({ author: { operator, value } });

    const miura = { name: 'kentaro miura', role: 'writer' };
    expect(names(await searchSeries(auth, { type: 'Author', ...author('is', miura) }))).toEqual(['Berserk']);
    expect(names(await searchSeries(auth, author('is', { ...miura, role: 'penciller' })))).toEqual([]);
    expect(names(await searchSeries(auth, author('is', { name: 'Kentaro Miura', role: null })))).toEqual(['Berserk']);
    expect(names(await searchSeries(auth, author('isNot', miura)))).toEqual(['Saga']);
    // A role alone: anyone credited in it; neither name nor role: no condition (Komga's noCondition).
    expect(names(await searchSeries(auth, author('is', { role: 'writer' })))).toEqual(['Berserk', 'Saga']);
    expect(names(await searchSeries(auth, author('isNot', { role: 'writer' })))).toEqual([]);
    expect(names(await searchSeries(auth, author('is', { name: null, role: null })))).toEqual(['Berserk', 'Saga']);
    const books = await searchBooks(auth, author('is', { name: 'Brian K. Vaughan', role: 'writer' }));
    expect(books.body.totalElements).toBe(1);

    const malformed = await searchSeries(auth, author('is', 'Kentaro Miura'));
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('author.value');
    expect((await searchSeries(auth, author('contains', miura))).status).toBe(400);
  });

  it('pages and counts an author’s series across pages (author=<name>,<role>)', async () => {
    const { admin, libraryId } = await komgaLibrary();
    const auth = admin.auth;
    await putObject(
      'comics/Gigantomakhia/Gigantomakhia 001.cbz',
      await makeCbz(1, { Series: 'Gigantomakhia', Number: '1', Writer: 'Kentaro Miura' }),
    );
    await putObject(
      'comics/Duranki/Duranki 001.cbz',
      await makeCbz(1, { Series: 'Duranki', Number: '1', Writer: 'Kentaro Miura', Penciller: 'Kouji Mori' }),
    );
    await scan(auth, libraryId);

    const path = (page: number) => `/api/v1/series?author=Kentaro%20Miura,writer&size=2&page=${page}`;
    const first = await komga<Page>(path(0), { auth });
    expect(first.body).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 2 });
    expect(names(first)).toEqual(['Berserk', 'Duranki']);
    const second = await komga<Page>(path(1), { auth });
    expect(second.body).toMatchObject({ totalElements: 3, numberOfElements: 1 });
    expect(names(second)).toEqual(['Gigantomakhia']);
    // Any of several authors; with the other filters, all of them.
    const either = await komga<Page>(
      '/api/v1/series?author=Kouji%20Mori,penciller&author=Brian%20K.%20Vaughan,writer',
      {
        auth,
      },
    );
    expect(names(either)).toEqual(['Duranki', 'Saga']);
    const withGenre = await komga<Page>('/api/v1/series?author=Kentaro%20Miura,writer&genre=Dark%20Fantasy', { auth });
    expect(names(withGenre)).toEqual(['Berserk']);
  });
});

describe('smart collections in Komga’s collection lists', () => {
  it('shows each smart collection’s series as seriesIds, at a statement cost that does not grow with them', async () => {
    const { admin } = await komgaLibrary();
    const auth = admin.auth;
    const { seriesId } = await catalog(auth);
    const smart = async (name: string, condition: unknown, sort?: string) => {
      const created = await api('/collections', { auth, json: { name, condition, ...(sort ? { sort } : {}) } });
      expect(created.status).toBe(201);
    };
    await createCollection(auth, 'Plain', [seriesId('Saga')]);
    await smart('Dark', { genre: { operator: 'is', value: 'Dark Fantasy' } });

    const counter = statementCounter();
    const headers = { Authorization: `Basic ${btoa(`${ADMIN.username}:${ADMIN.password}`)}` };
    const collections = async () => {
      const measured = await counter.measure('/komga/api/v1/collections?unpaged=true', { headers });
      expect(measured.status).toBe(200);
      const page = JSON.parse(measured.body) as { content: Array<{ name: string; seriesIds: string[] }> };
      return { calls: measured.calls, seriesIds: new Map(page.content.map((c) => [c.name, c.seriesIds])) };
    };
    await collections(); // the first Basic check reads the user; later ones are the cached path
    const one = await collections();

    await smart('Writers', { writer: { operator: 'isNotNull' } }, 'name,desc');
    await smart('Space', { genre: { operator: 'is', value: 'Space Opera' } });
    const three = await collections();
    expect(three.seriesIds.get('Plain')).toEqual([seriesId('Saga')]);
    expect(three.seriesIds.get('Dark')).toEqual([seriesId('Berserk')]);
    expect(three.seriesIds.get('Writers')).toEqual([seriesId('Saga'), seriesId('Berserk')]);
    expect(three.seriesIds.get('Space')).toEqual([seriesId('Saga')]);
    // Two for the credentials, the page of collections and its count, the plain ones' members, and one batch of
    // three ids-only queries for the smart ones: as many calls as with one smart collection.
    expect(three.calls).toHaveLength(one.calls.length);
    expect(three.calls).toHaveLength(6);
    // (The plain members and the smart batch are read concurrently: in either order.)
    const batches = three.calls.filter((call) => call.length === 3);
    expect(batches).toHaveLength(1);
    const batch = batches[0] ?? [];
    for (const statement of batch) expect(statement).toMatch(/^select "id" as "id" from "series"/);
  });
});
