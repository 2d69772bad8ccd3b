/**
 * What the hot paths cost in D1 statements (a request's calls counted through test/support/statements.ts),
 * and the access rule the caches behind them keep (docs/DECISIONS.md §Enforcement: a restricted viewer's page
 * of a hidden book is a 404, also the moment after it was served to them).
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookPages, books, seriesSharingLabels } from '../../src/db/schema';
import { buildAccessFixture } from '../support/access-fixture';
import { db, seedBook, seedLibrary, seedProgress, seedSeries, seedSeriesWithBooks } from '../support/catalog-factory';
import { ADMIN, setupAdmin } from '../support/factories';
import { api } from '../support/http';
import { komgaLibrary } from '../support/komga';
import { statementCounter } from '../support/statements';

/**
 * Credentials by Basic: the counting worker has an environment of its own, whose server secret is not the one
 * SELF may still hold from an earlier test, so SELF's session tokens and API keys need not verify there.
 */
const basic = (user: { username: string; password: string }) => ({
  Authorization: `Basic ${btoa(`${user.username}:${user.password}`)}`,
});
const ADMIN_BASIC = basic(ADMIN);

describe('page serving', () => {
  it('a restricted reader reads a book from the cached page table, one statement a page, and loses it the moment it is hidden', async () => {
    const f = await buildAccessFixture();
    const counter = statementCounter();
    const headers = basic(f.user);
    const book = f.series.xteen.bookIds[0] as string;
    // The first read loads the table: credentials, then the book and its pages in one batch.
    const first = await counter.measure(`/books/${book}/pages/1`, { headers });
    expect(first.status).toBe(200);
    const list = await counter.measure(`/books/${book}/pages`, { headers });
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body).map((p: { number: number }) => p.number)).toEqual([1, 2]);
    // From the cached table: credentials plus the one visibility check, for the image and the list alike.
    const second = await counter.measure(`/books/${book}/pages/2`, { headers });
    expect(second.status).toBe(200);
    expect(second.calls).toHaveLength(2);
    expect(list.calls).toHaveLength(2);

    // Tag the series with the label this reader is denied: the next page and list are 404, cache or not.
    await db.insert(seriesSharingLabels).values({ seriesId: f.series.xteen.seriesId, labelId: f.labels.xsecret });
    expect((await counter.measure(`/books/${book}/pages/1`, { headers })).status).toBe(404);
    expect((await counter.measure(`/books/${book}/pages`, { headers })).status).toBe(404);
    // The admin still reads it (from the same cached table), and the reader's other books still read.
    expect((await counter.measure(`/books/${book}/pages/1`, { headers: ADMIN_BASIC })).status).toBe(200);
    const other = f.series.xunrated.bookIds[0] as string;
    expect((await counter.measure(`/books/${other}/pages/1`, { headers })).status).toBe(200);
  }, 120_000);

  it('shows page sizes as soon as analysis stores them: a book still being analysed is not kept in the page cache', async () => {
    const { auth } = await setupAdmin();
    const owner = await seedSeries(await seedLibrary(), { title: 'Fresh' });
    const book = await seedBook(owner, { title: 'Fresh 1', pageCount: 2, analyzed: false });
    const page = (number: number) => ({
      bookId: book.id,
      number,
      fileName: `${number}.jpg`,
      mediaType: 'image/jpeg',
      size: 100,
      locator: { kind: 'zip', entry: `${number}.jpg` },
    });
    await db.insert(bookPages).values([page(1), page(2)]);
    const sizes = async () =>
      ((await api(`/books/${book.id}/pages`, { auth })).body as Array<{ width: number | null }>).map((p) => p.width);
    // Listed right after the scan, before the per-book work measured the pages (the web reader's first call).
    expect(await sizes()).toEqual([null, null]);
    await db.update(bookPages).set({ width: 800, height: 1200 }).where(eq(bookPages.bookId, book.id));
    await db.update(books).set({ analyzed: true }).where(eq(books.id, book.id));
    expect(await sizes()).toEqual([800, 800]);
  });

  it('a library-narrowed key is refused a cached book of another library', async () => {
    const f = await buildAccessFixture();
    const counter = statementCounter();
    const gamma = f.series.xgamma.bookIds[0] as string;
    expect((await counter.measure(`/books/${gamma}/pages/1`, { headers: ADMIN_BASIC })).status).toBe(200);
    // The narrowed key sees Alpha only (its owner's content restrictions apply too: one check in D1).
    const created = await counter.worker.fetch('/api-keys', {
      method: 'POST',
      headers: { ...basic(f.user), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'alpha only', library_ids: [f.libraries.alpha] }),
    });
    expect(created.status).toBe(201);
    const narrowKey = { 'X-API-Key': ((await created.json()) as { key: string }).key };
    const alpha = f.series.xteen.bookIds[0] as string;
    expect((await counter.measure(`/books/${alpha}/pages/1`, { headers: narrowKey })).status).toBe(200);
    const narrow = await counter.measure(`/books/${gamma}/pages/1`, { headers: narrowKey });
    expect(narrow.status).toBe(404);
  }, 120_000);
});

describe('OPDS-PSE page streaming', () => {
  it('a streamed page costs the credentials, the page table, the preference key and the progress upsert', async () => {
    const f = await buildAccessFixture();
    const counter = statementCounter();
    const book = f.series.xteen.bookIds[0] as string;
    const page = (n: number, headers: Record<string, string>) =>
      counter.measure(`/opds/v1.2/books/${book}/pages/${n}`, { headers });
    const admin = ADMIN_BASIC;
    expect((await page(0, admin)).status).toBe(200);
    // Cached table: session + preference + upsert.
    const adminPage = await page(0, admin);
    expect(adminPage.status).toBe(200);
    // One read of the preference (the progress batch's session fold tests the recording pause inside its own
    // statement, DECISIONS.md §Reading statistics: no read of its own).
    const preferenceReads = adminPage.calls.filter((sql) =>
      sql.some((s) => /^\s*select\b[\s\S]*user_preferences/i.test(s)),
    );
    expect(preferenceReads).toHaveLength(1);
    expect(adminPage.calls).toHaveLength(3);
    // A content-restricted reader: the same, plus the visibility check of the cached table.
    const headers = basic(f.user);
    expect((await page(0, headers)).status).toBe(200);
    const restricted = await page(0, headers);
    expect(restricted.status).toBe(200);
    expect(restricted.calls).toHaveLength(4);
    // Past the end is still a 400 and moves nothing.
    const past = await page(2, headers);
    expect(past.status).toBe(400);
    expect(JSON.parse(past.body).message).toContain('the book has 2 pages');
  }, 120_000);
});

describe('covers', () => {
  it("a book cover costs one statement after the credentials, without the book row's large columns", async () => {
    const f = await buildAccessFixture();
    const counter = statementCounter();
    const book = f.series.xteen.bookIds[0] as string;
    expect((await counter.measure(`/books/${book}/thumbnail`, { headers: ADMIN_BASIC })).status).toBe(200);
    const cover = await counter.measure(`/books/${book}/thumbnail`, { headers: ADMIN_BASIC });
    expect(cover.status).toBe(200);
    expect(cover.headers.get('Content-Type')).toMatch(/^image\/(jpeg|webp|png)$/);
    expect(cover.calls).toHaveLength(2);
    expect(cover.calls.join(' ')).not.toMatch(/container_index|readium_index|file_metadata/);
    // A restricted reader's hidden book is a 404 through the same statement.
    const hidden = f.series.xadult.bookIds[0] as string;
    expect((await counter.measure(`/books/${hidden}/thumbnail`, { headers: basic(f.user) })).status).toBe(404);
  }, 120_000);
});

describe('credentials', () => {
  it('Basic costs one statement once checked, also by e-mail address on /komga; the first check reads the user once', async () => {
    const f = await buildAccessFixture();
    const counter = statementCounter();
    const userRows = (calls: string[][]) => calls.filter((sql) => sql.some((s) => /from "users"/i.test(s)));
    const byName = basic(f.user);
    const first = await counter.measure('/komga/api/v1/libraries', { headers: byName });
    expect(first.status).toBe(200);
    // The password check read the user with their grants: no second read of the row.
    expect(userRows(first.calls)).toHaveLength(1);
    const byEmail = basic({ username: `${f.user.username}@example.com`, password: f.user.password });
    expect((await counter.measure('/komga/api/v1/libraries', { headers: byEmail })).status).toBe(200);
    const cached = await counter.measure('/komga/api/v1/libraries', { headers: byEmail });
    expect(cached.status).toBe(200);
    expect(userRows(cached.calls)).toHaveLength(1);
    // The e-mail form is /komga's only: the API's Basic takes usernames.
    expect((await counter.measure('/libraries', { headers: byEmail })).status).toBe(401);
  }, 120_000);
});

describe('Komga reading paths', () => {
  it('the tracker PUT marks its run in one statement; next/previous find the neighbour, 404 at the ends', async () => {
    await komgaLibrary();
    const counter = statementCounter();
    const series = JSON.parse(
      (await counter.measure('/komga/api/v1/series?search=Berserk', { headers: ADMIN_BASIC })).body,
    ).content[0];
    const books = JSON.parse(
      (await counter.measure(`/komga/api/v1/series/${series.id}/books?unpaged=true`, { headers: ADMIN_BASIC })).body,
    ).content as Array<{ id: string; metadata: { numberSort: number } }>;
    expect(books.map((b) => b.metadata.numberSort)).toEqual([1, 2, 3]);

    const put = await counter.measure(`/komga/api/v2/series/${series.id}/read-progress/tachiyomi`, {
      method: 'PUT',
      headers: { ...ADMIN_BASIC, 'Content-Type': 'application/json' },
      body: JSON.stringify({ lastBookNumberSortRead: 3 }),
    });
    expect(put.status).toBe(204);
    expect(put.calls.filter((sql) => sql.some((s) => /insert into "?read_progress\b/i.test(s)))).toHaveLength(1);
    const progress = JSON.parse(
      (await counter.measure(`/komga/api/v2/series/${series.id}/read-progress/tachiyomi`, { headers: ADMIN_BASIC }))
        .body,
    );
    expect(progress).toMatchObject({ booksReadCount: 3, booksUnreadCount: 0, lastReadContinuousNumberSort: 3 });

    const next = await counter.measure(`/komga/api/v1/books/${books[0]?.id}/next`, { headers: ADMIN_BASIC });
    expect(JSON.parse(next.body).id).toBe(books[1]?.id);
    const previous = await counter.measure(`/komga/api/v1/books/${books[2]?.id}/previous`, { headers: ADMIN_BASIC });
    expect(JSON.parse(previous.body).id).toBe(books[1]?.id);
    expect((await counter.measure(`/komga/api/v1/books/${books[2]?.id}/next`, { headers: ADMIN_BASIC })).status).toBe(
      404,
    );
    expect(
      (await counter.measure(`/komga/api/v1/books/${books[0]?.id}/previous`, { headers: ADMIN_BASIC })).status,
    ).toBe(404);
  }, 120_000);
});

describe('Komga lists', () => {
  /** The statements past the credentials (the user and session reads). */
  const listCalls = (calls: string[][]) => calls.filter((sql) => !sql.some((s) => /from "(users|sessions)"/.test(s)));

  it('a page of series or books is one statement for the page and its Komga rows, beside the count (issue 30)', async () => {
    await komgaLibrary();
    const counter = statementCounter();
    const page = async (path: string) => {
      const measured = await counter.measure(path, { headers: ADMIN_BASIC });
      expect(measured.status, path).toBe(200);
      const body = JSON.parse(measured.body);
      return { names: body.content.map((row: { name: string }) => row.name), total: body.totalElements, measured };
    };
    await page('/komga/api/v1/series?size=1');

    // Unfiltered: the count, beside the page with its Komga rows (one statement: ids and rows, each row enriched once).
    const first = await page('/komga/api/v1/series?size=1&sort=metadata.titleSort,asc');
    expect([first.names, first.total]).toEqual([['Berserk'], 2]);
    expect(listCalls(first.measured.calls)).toHaveLength(2);
    const second = await page('/komga/api/v1/series?size=1&page=1&sort=metadata.titleSort,asc');
    expect([second.names, second.total]).toEqual([['Saga'], 2]);
    // Searched: the page counts itself: one statement.
    const searched = await page('/komga/api/v1/series?search=Berserk');
    expect([searched.names, searched.total]).toEqual([['Berserk'], 1]);
    expect(listCalls(searched.measured.calls)).toHaveLength(1);

    const books = await page('/komga/api/v1/books?size=2&sort=metadata.numberSort,desc&sort=name,asc');
    expect(books.total).toBe(4);
    expect(books.names).toHaveLength(2);
    expect(listCalls(books.measured.calls)).toHaveLength(2);
    const ofSeries = await page('/komga/api/v1/books?search=Guardians');
    expect([ofSeries.names, ofSeries.total]).toEqual([['Guardians'], 1]);
    expect(listCalls(ofSeries.measured.calls)).toHaveLength(1);

    // Komelia's home rows: keep reading (the progress list and its count) and on deck (it counts itself).
    const berserk = JSON.parse(
      (await counter.measure('/komga/api/v1/books?search=Black%20Swordsman', { headers: ADMIN_BASIC })).body,
    ).content[0];
    const brand = JSON.parse((await counter.measure('/komga/api/v1/books?search=Brand', { headers: ADMIN_BASIC })).body)
      .content[0];
    for (const [book, body] of [
      [berserk, { completed: true }],
      [brand, { page: 1 }],
    ] as const) {
      const marked = await counter.measure(`/komga/api/v1/books/${book.id}/read-progress`, {
        method: 'PATCH',
        headers: { ...ADMIN_BASIC, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(marked.status).toBe(204);
      if ('page' in body) {
        // The page is checked against the book's page facts, read once.
        const reads = marked.calls.filter(
          (sql) => sql.some((s) => /from "books"/.test(s)) && !sql.some((s) => /^(insert|update|delete)/i.test(s)),
        );
        expect(reads).toHaveLength(1);
      }
    }
    const keepReading = await counter.measure('/komga/api/v1/books/list?sort=readProgress.readDate,desc', {
      method: 'POST',
      headers: { ...ADMIN_BASIC, 'Content-Type': 'application/json' },
      body: JSON.stringify({ condition: { allOf: [{ readStatus: { operator: 'is', value: 'IN_PROGRESS' } }] } }),
    });
    expect(JSON.parse(keepReading.body).content.map((b: { name: string }) => b.name)).toEqual(['Brand']);
    expect(listCalls(keepReading.calls)).toHaveLength(2);
    // Brand finished too: Guardians is on deck (the page counts itself: one statement).
    await counter.measure(`/komga/api/v1/books/${brand.id}/read-progress`, {
      method: 'PATCH',
      headers: { ...ADMIN_BASIC, 'Content-Type': 'application/json' },
      body: JSON.stringify({ completed: true }),
    });
    const onDeck = await page('/komga/api/v1/books/ondeck');
    expect([onDeck.names, onDeck.total]).toEqual([['Guardians'], 1]);
    expect(listCalls(onDeck.measured.calls)).toHaveLength(1);
  }, 120_000);
});

describe('metadata edits', () => {
  const listCalls = (calls: string[][]) => calls.filter((sql) => !sql.some((s) => /from "(users|sessions)"/.test(s)));
  const json = (body: unknown) => ({
    headers: { ...ADMIN_BASIC, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

  it('a bulk edit of 10 books over 2 series reads them in one batch and writes one batch per series', async () => {
    await setupAdmin();
    const library = await seedLibrary();
    const one = await seedSeriesWithBooks(library, 5, { title: 'One' });
    const two = await seedSeriesWithBooks(library, 5, { title: 'Two' });
    const ids = [...one.books, ...two.books].map((book) => book.id);
    const counter = statementCounter();
    // The first Basic check signs in; later requests cost one credential statement.
    await counter.measure('/libraries', { headers: ADMIN_BASIC });
    const credits = [{ name: 'Ann Writer', role: 'writer' }];
    const edit = await counter.measure('/books/bulk/metadata', {
      method: 'PATCH',
      ...json({ bookIds: [...ids, crypto.randomUUID()], publisher: 'Bulk Pub', authors: credits }),
    });
    expect(edit.status).toBe(200);
    expect(JSON.parse(edit.body)).toMatchObject({ updatedCount: 10 });
    // The ten rows and their terms (one batch), then one batch per series with its credits.
    expect(listCalls(edit.calls)).toHaveLength(3);

    for (const id of ids) {
      const book = JSON.parse((await counter.measure(`/books/${id}/metadata`, { headers: ADMIN_BASIC })).body);
      expect(book).toMatchObject({
        publisher: 'Bulk Pub',
        authors: credits,
        locks: { publisher: true, authors: true },
      });
    }
    // Each series' credits follow its books'.
    for (const owner of [one.series, two.series]) {
      const series = JSON.parse((await counter.measure(`/series/${owner.id}/metadata`, { headers: ADMIN_BASIC })).body);
      expect(series.authors).toEqual(credits);
    }

    const seriesEdit = await counter.measure('/series/bulk/metadata', {
      method: 'PATCH',
      ...json({ seriesIds: [one.series.id, two.series.id], year: 1999, genres: ['Drama'] }),
    });
    expect(JSON.parse(seriesEdit.body)).toMatchObject({ updatedCount: 2 });
    expect(listCalls(seriesEdit.calls)).toHaveLength(2);
    for (const owner of [one.series, two.series]) {
      const series = JSON.parse((await counter.measure(`/series/${owner.id}/metadata`, { headers: ADMIN_BASIC })).body);
      expect(series).toMatchObject({ year: 1999, genres: ['Drama'], locks: { year: true, genres: true } });
    }
  }, 120_000);

  it("Komga's series metadata PATCH reads the series once, or twice with its sharing fields", async () => {
    await setupAdmin();
    const { series } = await seedSeriesWithBooks(await seedLibrary(), 1, { title: 'Solo' });
    const counter = statementCounter();
    await counter.measure('/libraries', { headers: ADMIN_BASIC });
    const reads = (calls: string[][]) =>
      calls.filter(
        (sql) => sql.some((s) => /^select .* from "series"/is.test(s)) && !sql.some((s) => /^update/i.test(s)),
      );
    const patch = (body: unknown) =>
      counter.measure(`/komga/api/v1/series/${series.id}/metadata`, { method: 'PATCH', ...json(body) });
    const plain = await patch({ summary: 'Edited', summaryLock: true });
    expect(plain.status).toBe(204);
    expect(reads(plain.calls)).toHaveLength(1);
    const rated = await patch({ ageRating: 12, ageRatingLock: true });
    expect(rated.status).toBe(204);
    expect(reads(rated.calls)).toHaveLength(2);
    const komgaSeries = await counter.measure(`/komga/api/v1/series/${series.id}`, { headers: ADMIN_BASIC });
    expect(JSON.parse(komgaSeries.body).metadata).toMatchObject({ summary: 'Edited', ageRating: 12 });
    expect((await patch({})).status).toBe(204);
    expect(
      (await counter.measure(`/komga/api/v1/series/${crypto.randomUUID()}/metadata`, { method: 'PATCH', ...json({}) }))
        .status,
    ).toBe(404);
  }, 120_000);
});

describe('series books and collection covers', () => {
  const seriesRows = (calls: string[][]) =>
    calls.filter((sql) => sql.some((s) => /^select "id" from "series"/.test(s)));

  it('GET /series/{id}/books asks whether the series exists only when the page is empty', async () => {
    await setupAdmin();
    const { series, books: seeded } = await seedSeriesWithBooks(await seedLibrary(), 3, { title: 'Trio' });
    const counter = statementCounter();
    await counter.measure('/libraries', { headers: ADMIN_BASIC });
    const page = await counter.measure(`/series/${series.id}/books?page_size=2`, { headers: ADMIN_BASIC });
    expect(page.status).toBe(200);
    const body = JSON.parse(page.body);
    expect(body.data.map((book: { id: string }) => book.id)).toEqual(seeded.slice(0, 2).map((book) => book.id));
    expect(body.total).toBe(3);
    expect(seriesRows(page.calls)).toHaveLength(0);
    // Past the end: the series is there, an empty page; an unknown series is a 404.
    const past = await counter.measure(`/series/${series.id}/books?page=5`, { headers: ADMIN_BASIC });
    expect(past.status).toBe(200);
    expect(JSON.parse(past.body)).toMatchObject({ data: [], total: 3 });
    expect(seriesRows(past.calls)).toHaveLength(1);
    expect((await counter.measure(`/series/${crypto.randomUUID()}/books`, { headers: ADMIN_BASIC })).status).toBe(404);
    // Komga's series books alike.
    const komgaPage = await counter.measure(`/komga/api/v1/series/${series.id}/books`, { headers: ADMIN_BASIC });
    expect(JSON.parse(komgaPage.body).content).toHaveLength(3);
    expect(seriesRows(komgaPage.calls)).toHaveLength(0);
    const unknown = await counter.measure(`/komga/api/v1/series/${crypto.randomUUID()}/books`, {
      headers: ADMIN_BASIC,
    });
    expect(unknown.status).toBe(404);
  }, 120_000);

  it("a collection's cover reads the collection once", async () => {
    const { auth } = await setupAdmin();
    const { series } = await seedSeriesWithBooks(await seedLibrary(), 1, { title: 'Covered' });
    const created = await api('/collections', {
      method: 'POST',
      auth,
      json: { name: 'Shelf', seriesIds: [series.id] },
    });
    expect(created.status).toBe(201);
    const counter = statementCounter();
    await counter.measure('/libraries', { headers: ADMIN_BASIC });
    const cover = await counter.measure(`/collections/${created.body.id}/thumbnail`, { headers: ADMIN_BASIC });
    // No thumbnail yet: the placeholder cover, found through the collection's first series.
    expect(cover.status).toBe(200);
    expect(cover.headers.get('Content-Type')).toMatch(/^image\/svg/);
    expect(cover.calls.filter((sql) => sql.some((s) => /from "collections"/.test(s)))).toHaveLength(1);
  }, 120_000);
});

describe('KOReader sync', () => {
  const bookReads = (calls: string[][]) =>
    calls.filter(
      (sql) => sql.some((s) => /from "books"/.test(s)) && !sql.some((s) => /^(insert|update|delete)/i.test(s)),
    );

  it('a push finds the book by its document hash inside its write, a pull in its one read', async () => {
    await setupAdmin();
    const {
      books: [book],
    } = await seedSeriesWithBooks(await seedLibrary(), 1, { title: 'Synced' });
    const hash = 'ab'.repeat(16);
    await db
      .update(books)
      .set({ readerHash: hash })
      .where(eq(books.id, book?.id as string));
    const counter = statementCounter();
    const created = await counter.worker.fetch('/api-keys', {
      method: 'POST',
      headers: { ...ADMIN_BASIC, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'kobo' }),
    });
    expect(created.status).toBe(201);
    const headers = {
      accept: 'application/vnd.koreader.v1+json',
      'x-auth-user': ((await created.json()) as { key: string }).key,
      'x-auth-key': '5f4dcc3b5aa765d61d8327deb882cf99',
      'Content-Type': 'application/json',
    };
    await counter.measure('/koreader/users/auth', { headers });
    const push = await counter.measure('/koreader/syncs/progress', {
      method: 'PUT',
      headers,
      body: JSON.stringify({ document: hash, progress: '5', percentage: 0.25, device: 'Kobo', device_id: 'k1' }),
    });
    expect(push.status).toBe(200);
    // The push finds its book inside the write (one batch beside the key's statement): no read before it.
    expect(bookReads(push.calls)).toHaveLength(0);
    expect(push.calls).toHaveLength(2);
    const pull = await counter.measure(`/koreader/syncs/progress/${hash}`, { headers });
    expect(JSON.parse(pull.body)).toMatchObject({ document: hash, progress: '5', device: 'Kobo' });
    expect(bookReads(pull.calls)).toHaveLength(1);
    // The book and the progress in it are one statement after the key's.
    expect(pull.calls).toHaveLength(2);
  }, 120_000);
});

describe("a reader's own reads", () => {
  it('/auth/me answers from the credential statement alone, as user administration shows the same account', async () => {
    const { auth: admin } = await setupAdmin();
    const family = await seedLibrary({ name: 'Family' });
    const tag = async (name: string) => (await api('/admin/sharing-tags', { auth: admin, json: { name } })).body.id;
    const [zebra, apple, mango] = [await tag('zebra'), await tag('Apple'), await tag('mango')];
    const created = await api('/users', {
      auth: admin,
      json: { username: 'selfreader', email: 'selfreader@example.com', password: 'reader-password-1', role: 'reader' },
    });
    expect(created.status).toBe(201);
    const access = await api(`/users/${created.body.id}`, {
      auth: admin,
      method: 'PUT',
      json: {
        sharedAllLibraries: false,
        sharedLibraryIds: [family.id],
        ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' },
        sharingTags: [
          { sharingTagId: zebra, accessMode: 'allow' },
          { sharingTagId: apple, accessMode: 'deny' },
          { sharingTagId: mango, accessMode: 'allow' },
        ],
      },
    });
    expect(access.status).toBe(200);
    const counter = statementCounter();
    const headers = basic({ username: 'selfreader', password: 'reader-password-1' });
    expect((await counter.measure('/auth/me', { headers })).status).toBe(200);
    const me = await counter.measure('/auth/me', { headers });
    expect(me.calls).toHaveLength(1);
    const shown = (await api(`/users/${created.body.id}`, { auth: admin })).body;
    const mine = JSON.parse(me.body);
    for (const field of ['sharedAllLibraries', 'sharedLibraryIds', 'ageRestriction', 'sharingTags', 'permissions']) {
      expect(mine[field], field).toEqual(shown[field]);
    }
    expect(mine.sharingTags.map((t: { name: string }) => t.name)).toEqual(['Apple', 'mango', 'zebra']);
    expect(mine).toMatchObject({ authMethod: 'basic', apiKey: null, hasPassword: true });
  });

  it("GET /books/{id}/progress reads the book and the caller's progress in it in one statement", async () => {
    await setupAdmin();
    const owner = await seedSeries(await seedLibrary(), { title: 'Tidewater' });
    const read = await seedBook(owner, { title: 'Tidewater 1', pageCount: 20 });
    const unread = await seedBook(owner, { title: 'Tidewater 2', pageCount: 20 });
    const counter = statementCounter();
    const me = JSON.parse((await counter.measure('/auth/me', { headers: ADMIN_BASIC })).body);
    await seedProgress(me.id, read.id, { currentPage: 7 });

    const found = await counter.measure(`/books/${read.id}/progress`, { headers: ADMIN_BASIC });
    expect(found.status).toBe(200);
    expect(JSON.parse(found.body)).toMatchObject({ bookId: read.id, currentPage: 7, completed: false });
    expect(found.calls).toHaveLength(2);
    const none = await counter.measure(`/books/${unread.id}/progress`, { headers: ADMIN_BASIC });
    expect(none.status).toBe(404);
    expect(JSON.parse(none.body).message).toBe('Read progress not found');
    expect(none.calls).toHaveLength(2);
    const unknown = await counter.measure('/books/00000000-0000-4000-8000-000000000000/progress', {
      headers: ADMIN_BASIC,
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).message).toBe('Book not found');
  });
});
