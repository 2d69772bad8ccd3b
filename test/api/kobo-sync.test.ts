/**
 * Kobo library sync (issue 34; DECISIONS.md §Kobo e-readers, sync): paging, what is sent again and what is not,
 * removals, shelves, tokens, and who sees what — a simulated device (test/support/kobo-device.ts) against
 * catalogs seeded straight into D1 (test/support/kobo-library.ts). Pages hold 100 items (the default).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { books, koboDeviceBooks } from '../../src/db/schema';
import { db, seedLibrary, seedProgress, softDeleteBook } from '../support/catalog-factory';
import { createApiKey, createUser, setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { KoboDevice } from '../support/kobo-device';
import { seedKoboBooks } from '../support/kobo-library';

const LIMIT = 100;

async function reader(admin: Credentials, libraries?: string[]) {
  const user = await createUser(admin, { role: 'reader' });
  if (libraries) {
    const put = await api(`/users/${user.id}`, { auth: admin, method: 'PUT', json: { sharedLibraryIds: libraries } });
    expect(put.status).toBe(200);
  }
  const auth: Credentials = { basic: user };
  const key = await createApiKey(auth, { name: `Kobo of ${user.username}` });
  return { user, auth, key };
}

/** An admin, a library of `count` Kobo books, and a new reader's Kobo (its own key) that has not synced yet. */
async function readerDevice(count: number) {
  const { auth: admin } = await setupAdmin();
  const library = await seedLibrary();
  const ids = await seedKoboBooks(library, count);
  const { user, auth, key } = await reader(admin);
  return { admin, ids, user, auth, key, device: new KoboDevice(key.key) };
}

const sorted = (ids: readonly string[]) => [...ids].sort();

describe('Kobo sync: pages', () => {
  it('a library of exactly one page comes in one page, without continue; an unchanged library then sends nothing', async () => {
    const { ids, device } = await readerDevice(LIMIT);
    await device.connect();
    const run = await device.sync();
    expect(run.pages.length).toBe(1);
    expect(sorted(run.sent)).toEqual(sorted(ids));
    expect(device.books.size).toBe(LIMIT);

    const again = await device.sync();
    expect(again.pages).toEqual([[]]);
  });

  it('a library one book larger than a page comes in two pages, no book twice', async () => {
    const { ids, device } = await readerDevice(LIMIT + 1);
    const run = await device.sync();
    expect(run.pages.map((page) => page.length)).toEqual([LIMIT, 1]);
    expect(new Set(run.sent).size).toBe(run.sent.length);
    expect(sorted(run.sent)).toEqual(sorted(ids));
  });

  it('a page the device never got is sent again: its token names where it was', async () => {
    const { ids, device } = await readerDevice(LIMIT + 20);
    const first = await device.syncPage();
    expect(first.more).toBe(true);
    const afterFirst = device.token;
    const lost = await device.syncPage();
    expect(lost.items.length).toBe(20);
    // The answer never reached the device: it asks again with the token it had.
    device.token = afterFirst;
    const retried = await device.syncPage();
    expect(retried.items.map((i) => ('NewEntitlement' in i ? i.NewEntitlement.BookEntitlement.Id : ''))).toEqual(
      lost.items.map((i) => ('NewEntitlement' in i ? i.NewEntitlement.BookEntitlement.Id : '')),
    );
    expect(retried.more).toBe(false);
    expect(device.books.size).toBe(ids.length);
    expect((await device.sync()).pages).toEqual([[]]);
  });
});

describe('Kobo sync: a reading state on a page the device never got', () => {
  it('is sent again: the book comes once more, with the state', async () => {
    const { ids, user, device } = await readerDevice(6);
    await device.sync();
    const comic = ids[1] as string; // a CBZ
    await seedProgress(user.id, comic, { currentPage: 3 });
    const before = device.token;
    const lost = await device.syncPage();
    expect(lost.items.map((item) => Object.keys(item)[0])).toEqual(['ChangedReadingState']);
    // The answer never reached the device: it asks again with the token it had, and gets the book with its state.
    device.token = before;
    device.books.get(comic)!.state = undefined;
    const retried = await device.syncPage();
    const entitlement = retried.items.find((item) => 'NewEntitlement' in item);
    expect(entitlement && 'NewEntitlement' in entitlement && entitlement.NewEntitlement.BookEntitlement.Id).toBe(comic);
    expect(device.books.get(comic)?.state?.StatusInfo.Status).toBe('Reading');
    expect((await device.sync()).pages).toEqual([[]]);
  });
});

describe('Kobo sync: a page holds every kind', () => {
  it('books, removals, states and shelves past one page: the rest comes on the next, nothing twice, nothing lost', async () => {
    const { admin, ids, user, device } = await readerDevice(110);
    await device.sync();
    // 95 books changed, 3 gone, 4 reading states moved elsewhere, 2 new shelves: 104 items for pages of 100. The
    // page records what it sends in the same batch (KoboSyncRepository.syncPage): what it recorded and did not send
    // would be lost, and what it sent and did not record would come again.
    const [changed, gone, read, shelved] = [ids.slice(0, 95), ids.slice(95, 98), ids.slice(98, 102), ids.slice(102)];
    const later = new Date(Date.now() + 60_000).toISOString();
    await db.update(books).set({ updatedAt: later }).where(inArray(books.id, changed));
    for (const id of gone) await softDeleteBook(id);
    for (const id of read) await seedProgress(user.id, id, { currentPage: 2 });
    const shelves = [];
    for (const name of ['Commute', 'Weekend']) {
      shelves.push((await api('/readlists', { auth: admin, json: { name, bookIds: shelved } })).body.id as string);
    }

    const run = await device.sync();
    expect(run.pages).toHaveLength(2);
    expect(sorted(run.sent)).toEqual(sorted(changed));
    expect(sorted(run.removed)).toEqual(sorted(gone));
    expect(sorted(run.states)).toEqual(sorted(read));
    expect(sorted(run.tags.created)).toEqual(sorted(shelves));
    expect((await device.sync()).pages).toEqual([[]]);
  });
});

describe('Kobo sync: changes', () => {
  it('sends again only the books that changed, with their new metadata; a removed book is removed from the device', async () => {
    const { admin, ids, device } = await readerDevice(30);
    await device.sync();
    const [edited, gone] = [ids[4] as string, ids[7] as string];
    const patch = await api(`/books/${edited}/metadata`, { method: 'PATCH', auth: admin, json: { title: 'Renamed' } });
    expect(patch.status).toBe(200);
    await softDeleteBook(gone);

    const run = await device.sync();
    expect(run.sent).toEqual([edited]);
    expect(run.removed).toEqual([gone]);
    const item = run.pages[0]?.find((i) => 'ChangedProductMetadata' in i);
    expect(item && 'ChangedProductMetadata' in item && item.ChangedProductMetadata.Title).toBe('Renamed');
    expect(device.books.get(edited)?.metadata.Title).toBe('Renamed');
    expect(device.books.has(gone)).toBe(false);
    expect(device.books.size).toBe(29);
    expect((await device.sync()).pages).toEqual([[]]);
  });

  it('a book on two shelves is sent once and listed by both; shelves renamed, emptied and deleted follow', async () => {
    const { auth: admin } = await setupAdmin();
    const library = await seedLibrary();
    const ids = await seedKoboBooks(library, 6);
    const [a, b, c] = ids as [string, string, string];
    const created = async (name: string, bookIds: string[]) =>
      (await api('/readlists', { auth: admin, json: { name, bookIds } })).body.id as string;
    const morning = await created('Morning', [a, b]);
    const evening = await created('Evening', [b, c]);
    const { key } = await reader(admin);
    const device = new KoboDevice(key.key);
    const run = await device.sync();
    expect(run.sent.filter((id) => id === b)).toHaveLength(1);
    expect(sorted(run.tags.created)).toEqual(sorted([morning, evening]));
    expect(device.tags.get(morning)).toEqual({ name: 'Morning', items: [a, b] });
    expect(device.tags.get(evening)).toEqual({ name: 'Evening', items: [b, c] });

    await api(`/readlists/${morning}`, { method: 'PATCH', auth: admin, json: { name: 'Dawn' } });
    await api(`/readlists/${evening}`, { method: 'DELETE', auth: admin });
    const next = await device.sync();
    expect(next.sent).toEqual([]);
    expect(next.tags).toEqual({ created: [], changed: [morning], deleted: [evening] });
    expect([...device.tags.values()]).toEqual([{ name: 'Dawn', items: [a, b] }]);
    expect((await device.sync()).pages).toEqual([[]]);
  });

  it('only the chosen shelves sync when the user picks some; a book leaving them leaves the device', async () => {
    const { auth: admin } = await setupAdmin();
    const library = await seedLibrary();
    const ids = await seedKoboBooks(library, 12);
    const chosen = (await api('/readlists', { auth: admin, json: { name: 'Holiday', bookIds: ids.slice(0, 3) } })).body
      .id as string;
    await api('/readlists', { auth: admin, json: { name: 'Other', bookIds: ids.slice(5, 7) } });
    const { auth, key } = await reader(admin);
    const bad = await api('/user/preferences/kobo.shelves', {
      method: 'PUT',
      auth,
      json: { value: { readListIds: ['not-a-list'] } },
    });
    expect(bad.status).toBe(400);
    const set = await api('/user/preferences/kobo.shelves', {
      method: 'PUT',
      auth,
      json: { value: { readListIds: [chosen] } },
    });
    expect(set.status).toBe(200);
    const device = new KoboDevice(key.key);
    const run = await device.sync();
    expect(sorted(run.sent)).toEqual(sorted(ids.slice(0, 3)));
    expect(run.tags.created).toEqual([chosen]);

    await api(`/readlists/${chosen}/books`, { method: 'PUT', auth: admin, json: { bookIds: ids.slice(0, 2) } });
    const next = await device.sync();
    expect(next.removed).toEqual([ids[2]]);
    expect(next.tags.changed).toEqual([chosen]);
    expect(sorted([...device.books.keys()])).toEqual(sorted(ids.slice(0, 2)));
  });
});

describe('Kobo sync: tokens and keys', () => {
  it('a token that is garbage, or another key’s, gets a full sync, not an error', async () => {
    const { admin, ids, device } = await readerDevice(5);
    const { key: otherKey } = await reader(admin);
    await device.sync();
    const other = new KoboDevice(otherKey.key);
    await other.sync();

    for (const token of ['garbage', 'LBX1.e30.AAAA', other.token as string, 'eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ']) {
      device.token = token;
      const run = await device.sync();
      expect(sorted(run.sent)).toEqual(sorted(ids));
    }
  });

  it('an unknown, malformed, expired or revoked key gets 401 and nothing else; a key revoked mid-sync stops the device', async () => {
    const { auth, key, device } = await readerDevice(LIMIT + 5);
    const first = await device.syncPage();
    expect(first.more).toBe(true);
    expect((await api(`/api-keys/${key.id}`, { method: 'DELETE', auth })).status).toBe(204);
    const refused = await device.syncPage();
    expect(refused.status).toBe(401);
    const body = JSON.parse(refused.text);
    expect(body).toEqual({
      error: 'Unauthorized',
      message: 'This Kobo sync URL is not valid: its API key is unknown, revoked or expired',
      details: null,
    });
    // The device's rows went with its key.
    expect(await db.select().from(koboDeviceBooks).where(eq(koboDeviceBooks.apiKeyId, key.id))).toEqual([]);

    const expired = await createApiKey(auth, { name: 'old', expires_at: new Date(Date.now() + 1500).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 1600));
    for (const bad of [`lbx_aaaaaaaa_${'x'.repeat(43)}`, 'not-a-key', key.key, expired.key]) {
      for (const path of [
        '/v1/library/sync',
        '/v1/initialization',
        '/v1/user/profile',
        `/v1/library/${crypto.randomUUID()}/metadata`,
      ]) {
        const response = await new KoboDevice(bad).json('GET', path);
        expect(response.status, `${bad} ${path}`).toBe(401);
        expect(response.body).toEqual(body);
      }
    }
  });

  it('two devices of one user keep their own place, and each gets the other’s reading state', async () => {
    const { auth: admin } = await setupAdmin();
    const library = await seedLibrary();
    const ids = await seedKoboBooks(library, 9);
    const user = await createUser(admin, { role: 'reader' });
    const auth: Credentials = { basic: user };
    const [libra, clara] = [
      new KoboDevice((await createApiKey(auth, { name: 'Libra' })).key),
      new KoboDevice((await createApiKey(auth, { name: 'Clara' })).key),
    ];
    await libra.sync();
    await clara.sync();
    const comic = ids[1] as string; // a CBZ
    const put = await libra.putState(comic, {
      status: 'Reading',
      progressPercent: 50,
      location: { Value: null, Type: 'KoboSpan', Source: 'OEBPS/page-0002.xhtml' },
    });
    expect(put.status).toBe(200);
    // The writer does not get its own state back; the other device does.
    expect((await libra.sync()).states).toEqual([]);
    const run = await clara.sync();
    expect(run.states).toEqual([comic]);
    const state = clara.books.get(comic)?.state;
    expect(state?.StatusInfo.Status).toBe('Reading');
    expect(state?.CurrentBookmark.Location?.Source).toBe('OEBPS/page-0002.xhtml');
    expect((await clara.sync()).states).toEqual([]);
    // Marked unread in the web app: both devices hear of it.
    await api(`/books/${comic}/progress`, { method: 'DELETE', auth });
    expect((await libra.sync()).states).toEqual([comic]);
    expect(libra.books.get(comic)?.state?.StatusInfo.Status).toBe('ReadyToRead');
  });
});

describe('Kobo sync: the Done-when library (issue 34)', () => {
  it('syncs 1,000 books in pages; progress both ways; a restricted user’s device never receives a hidden book', async () => {
    const { auth: admin } = await setupAdmin();
    const shared = await seedLibrary({ name: 'Shared' });
    const hidden = await seedLibrary({ name: 'Private' });
    const ids = await seedKoboBooks(shared, 1000, 'Shared');
    const secret = await seedKoboBooks(hidden, 30, 'Private');
    const { auth, key, user } = await reader(admin, [shared.id]);
    const device = new KoboDevice(key.key);
    await device.connect();
    const run = await device.sync();
    expect(run.pages.length).toBe(10);
    expect(run.sent.length).toBe(1000);
    expect(sorted(run.sent)).toEqual(sorted(ids));
    for (const id of secret) expect(device.books.has(id)).toBe(false);

    // Progress pushed by the device shows in the API; progress written through the API reaches the device.
    const epub = ids[0] as string;
    const comic = ids[1] as string;
    const pushed = await device.putState(epub, {
      status: 'Reading',
      progressPercent: 42,
      contentSourceProgressPercent: 10,
      location: { Value: 'kobo.12.3', Type: 'KoboSpan', Source: 'OEBPS/Text/chapter003.xhtml' },
    });
    expect(pushed.status).toBe(200);
    const shown = await api(`/books/${epub}/progress`, { auth });
    expect(shown.body).toMatchObject({ completed: false, progressPercentage: 0.42 });
    await api(`/books/${comic}/read`, { method: 'POST', auth });
    const next = await device.sync();
    expect(next.states).toEqual([comic]);
    expect(device.books.get(comic)?.state?.StatusInfo.Status).toBe('Finished');
    // The device's own write comes back as it was sent (Readium locator with the Kobo span) when another device asks.
    const other = new KoboDevice((await createApiKey(auth, { name: 'Second Kobo' })).key);
    await other.sync();
    expect(other.books.get(epub)?.state?.CurrentBookmark).toMatchObject({
      ProgressPercent: 42,
      ContentSourceProgressPercent: 10,
      Location: { Value: 'kobo.12.3', Type: 'KoboSpan', Source: 'OEBPS/Text/chapter003.xhtml' },
    });

    // A hidden book's state cannot be written, nor its metadata read: as unknown.
    const put = await device.putState(secret[0] as string, { status: 'Finished' });
    expect(put.status).toBe(404);
    const unknown = await device.putState(crypto.randomUUID(), { status: 'Finished' });
    expect(unknown.status).toBe(404);
    expect(
      (
        await db
          .select()
          .from(koboDeviceBooks)
          .where(and(eq(koboDeviceBooks.apiKeyId, key.id)))
      ).length,
    ).toBe(1000);
    await seedProgress(user.id, secret[1] as string, { completed: true });
    expect((await device.sync()).states).toEqual([]);
  }, 240_000);
});
