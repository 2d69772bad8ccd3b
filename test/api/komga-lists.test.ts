/**
 * Issue 19 under /komga: Mihon's and Komelia's collection and read-list calls replayed as their sources make
 * them (test/support/clients/komga-lists.ts), each answer decoded with the client's own DTO, plus Komga's
 * ComicRack match and the list events on Komga's SSE stream.
 */
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ClientStep, decodeKotlinx, KtorSession } from '../support/clients/client-http';
import { writeCbl } from '../support/clients/cbl';
import {
  KOMELIA_COLLECTION_STEPS,
  KOMELIA_READLIST_STEPS,
  KomeliaCollection,
  KomeliaReadList,
  KomgaCollectionEvent,
  KomgaReadListEvent,
  KomgaReadListRequestMatchDto,
  KomgaReadListTachiyomiProgressDto,
  komeliaAddTo,
  komeliaCreateCollection,
  komeliaCreateReadList,
  komeliaEditBody,
  komeliaListsPath,
  komeliaMembersPath,
  komeliaReorderCollection,
  komeliaReorderReadList,
  MIHON_STEPS,
  MihonReadListDto,
  MihonTrackerReadListDto,
  mihonBrowseRequest,
  mihonCollectionBrowse,
} from '../support/clients/komga-lists';
import { selfTransport } from '../support/clients/self-transport';
import {
  KomeliaBook,
  KomeliaPage,
  KomeliaSeries,
  MihonBookDto,
  MihonCollectionDto,
  MihonPageWrapper,
  MihonSeriesDto,
} from '../support/komga-client-dtos';
import { authHeaders, type Credentials } from '../support/http';
import { komga, komgaEventStream, komgaLibrary } from '../support/komga';

const step = (steps: readonly ClientStep[], name: string) => {
  const found = steps.find((s) => s.step === name);
  if (!found) throw new Error(`no step ${name}`);
  return found;
};
const json = (value: unknown) => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(value) });

/** The scanned library's series and books by title. */
async function catalog(auth: Credentials) {
  const series = (await komga('/api/v1/series?unpaged=true', { auth })).body.content as Array<{
    id: string;
    name: string;
  }>;
  const books = (await komga('/api/v1/books?unpaged=true', { auth })).body.content as Array<{
    id: string;
    seriesTitle: string;
    metadata: { number: string };
  }>;
  const seriesId = (name: string) => series.find((s) => s.name === name)?.id as string;
  const bookId = (title: string, number: string) =>
    books.find((b) => b.seriesTitle === title && b.metadata.number === number)?.id as string;
  return { seriesId, bookId };
}

describe('Komelia’s collections and read lists', () => {
  it('creates, adds to, browses, reorders, edits and deletes a collection', async () => {
    const { admin, libraryId } = await komgaLibrary();
    const { seriesId } = await catalog(admin.auth);
    const berserk = seriesId('Berserk');
    const saga = seriesId('Saga');
    const komelia = new KtorSession(selfTransport({ auth: admin.auth }));
    const steps = KOMELIA_COLLECTION_STEPS;

    const created = await komelia.json(
      'collection-create',
      { method: 'POST', path: '/api/v1/collections', ...json(komeliaCreateCollection('Favourites', [berserk])) },
      step(steps, 'collection-create').response as typeof KomeliaCollection,
    );
    expect(created).toMatchObject({ name: 'Favourites', ordered: false, seriesIds: [berserk], filtered: false });

    const add = await komelia.send('collection-add', {
      method: 'PATCH',
      path: `/api/v1/collections/${created.id}`,
      ...json({ seriesIds: komeliaAddTo(created.seriesIds, [saga, berserk]) }),
    });
    expect(add.status).toBe(204);

    // The library tab, with library ids joined by ", " as komga-client joins them.
    const tab = await komelia.json(
      'library-collections',
      {
        method: 'GET',
        path: komeliaListsPath('collections', { size: 50, pageIndex: 0 }, [libraryId, crypto.randomUUID()]),
      },
      KomeliaPage(KomeliaCollection),
    );
    expect(tab.content.map((c) => c.name)).toEqual(['Favourites']);
    expect(tab.content[0]?.seriesIds).toEqual([berserk, saga]);
    const otherLibrary = await komelia.json(
      'library-collections',
      { method: 'GET', path: komeliaListsPath('collections', { size: 50, pageIndex: 0 }, [crypto.randomUUID()]) },
      KomeliaPage(KomeliaCollection),
    );
    expect(otherLibrary.content).toEqual([]);

    await komelia.json('collection', { method: 'GET', path: `/api/v1/collections/${created.id}` }, KomeliaCollection);
    // Ordered, then reordered by a drag that sends every series on screen.
    await komelia.send('collection-edit', {
      method: 'PATCH',
      path: `/api/v1/collections/${created.id}`,
      ...json(komeliaEditBody({ name: 'Favourites', ordered: false }, { name: 'Favourites', ordered: true })),
    });
    await komelia.send('collection-reorder', {
      method: 'PATCH',
      path: `/api/v1/collections/${created.id}`,
      ...json(komeliaReorderCollection([saga, berserk])),
    });
    const members = await komelia.json(
      'collection-series',
      { method: 'GET', path: komeliaMembersPath('collections', created.id, { size: 100, pageIndex: 0 }) },
      KomeliaPage(KomeliaSeries),
    );
    expect(members.content.map((s) => s.id)).toEqual([saga, berserk]);

    const ofSeries = await komelia.json(
      'series-collections',
      { method: 'GET', path: `/api/v1/series/${saga}/collections` },
      z.array(KomeliaCollection),
    );
    expect(ofSeries.map((c) => c.id)).toEqual([created.id]);

    const poster = await komelia.send('collection-poster', {
      method: 'GET',
      path: `/api/v1/collections/${created.id}/thumbnail`,
    });
    expect(poster.headers.get('Content-Type')).toMatch(/^image\//);
    // Saving the edit dialog without changes PATCHes {}.
    expect(
      (
        await komelia.send('collection-edit', {
          method: 'PATCH',
          path: `/api/v1/collections/${created.id}`,
          ...json({}),
        })
      ).status,
    ).toBe(204);
    expect(
      (await komelia.send('collection-delete', { method: 'DELETE', path: `/api/v1/collections/${created.id}` })).status,
    ).toBe(204);
    expect((await komga(`/api/v1/collections/${created.id}`, { auth: admin.auth })).status).toBe(404);
  });

  it('creates a read list, reorders it and reads it in order with next/previous', async () => {
    const { admin } = await komgaLibrary();
    const { bookId } = await catalog(admin.auth);
    const [b1, b2, b3, s1] = [
      bookId('Berserk', '1'),
      bookId('Berserk', '2'),
      bookId('Berserk', '3'),
      bookId('Saga', '1'),
    ];
    const komelia = new KtorSession(selfTransport({ auth: admin.auth }));
    const steps = KOMELIA_READLIST_STEPS;

    const list = await komelia.json(
      'readlist-create',
      { method: 'POST', path: '/api/v1/readlists', ...json(komeliaCreateReadList('Arc', [b1, s1])) },
      step(steps, 'readlist-create').response as typeof KomeliaReadList,
    );
    expect(list).toMatchObject({ name: 'Arc', summary: '', ordered: true, bookIds: [b1, s1] });
    await komelia.send('readlist-add', {
      method: 'PATCH',
      path: `/api/v1/readlists/${list.id}`,
      ...json({ bookIds: komeliaAddTo(list.bookIds, [b2, b3]) }),
    });
    await komelia.send('readlist-reorder', {
      method: 'PATCH',
      path: `/api/v1/readlists/${list.id}`,
      ...json(komeliaReorderReadList([s1, b1, b2, b3])),
    });
    const books = await komelia.json(
      'readlist-books',
      { method: 'GET', path: komeliaMembersPath('readlists', list.id, { size: 100, pageIndex: 0 }) },
      KomeliaPage(KomeliaBook),
    );
    expect(books.content.map((b) => b.id)).toEqual([s1, b1, b2, b3]);
    const page = await komelia.json(
      'readlist-books',
      { method: 'GET', path: komeliaMembersPath('readlists', list.id, { size: 2, pageIndex: 1 }) },
      KomeliaPage(KomeliaBook),
    );
    expect(page.content.map((b) => b.id)).toEqual([b2, b3]);
    expect(page).toMatchObject({ totalElements: 4, totalPages: 2, number: 1 });

    const next = await komelia.json(
      'read-in-order-next',
      { method: 'GET', path: `/api/v1/readlists/${list.id}/books/${s1}/next` },
      KomeliaBook,
    );
    expect(next.id).toBe(b1);
    const previous = await komelia.json(
      'read-in-order-previous',
      { method: 'GET', path: `/api/v1/readlists/${list.id}/books/${b1}/previous` },
      KomeliaBook,
    );
    expect(previous.id).toBe(s1);
    // 404 at either end: Komelia catches exactly that.
    await expect(
      komelia.send('read-in-order-previous', {
        method: 'GET',
        path: `/api/v1/readlists/${list.id}/books/${s1}/previous`,
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      komelia.send('read-in-order-next', { method: 'GET', path: `/api/v1/readlists/${list.id}/books/${b3}/next` }),
    ).rejects.toMatchObject({ status: 404 });

    const ofBook = await komelia.json(
      'book-readlists',
      { method: 'GET', path: `/api/v1/books/${b2}/readlists` },
      z.array(KomeliaReadList),
    );
    expect(ofBook.map((l) => l.name)).toEqual(['Arc']);
    await komelia.send('readlist-edit', {
      method: 'PATCH',
      path: `/api/v1/readlists/${list.id}`,
      ...json(
        komeliaEditBody(
          { name: 'Arc', ordered: true, summary: '' },
          { name: 'Arc', ordered: true, summary: 'Read me' },
        ),
      ),
    });
    const edited = await komelia.json(
      'readlist',
      { method: 'GET', path: `/api/v1/readlists/${list.id}` },
      KomeliaReadList,
    );
    expect(edited.summary).toBe('Read me');
  });

  it('answers Komga’s 400s for bad bodies and a taken name, changing nothing', async () => {
    const { admin } = await komgaLibrary();
    const { seriesId, bookId } = await catalog(admin.auth);
    const auth = admin.auth;
    expect(
      (await komga('/api/v1/collections', { auth, json: { name: 'X', ordered: false, seriesIds: [] } })).status,
    ).toBe(400);
    expect(
      (await komga('/api/v1/collections', { auth, json: { name: 'X', seriesIds: [seriesId('Saga')] } })).status,
    ).toBe(400);
    const unknown = crypto.randomUUID();
    const refused = await komga('/api/v1/readlists', {
      auth,
      json: { name: 'R', bookIds: [bookId('Saga', '1'), unknown] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(unknown);
    expect((await komga('/api/v1/readlists', { auth })).body.totalElements).toBe(0);
    expect(
      (await komga('/api/v1/readlists', { auth, json: komeliaCreateReadList('R', [bookId('Saga', '1')]) })).status,
    ).toBe(200);
    const taken = await komga('/api/v1/readlists', { auth, json: komeliaCreateReadList('r', [bookId('Saga', '1')]) });
    expect(taken.status).toBe(400);
    expect((await komga(`/api/v1/readlists/${crypto.randomUUID()}`, { auth })).status).toBe(404);
  });
});

describe('Mihon’s collections, read lists and tracker', () => {
  it('browses a collection and read lists, reads a read list’s chapters in order, and tracks it', async () => {
    const { admin } = await komgaLibrary();
    const { seriesId, bookId } = await catalog(admin.auth);
    const auth = admin.auth;
    const [b1, b2, b3, s1] = [
      bookId('Berserk', '1'),
      bookId('Berserk', '2'),
      bookId('Berserk', '3'),
      bookId('Saga', '1'),
    ];
    const collection = (
      await komga('/api/v1/collections', {
        auth,
        json: komeliaCreateCollection('Picks', [seriesId('Saga'), seriesId('Berserk')]),
      })
    ).body;
    const list = (await komga('/api/v1/readlists', { auth, json: komeliaCreateReadList('Event', [b3, s1, b1, b2]) }))
      .body;
    const mihon = new KtorSession(selfTransport({ auth }));
    const decode = async <T extends z.ZodType>(name: string, path: string, schema: T) =>
      decodeKotlinx(schema, await mihon.send(name, { method: 'GET', path }), name);

    const options = await decode(
      'collection-filter-options',
      `/api/v1/collections?${step(MIHON_STEPS, 'collection-filter-options').query}`,
      MihonPageWrapper(MihonCollectionDto),
    );
    expect(options.content.map((c) => c.name)).toEqual(['Picks']);
    const series = await decode(
      'collection-series',
      mihonCollectionBrowse(collection.id),
      MihonPageWrapper(MihonSeriesDto),
    );
    expect(series.content.map((s) => s.id).sort()).toEqual([seriesId('Saga'), seriesId('Berserk')].sort());
    const lists = await decode(
      'readlists-browse',
      mihonBrowseRequest({ kind: 'readlists', page: 1, sort: { by: 'alphabetically', ascending: true } }),
      MihonPageWrapper(MihonReadListDto),
    );
    expect(lists.content.map((l) => l.name)).toEqual(['Event']);
    expect(lists.last).toBe(true);
    await decode('readlist-details', `/api/v1/readlists/${list.id}`, MihonReadListDto);
    const cover = await mihon.send('readlist-thumbnail', {
      method: 'GET',
      path: `/api/v1/readlists/${list.id}/thumbnail`,
    });
    expect(cover.headers.get('Content-Type')).toMatch(/^image\//);
    const chapters = await decode(
      'readlist-chapters',
      `/api/v1/readlists/${list.id}/books?${step(MIHON_STEPS, 'readlist-chapters').query}`,
      MihonPageWrapper(MihonBookDto),
    );
    expect(chapters.content.map((b) => b.id)).toEqual([b3, s1, b1, b2]);

    await decode('tracker-readlist', `/api/v1/readlists/${list.id}`, MihonTrackerReadListDto);
    const before = await decode(
      'tracker-readlist-progress',
      `/api/v1/readlists/${list.id}/read-progress/tachiyomi`,
      KomgaReadListTachiyomiProgressDto,
    );
    expect(before).toEqual({
      booksCount: 4,
      booksReadCount: 0,
      booksUnreadCount: 4,
      booksInProgressCount: 0,
      lastReadContinuousIndex: 0,
    });
    const put = await mihon.send('tracker-readlist-progress-put', {
      method: 'PUT',
      path: `/api/v1/readlists/${list.id}/read-progress/tachiyomi`,
      ...json({ lastBookRead: 2 }),
    });
    expect(put.status).toBe(204);
    const after = await decode(
      'tracker-readlist-progress',
      `/api/v1/readlists/${list.id}/read-progress/tachiyomi`,
      KomgaReadListTachiyomiProgressDto,
    );
    expect(after).toEqual({
      booksCount: 4,
      booksReadCount: 2,
      booksUnreadCount: 2,
      booksInProgressCount: 0,
      lastReadContinuousIndex: 2,
    });
    // The first two books of the list (not of a series) were marked read.
    expect((await komga(`/api/v1/books/${s1}`, { auth })).body.readProgress?.completed).toBe(true);
    expect((await komga(`/api/v1/books/${b1}`, { auth })).body.readProgress).toBeNull();
    expect(
      (
        await komga(`/api/v1/readlists/${list.id}/read-progress/tachiyomi`, {
          auth,
          method: 'PUT',
          json: { lastBookRead: -1 },
        })
      ).status,
    ).toBe(400);
  });
});

describe('ComicRack match and list events', () => {
  it('matches a reading list as Komga’s web UI asks, and refuses a bad file with Komga’s code', async () => {
    const { admin } = await komgaLibrary();
    const { bookId } = await catalog(admin.auth);
    const post = async (file: string) => {
      const form = new FormData();
      form.set('file', new File([file], 'list.cbl', { type: 'application/octet-stream' }));
      const response = await SELF.fetch('http://longbox.test/komga/api/v1/readlists/match/comicrack', {
        method: 'POST',
        headers: authHeaders(admin.auth),
        body: form,
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const matched = await post(
      writeCbl({
        name: 'Golden Age',
        books: [
          { series: 'Berserk', number: '002', volume: 1990 },
          { series: 'Saga', number: '1' },
          { series: 'Nope', number: '1' },
        ],
      }),
    );
    expect(matched.status).toBe(200);
    const dto = KomgaReadListRequestMatchDto.parse(matched.body);
    expect(dto.readListMatch).toEqual({ name: 'Golden Age', errorCode: '' });
    expect(dto.requests.map((r) => r.matches.flatMap((m) => m.books.map((b) => b.bookId)))).toEqual([
      [bookId('Berserk', '2')],
      [bookId('Saga', '1')],
      [],
    ]);
    expect(dto.requests[0]?.request).toEqual({ series: ['Berserk (1990)', 'Berserk'], number: '002' });
    // Nothing was created; a list of that name would be flagged.
    expect((await komga('/api/v1/readlists', { auth: admin.auth })).body.totalElements).toBe(0);
    await komga('/api/v1/readlists', {
      auth: admin.auth,
      json: komeliaCreateReadList('golden age', [bookId('Saga', '1')]),
    });
    expect(
      (await post(writeCbl({ name: 'Golden Age', books: [{ series: 'Saga', number: '1' }] }))).body.readListMatch
        .errorCode,
    ).toBe('ERR_1009');

    expect(await post('not xml at all <')).toMatchObject({ status: 400, body: { message: 'ERR_1015' } });
    expect(await post(writeCbl({ name: 'Empty', books: [] }))).toMatchObject({
      status: 400,
      body: { message: 'ERR_1029' },
    });
    expect(await post('<ReadingList><Books><Book Series="A" Number="1"/></Books></ReadingList>')).toMatchObject({
      status: 400,
      body: { message: 'ERR_1030' },
    });
    expect(await post('<ReadingList><Name>N</Name><Books><Book Series="A"/></Books></ReadingList>')).toMatchObject({
      status: 400,
      body: { message: 'ERR_1031' },
    });
  });

  it('sends Collection* and ReadList* events with every field komga-client requires', async () => {
    const { admin } = await komgaLibrary();
    const { seriesId, bookId } = await catalog(admin.auth);
    const events = await komgaEventStream(admin.auth);
    const waitFor = events.waitFor;
    const auth = admin.auth;
    const collection = (
      await komga('/api/v1/collections', { auth, json: komeliaCreateCollection('C', [seriesId('Saga')]) })
    ).body;
    expect(KomgaCollectionEvent.parse(await waitFor('CollectionAdded'))).toEqual({
      collectionId: collection.id,
      seriesIds: [seriesId('Saga')],
    });
    await komga(`/api/v1/collections/${collection.id}`, {
      auth,
      method: 'PATCH',
      json: { seriesIds: [seriesId('Berserk')] },
    });
    expect(KomgaCollectionEvent.parse(await waitFor('CollectionChanged'))).toEqual({
      collectionId: collection.id,
      seriesIds: [seriesId('Berserk')],
    });
    await komga(`/api/v1/collections/${collection.id}`, { auth, method: 'DELETE' });
    expect(KomgaCollectionEvent.parse(await waitFor('CollectionDeleted')).collectionId).toBe(collection.id);
    const list = (await komga('/api/v1/readlists', { auth, json: komeliaCreateReadList('L', [bookId('Saga', '1')]) }))
      .body;
    expect(KomgaReadListEvent.parse(await waitFor('ReadListAdded'))).toEqual({
      readListId: list.id,
      bookIds: [bookId('Saga', '1')],
    });
    await komga(`/api/v1/readlists/${list.id}`, { auth, method: 'DELETE' });
    expect(KomgaReadListEvent.parse(await waitFor('ReadListDeleted')).readListId).toBe(list.id);
    await events.close();
  });
});
