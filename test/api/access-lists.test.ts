/**
 * Collections, read lists and want-to-read seen by a restricted reader (issues 17 and 19; docs/DECISIONS.md
 * §Organise and share): a list shows only the members its reader may see — items, counts and cover — a list of
 * hidden items only is an unknown one (404, and missing from every list page: /api/v1, /komga, OPDS), and
 * queued items the reader may no longer see are left out of the queue. The fixture: test/support/access-fixture.ts
 * (the restricted user sees Xteen, Xunrated and Xgamma; Xadult, Xsecret and Xbeta are hidden from them).
 */
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { wantToRead } from '../../src/db/schema';
import { png } from '../fixtures/images';
import { type AccessFixture, buildAccessFixture } from '../support/access-fixture';
import { db } from '../support/catalog-factory';
import { api, type Credentials } from '../support/http';
import { entries, textOf } from '../support/opds';

const form = (bytes: Uint8Array) => {
  const data = new FormData();
  data.append('file', new Blob([bytes]), 'cover.png');
  return data;
};

async function fetchWith(auth: Credentials, path: string) {
  const headers: Record<string, string> = auth && 'apiKey' in auth ? { 'X-API-Key': auth.apiKey } : {};
  if (auth && 'token' in auth) headers.Authorization = `Bearer ${auth.token}`;
  const response = await SELF.fetch(`http://longbox.test${path}`, { headers });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const text = async (auth: Credentials, path: string) => {
  const { status, bytes } = await fetchWith(auth, path);
  return { status, text: new TextDecoder().decode(bytes) };
};

/** The lists: mixed ones led by a hidden member, and ones made of hidden members only. */
async function seedLists(fixture: AccessFixture) {
  const s = fixture.series;
  const auth = fixture.admin;
  const created = async (path: string, json: unknown) => {
    const response = await api(path, { method: 'POST', auth, json });
    expect(response.status, response.text).toBe(201);
    return response.body.id as string;
  };
  // Xadult's own cover, so a list whose cover came from it would show it.
  const cover = await api(`/series/${s.xadult.seriesId}/cover`, { method: 'POST', auth, body: form(png(90, 130, 3)) });
  expect(cover.status, cover.text).toBe(200);
  const bookCover = await api(`/books/${s.xadult.bookIds[0]}/cover`, {
    method: 'POST',
    auth,
    body: form(png(90, 130, 5)),
  });
  expect(bookCover.status, bookCover.text).toBe(200);
  return {
    mixedCollection: await created('/collections', {
      name: 'Shelf',
      ordered: true,
      seriesIds: [s.xadult.seriesId, s.xteen.seriesId, s.xsecret.seriesId, s.xgamma.seriesId],
    }),
    hiddenCollection: await created('/collections', {
      name: 'Grown-ups',
      seriesIds: [s.xadult.seriesId, s.xbeta.seriesId],
    }),
    mixedReadList: await created('/readlists', {
      name: 'Reading order',
      ordered: true,
      bookIds: [s.xadult.bookIds[0], s.xteen.bookIds[0], s.xsecret.bookIds[0], s.xteen.bookIds[1]],
    }),
    hiddenReadList: await created('/readlists', {
      name: 'Late night',
      bookIds: [s.xadult.bookIds[0], s.xbeta.bookIds[0]],
    }),
  };
}

describe('lists seen by a restricted reader', () => {
  it('shows a collection and a read list without their hidden members: items, counts and cover', async () => {
    const fixture = await buildAccessFixture();
    const lists = await seedLists(fixture);
    const s = fixture.series;
    const user: Credentials = { apiKey: fixture.userKey };

    const collection = await api(`/collections/${lists.mixedCollection}`, { auth: user });
    expect(collection.status).toBe(200);
    expect(collection.body).toMatchObject({ seriesCount: 2, filtered: true });
    expect((await api(`/collections/${lists.mixedCollection}`, { auth: fixture.admin })).body).toMatchObject({
      seriesCount: 4,
      filtered: false,
    });
    const members = await api(`/collections/${lists.mixedCollection}/series`, { auth: user });
    expect(members.body.data.map((m: { id: string }) => m.id)).toEqual([s.xteen.seriesId, s.xgamma.seriesId]);
    expect(members.text).not.toMatch(/xadult|xsecret/i);

    const readList = await api(`/readlists/${lists.mixedReadList}`, { auth: user });
    expect(readList.body).toMatchObject({ bookCount: 2, filtered: true });
    const books = await api(`/readlists/${lists.mixedReadList}/books`, { auth: user });
    expect(books.body.data.map((b: { id: string }) => b.id)).toEqual([s.xteen.bookIds[0], s.xteen.bookIds[1]]);
    // Stepping through the list skips the hidden book between the two visible ones, and a hidden book of the
    // list answers as one that is not in it.
    const next = await api(`/readlists/${lists.mixedReadList}/books/${s.xteen.bookIds[0]}/next`, { auth: user });
    expect(next.body.id).toBe(s.xteen.bookIds[1]);
    const fromHidden = await api(`/readlists/${lists.mixedReadList}/books/${s.xadult.bookIds[0]}/next`, {
      auth: user,
    });
    const fromUnknown = await api(`/readlists/${lists.mixedReadList}/books/${crypto.randomUUID()}/next`, {
      auth: user,
    });
    expect([fromHidden.status, fromHidden.text]).toEqual([fromUnknown.status, fromUnknown.text]);
    expect(fromHidden.status).toBe(404);

    // Writing through a list: a hidden member answers as one that is not in it, and keeps its place when the
    // reader sets the members they see.
    for (const [path, hiddenId] of [
      [`/collections/${lists.mixedCollection}/series`, s.xadult.seriesId],
      [`/readlists/${lists.mixedReadList}/books`, s.xadult.bookIds[0] as string],
    ] as const) {
      const removeHidden = await api(`${path}/${hiddenId}`, { method: 'DELETE', auth: user });
      const removeUnknown = await api(`${path}/${crypto.randomUUID()}`, { method: 'DELETE', auth: user });
      expect([removeHidden.status, removeHidden.text], path).toEqual([removeUnknown.status, removeUnknown.text]);
      expect(removeHidden.status, path).toBe(404);
      const field = path.endsWith('series') ? 'seriesIds' : 'bookIds';
      const addHidden = await api(path, { method: 'POST', auth: user, json: { [field]: [hiddenId] } });
      expect(addHidden.status, path).toBe(400);
    }
    const replaced = await api(`/collections/${lists.mixedCollection}/series`, {
      method: 'PUT',
      auth: user,
      json: { seriesIds: [s.xgamma.seriesId] },
    });
    expect(replaced.status, replaced.text).toBe(204);
    const afterReplace = await api(`/collections/${lists.mixedCollection}/series`, { auth: fixture.admin });
    expect(afterReplace.body.data.map((m: { id: string }) => m.id)).toEqual([
      s.xadult.seriesId,
      s.xgamma.seriesId,
      s.xsecret.seriesId,
    ]);

    // Komga: the ids a client pages through are the visible ones only.
    const komgaCollection = JSON.parse(
      (await text(user, `/komga/api/v1/collections/${lists.mixedCollection}`)).text,
    ) as { seriesIds: string[]; filtered: boolean };
    expect(komgaCollection).toMatchObject({ seriesIds: [s.xgamma.seriesId], filtered: true });
    const komgaReadList = JSON.parse((await text(user, `/komga/api/v1/readlists/${lists.mixedReadList}`)).text) as {
      bookIds: string[];
    };
    expect(komgaReadList.bookIds).toEqual([s.xteen.bookIds[0], s.xteen.bookIds[1]]);

    // The cover: the admin's comes from the first member (Xadult's uploaded cover); the reader's from the first
    // one they see (Xteen's).
    const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);
    const adultCover = await fetchWith(fixture.admin, `/api/v1/series/${s.xadult.seriesId}/thumbnail`);
    const teenCover = await fetchWith(fixture.admin, `/api/v1/series/${s.xteen.seriesId}/thumbnail`);
    expect(same(adultCover.bytes, teenCover.bytes)).toBe(false);
    for (const path of [
      `/api/v1/collections/${lists.mixedCollection}/thumbnail`,
      `/komga/api/v1/collections/${lists.mixedCollection}/thumbnail`,
    ]) {
      const admins = await fetchWith(fixture.admin, path);
      const users = await fetchWith(user, path);
      expect([admins.status, users.status], path).toEqual([200, 200]);
      expect(same(admins.bytes, adultCover.bytes), path).toBe(true);
      expect(same(users.bytes, adultCover.bytes), path).toBe(false);
    }
    const adultBookCover = await fetchWith(fixture.admin, `/api/v1/books/${s.xadult.bookIds[0]}/thumbnail`);
    for (const path of [
      `/api/v1/readlists/${lists.mixedReadList}/thumbnail`,
      `/komga/api/v1/readlists/${lists.mixedReadList}/thumbnail`,
    ]) {
      const users = await fetchWith(user, path);
      expect(users.status, path).toBe(200);
      expect(same(users.bytes, adultBookCover.bytes), path).toBe(false);
    }
  }, 120_000);

  it('leaves the hidden members of a visible list out of /komga and OPDS: entries, counts and navigation', async () => {
    const fixture = await buildAccessFixture();
    const lists = await seedLists(fixture);
    const s = fixture.series;
    const user: Credentials = { apiKey: fixture.userKey };
    const hidden = /xadult|xsecret/i;
    const ids = (page: { content: Array<{ id: string }> }) => page.content.map((item) => item.id);
    const json = async (auth: Credentials, path: string) => {
      const { status, text: body } = await text(auth, path);
      expect(status, `${path}: ${body}`).toBe(200);
      return { body: JSON.parse(body), text: body };
    };

    // Komga: a collection's series and a read list's books, whole and paged one at a time (the page count is
    // the visible members'), as Mihon and Komelia page through them.
    const seriesPath = `/komga/api/v1/collections/${lists.mixedCollection}/series`;
    const adminSeries = await json(fixture.admin, seriesPath);
    expect(adminSeries.body.totalElements).toBe(4);
    const userSeries = await json(user, seriesPath);
    expect(ids(userSeries.body)).toEqual([s.xteen.seriesId, s.xgamma.seriesId]);
    expect(userSeries.body).toMatchObject({ totalElements: 2, totalPages: 1 });
    expect(userSeries.text).not.toMatch(hidden);
    const secondSeries = await json(user, `${seriesPath}?page=1&size=1`);
    expect(ids(secondSeries.body)).toEqual([s.xgamma.seriesId]);
    expect(secondSeries.body).toMatchObject({ totalElements: 2, totalPages: 2, last: true });

    const booksPath = `/komga/api/v1/readlists/${lists.mixedReadList}/books`;
    expect((await json(fixture.admin, booksPath)).body.totalElements).toBe(4);
    const userBooks = await json(user, booksPath);
    expect(ids(userBooks.body)).toEqual([s.xteen.bookIds[0], s.xteen.bookIds[1]]);
    expect(userBooks.body).toMatchObject({ totalElements: 2, totalPages: 1 });
    expect(userBooks.text).not.toMatch(hidden);
    const secondBook = await json(user, `${booksPath}?page=1&size=1`);
    expect(ids(secondBook.body)).toEqual([s.xteen.bookIds[1]]);
    expect(secondBook.body).toMatchObject({ totalElements: 2, totalPages: 2 });

    // Komga's previous/next book of a read list step over hidden books: the admin goes Xadult → Xteen 1 → Xsecret
    // → Xteen 2, the reader Xteen 1 → Xteen 2 and no further either way; a hidden book answers as an unknown one.
    const step = (auth: Credentials, bookId: string | undefined, direction: 'next' | 'previous') =>
      text(auth, `/komga/api/v1/readlists/${lists.mixedReadList}/books/${bookId}/${direction}`);
    const idOf = (answer: { status: number; text: string }) =>
      answer.status === 200 ? (JSON.parse(answer.text) as { id: string }).id : answer.status;
    expect(idOf(await step(fixture.admin, s.xteen.bookIds[0], 'next'))).toBe(s.xsecret.bookIds[0]);
    expect(idOf(await step(fixture.admin, s.xteen.bookIds[0], 'previous'))).toBe(s.xadult.bookIds[0]);
    expect(idOf(await step(user, s.xteen.bookIds[0], 'next'))).toBe(s.xteen.bookIds[1]);
    expect(idOf(await step(user, s.xteen.bookIds[1], 'previous'))).toBe(s.xteen.bookIds[0]);
    expect(idOf(await step(user, s.xteen.bookIds[0], 'previous'))).toBe(404);
    expect(idOf(await step(user, s.xteen.bookIds[1], 'next'))).toBe(404);
    const unknownBook = crypto.randomUUID();
    const fromHidden = await step(user, s.xsecret.bookIds[0], 'next');
    const fromUnknown = await step(user, unknownBook, 'next');
    expect(fromHidden.status).toBe(404);
    const scrub = (body: string, id: string) => body.replace(/"timestamp":"[^"]*"/, '').replaceAll(id, '<id>');
    expect(scrub(fromHidden.text, s.xsecret.bookIds[0] as string)).toBe(scrub(fromUnknown.text, unknownBook));

    // Mihon's tracker over the read list counts the visible books only.
    const tracker = await json(user, `/komga/api/v1/readlists/${lists.mixedReadList}/read-progress/tachiyomi`);
    expect(tracker.body).toMatchObject({ booksCount: 2, booksUnreadCount: 2 });
    expect(
      (await json(fixture.admin, `/komga/api/v1/readlists/${lists.mixedReadList}/read-progress/tachiyomi`)).body,
    ).toMatchObject({ booksCount: 4 });

    // The lists a visible member belongs to name only visible members too.
    const ofSeries = await json(user, `/komga/api/v1/series/${s.xteen.seriesId}/collections`);
    expect(ofSeries.body).toMatchObject([
      { id: lists.mixedCollection, seriesIds: [s.xteen.seriesId, s.xgamma.seriesId] },
    ]);
    const ofBook = await json(user, `/komga/api/v1/books/${s.xteen.bookIds[0]}/readlists`);
    expect(ofBook.body).toMatchObject([{ id: lists.mixedReadList, bookIds: [s.xteen.bookIds[0], s.xteen.bookIds[1]] }]);
    for (const path of [
      `/komga/api/v1/series/${s.xadult.seriesId}/collections`,
      `/komga/api/v1/books/${s.xadult.bookIds[0]}/readlists`,
    ]) {
      expect((await text(user, path)).status, path).toBe(404);
    }

    // OPDS 1.2: the feed's entries and its total are the visible members', paged as the reader pages.
    const atomCollection = await text(user, `/opds/v1.2/collections/${lists.mixedCollection}`);
    expect(atomCollection.status).toBe(200);
    expect(entries(atomCollection.text).map((entry) => textOf(entry, 'title'))).toEqual(['Zork Xteen', 'Zork Xgamma']);
    expect(textOf(atomCollection.text, 'opensearch:totalResults')).toBe('2');
    expect(atomCollection.text).not.toMatch(hidden);
    const adminAtom = await text(fixture.admin, `/opds/v1.2/collections/${lists.mixedCollection}`);
    expect(textOf(adminAtom.text, 'opensearch:totalResults')).toBe('4');
    const atomReadList = await text(user, `/opds/v1.2/readlists/${lists.mixedReadList}`);
    expect(atomReadList.status).toBe(200);
    expect(entries(atomReadList.text)).toHaveLength(2);
    expect(entries(atomReadList.text).every((entry) => /xteen/i.test(entry))).toBe(true);
    expect(textOf(atomReadList.text, 'opensearch:totalResults')).toBe('2');
    expect(atomReadList.text).not.toMatch(hidden);
    const atomPaged = await text(user, `/opds/v1.2/readlists/${lists.mixedReadList}?page=2&pageSize=1`);
    expect(textOf(atomPaged.text, 'opensearch:totalResults')).toBe('2');
    expect(entries(atomPaged.text)).toHaveLength(1);
    expect(atomPaged.text).toContain(s.xteen.bookIds[1]);

    // OPDS 2.0: the same, as `navigation`/`publications` and `metadata.numberOfItems`.
    const feedCollection = await json(user, `/opds/v2.0/collections/${lists.mixedCollection}`);
    const listed = [...(feedCollection.body.navigation ?? []), ...(feedCollection.body.publications ?? [])];
    expect(
      listed.map((item: { title?: string; metadata?: { title: string } }) => item.title ?? item.metadata?.title),
    ).toEqual(['Zork Xteen', 'Zork Xgamma']);
    expect(feedCollection.body.metadata.numberOfItems).toBe(2);
    expect(feedCollection.text).not.toMatch(hidden);
    expect(
      (await json(fixture.admin, `/opds/v2.0/collections/${lists.mixedCollection}`)).body.metadata.numberOfItems,
    ).toBe(4);
    const feedReadList = await json(user, `/opds/v2.0/readlists/${lists.mixedReadList}`);
    expect(feedReadList.body.publications).toHaveLength(2);
    expect(feedReadList.body.metadata.numberOfItems).toBe(2);
    expect(feedReadList.text).toMatch(/xteen/i);
    expect(feedReadList.text).not.toMatch(hidden);
  }, 120_000);

  it('answers a list of hidden members only as an unknown one, and leaves it out of every list page', async () => {
    const fixture = await buildAccessFixture();
    const lists = await seedLists(fixture);
    const user: Credentials = { apiKey: fixture.userKey };
    const unknown = crypto.randomUUID();

    for (const [kind, id] of [
      ['collections', lists.hiddenCollection],
      ['readlists', lists.hiddenReadList],
    ] as const) {
      for (const path of [`/api/v1/${kind}/${id}`, `/komga/api/v1/${kind}/${id}`, `/opds/v1.2/${kind}/${id}`]) {
        expect((await text(fixture.admin, path)).status, path).toBe(200);
        const hidden = await text(user, path);
        const missing = await text(user, path.replace(id, unknown));
        expect(hidden.status, path).toBe(404);
        expect(hidden.text.replaceAll(id, '<id>').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, '')).toBe(
          missing.text.replaceAll(unknown, '<id>').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, ''),
        );
      }
    }

    const pages = [
      '/api/v1/collections',
      '/api/v1/readlists',
      '/komga/api/v1/collections',
      '/komga/api/v1/readlists',
      '/opds/v1.2/collections',
      '/opds/v1.2/readlists',
      '/opds/v2.0/collections',
      '/opds/v2.0/readlists',
    ];
    for (const path of pages) {
      const admins = await text(fixture.admin, path);
      const users = await text(user, path);
      const hiddenId = path.includes('collections') ? lists.hiddenCollection : lists.hiddenReadList;
      const shownId = path.includes('collections') ? lists.mixedCollection : lists.mixedReadList;
      expect(admins.text, path).toContain(hiddenId);
      expect(users.status, path).toBe(200);
      expect(users.text, path).toContain(shownId);
      expect(users.text, path).not.toContain(hiddenId);
      expect(users.text, path).not.toMatch(/Grown-ups|Late night/);
    }
    // The counts of the page: two collections and two read lists for the admin, one of each for the reader.
    expect((await api('/collections', { auth: user })).body.total).toBe(1);
    expect((await api('/readlists', { auth: user })).body.total).toBe(1);
    expect((await api('/collections', { auth: fixture.admin })).body.total).toBe(2);
  }, 120_000);

  it('leaves queued items the reader may no longer see out of their want-to-read queue', async () => {
    const fixture = await buildAccessFixture();
    const s = fixture.series;
    const user: Credentials = { apiKey: fixture.userKey };
    // Queued before the restriction took them away (written straight into D1, as the fixture's restriction is).
    const now = new Date().toISOString();
    await db.insert(wantToRead).values([
      { userId: fixture.user.id, seriesId: s.xadult.seriesId, addedAt: now, position: 0 },
      { userId: fixture.user.id, seriesId: s.xteen.seriesId, addedAt: now, position: 1 },
      { userId: fixture.user.id, bookId: s.xbeta.bookIds[0], addedAt: now, position: 2 },
      { userId: fixture.user.id, bookId: s.xgamma.bookIds[0], addedAt: now, position: 3 },
    ]);

    const queue = await api('/want-to-read', { auth: user });
    expect(queue.status).toBe(200);
    expect(queue.body.data.map((e: { id: string }) => e.id)).toEqual([s.xteen.seriesId, s.xgamma.bookIds[0]]);
    expect(queue.body.total).toBe(2);
    expect(queue.text).not.toMatch(/xadult|xbeta/i);
    for (const path of ['/opds/v1.2/want-to-read', '/opds/v2.0/want-to-read']) {
      const feed = await text(user, path);
      expect(feed.status, path).toBe(200);
      expect(feed.text, path).toMatch(/xteen/i);
      expect(feed.text, path).not.toMatch(/xadult|xbeta/i);
    }

    // A hidden entry cannot be named: not removed, not reordered — as if it were not queued; it stays queued,
    // and shows again when the restriction is lifted.
    const removeHidden = await api(`/want-to-read/series/${s.xadult.seriesId}`, { method: 'DELETE', auth: user });
    const removeUnknown = await api(`/want-to-read/series/${crypto.randomUUID()}`, { method: 'DELETE', auth: user });
    expect([removeHidden.status, removeHidden.text]).toEqual([404, removeUnknown.text]);
    const reorder = await api('/want-to-read/order', {
      method: 'PUT',
      auth: user,
      json: { ids: [s.xbeta.bookIds[0]] },
    });
    expect(reorder.status).toBe(400);
    expect(reorder.text).toContain(s.xbeta.bookIds[0]);
    const moved = await api('/want-to-read/order', { method: 'PUT', auth: user, json: { ids: [s.xgamma.bookIds[0]] } });
    expect(moved.status).toBe(204);
    const after = await api('/want-to-read', { auth: user });
    expect(after.body.data.map((e: { id: string }) => e.id)).toEqual([s.xgamma.bookIds[0], s.xteen.seriesId]);
    const kept = await db.select().from(wantToRead);
    expect(kept.filter((row) => row.userId === fixture.user.id)).toHaveLength(4);
  }, 120_000);
});
