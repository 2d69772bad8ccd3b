/**
 * OPDS 1.2 with page streaming (DECISIONS.md §Reader apps, §Auth; API.md §1, §5, §7; issue 9): an app
 * signs in with Basic, walks catalog → library → series → book, streams page N at maxWidth 600, and
 * the progress it made shows up in `pse:lastRead` and in GET /books/{id}/progress.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { readProgress } from '../../src/db/schema';
import { buildEpub } from '../fixtures/epub-writer';
import { db, seedLibrary, seedSeriesWithBooks } from '../support/catalog-factory';
import { eventually } from '../support/eventually';
import { ADMIN, createApiKey, createUser, setupAdmin } from '../support/factories';
import { faultyWorker } from '../support/faults';
import { api, type Credentials } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { imageSize } from '../support/media';
import {
  ACQUISITION_REL,
  entries,
  entryTitled,
  feedHead,
  fetchAs,
  linkWithRel,
  links,
  PSE_REL,
  streamUrl,
  textOf,
} from '../support/opds';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const CATALOG = '/opds/v1.2/catalog';
const NAV = 'application/atom+xml;profile=opds-catalog;kind=navigation';
const ACQ = 'application/atom+xml;profile=opds-catalog;kind=acquisition';

let admin: Credentials;
let reader: { username: string; password: string };
let readerKey: string;
let books: Record<string, any>;
let sagaId: string;

/** Every test starts from an empty store (test/support/apply-migrations.ts): each seeds this catalog. */
async function seed() {
  ({ auth: admin } = await setupAdmin());
  const libraryId = await createLibrary(admin);
  const info = (n: number) => ({
    Series: 'Saga',
    Title: `Chapter ${n}`,
    Number: String(n),
    Writer: 'Brian K. Vaughan',
    LanguageISO: 'en',
    Year: 2012,
    Summary: `Saga issue ${n} & more`,
  });
  await putObject('comics/Saga/Saga 001.cbz', await makeCbz(3, info(1), [800, 1200]));
  await putObject('comics/Saga/Saga 002.cbz', await makeCbz(2, info(2)));
  await putObject('comics/Paper Girls/Paper Girls 001.cbz', await makeCbz(2, { Series: 'Paper Girls', Number: '1' }));
  await putObject(
    'comics/Novels/Dune.epub',
    buildEpub({ spine: [{ kind: 'text', bytes: 3000 }], metadataXml: '<dc:title>Dune</dc:title>' }),
  );
  const done = await scan(admin, libraryId);
  await waitForTasks(admin, libraryId, { since: done.completedAt ?? '' });
  const listed = await api(`/books?library_id=${libraryId}&pageSize=50`, { auth: admin });
  books = Object.fromEntries(listed.body.data.map((b: any) => [b.title, b]));
  sagaId = books['Chapter 1'].seriesId;
  reader = await createUser(admin, { role: 'reader' });
  readerKey = (await createApiKey({ basic: reader }, { name: 'Panels on iPad' })).key;
}

const basic = () => ({ basic: reader });
const keyAuth = (): Credentials => ({ apiKey: readerKey, via: 'basic' });

async function feed(url: string, auth: Credentials = basic()) {
  const res = await fetchAs(url, auth);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text.slice(0, 500)}`);
  return res;
}

describe('OPDS 1.2 feeds as an app walks them (DECISIONS.md §Reader apps)', () => {
  it('catalog → library → series → book → stream page 2 at maxWidth 600 → pse:lastRead shows it', async () => {
    await seed();
    const root = await feed(CATALOG);
    expect(root.headers.get('Content-Type')).toContain(NAV);
    expect(textOf(feedHead(root.text), 'title')).toBe('Longbox');
    expect(linkWithRel(feedHead(root.text), 'start').href).toBe(`http://longbox.test${CATALOG}`);
    expect(linkWithRel(feedHead(root.text), 'search').type).toBe('application/opensearchdescription+xml');

    const librariesLink = linkWithRel(entryTitled(root.text, 'Libraries'), 'subsection');
    const libraries = await feed(librariesLink.href);
    const library = await feed(linkWithRel(entryTitled(libraries.text, 'Comics'), 'subsection').href);
    expect(library.headers.get('Content-Type')).toContain(NAV);
    const sagaLink = linkWithRel(entryTitled(library.text, 'Saga'), 'subsection');
    expect(sagaLink.type).toBe(ACQ);
    expect(links(entryTitled(library.text, 'Saga')).map((l) => l.rel)).toContain(
      'http://opds-spec.org/image/thumbnail',
    );

    const series = await feed(sagaLink.href, keyAuth());
    expect(series.headers.get('Content-Type')).toContain(ACQ);
    // Reading order: number 1 before 2.
    expect(entries(series.text).map((e) => textOf(e, 'title'))).toEqual(['Chapter 1', 'Chapter 2']);
    const entry = entryTitled(series.text, 'Chapter 1');
    expect(textOf(entry, 'name')).toBe('Brian K. Vaughan');
    expect(textOf(entry, 'dc:language')).toBe('en');
    expect(textOf(entry, 'dc:issued')).toBe('2012');
    expect(textOf(entry, 'summary')).toBe('Saga issue 1 & more');
    const acquisition = linkWithRel(entry, ACQUISITION_REL);
    expect(acquisition.type).toBe('application/vnd.comicbook+zip');
    expect(acquisition.href).toBe(`http://longbox.test/api/v1/books/${books['Chapter 1'].id}/file`);
    expect(acquisition.length).toBe(String(books['Chapter 1'].fileSize));
    const cover = linkWithRel(entry, 'http://opds-spec.org/image');
    expect(linkWithRel(entry, 'http://opds-spec.org/image/thumbnail').href).toBe(cover.href);
    const stream = linkWithRel(entry, PSE_REL);
    expect(stream.type).toBe('image/png');
    expect(stream['pse:count']).toBe('3');
    expect(stream.href).toContain('{pageNumber}');
    expect(stream.href).toContain('{maxWidth}');
    expect(stream['pse:lastRead']).toBeUndefined();

    // The cover and the file answer with the same credentials.
    const coverRes = await fetchAs(cover.href, keyAuth());
    expect(coverRes.status).toBe(200);
    expect(coverRes.headers.get('Content-Type')).toMatch(/^image\//);
    const file = await fetchAs(acquisition.href, keyAuth());
    expect(file.status).toBe(200);
    expect(file.headers.get('Content-Type')).toBe('application/vnd.comicbook+zip');
    expect(file.bytes.length).toBe(books['Chapter 1'].fileSize);

    // {pageNumber} 1 is the book's second page; {maxWidth} 600 sizes it for the screen (800 px wide stored).
    const page = await fetchAs(streamUrl(stream.href, 1, 600), keyAuth());
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toBe('image/png');
    expect(imageSize(page.bytes)).toEqual({ width: 600, height: 900 });

    // Written after the page is sent, once the app's burst of fetches is over (DECISIONS.md §Reader apps).
    const progress = await eventually(
      () => api(`/books/${books['Chapter 1'].id}/progress`, { auth: keyAuth() }),
      (res) => res.status === 200,
    );
    expect(progress.body).toMatchObject({ currentPage: 2, completed: false });
    const again = await feed(sagaLink.href, keyAuth());
    const updated = linkWithRel(entryTitled(again.text, 'Chapter 1'), PSE_REL);
    expect(updated['pse:lastRead']).toBe('2');
    expect(Date.parse(updated['pse:lastReadDate'] as string)).not.toBeNaN();

    // The same page at the same width again is a cached rendition: no image work.
    const cached = await fetchAs(streamUrl(stream.href, 1, 600), keyAuth());
    expect(cached.headers.get('X-Longbox-Cache')).toBe('hit');
  });

  it("streaming never moves progress back; the last page completes the book once read at a person's pace", async () => {
    await seed();
    const user = await createUser(admin, { role: 'reader' });
    const auth = { basic: user };
    const series = await feed(`/opds/v1.2/series/${sagaId}`, auth);
    const stream = linkWithRel(entryTitled(series.text, 'Chapter 1'), PSE_REL);
    // One page turn at a time, each settled before the next (an app that fetches only the page it shows).
    const app = faultyWorker({});
    const turn = async (index: number) => {
      const url = new URL(streamUrl(stream.href, index, 600));
      expect((await app.fetch(`${url.pathname}${url.search}`, { auth })).status).toBe(200);
      await app.settle();
    };
    const progress = async () => (await api(`/books/${books['Chapter 1'].id}/progress`, { auth })).body;
    await turn(1);
    await turn(0);
    expect((await progress()).currentPage).toBe(2);
    // The last page, fetched a moment after the book was opened (an app prefetching ahead), is not a read book.
    await turn(2);
    expect(await progress()).toMatchObject({ currentPage: 3, completed: false });
    // Opened a minute ago: the last page fetched again now completes it.
    const aMinuteAgo = new Date(Date.now() - 60_000).toISOString();
    await db
      .update(readProgress)
      .set({ startedAt: aMinuteAgo })
      .where(eq(readProgress.id, (await progress()).id));
    await turn(2);
    expect(await progress()).toMatchObject({ currentPage: 3, completed: true });
    await turn(0);
    expect(await progress()).toMatchObject({ currentPage: 3, completed: true });
  });

  it('opds.pse_progress = false: streamed pages do not move progress (apps that prefetch)', async () => {
    await seed();
    const user = await createUser(admin, { role: 'reader' });
    const auth = { basic: user };
    const set = await api('/user/preferences/opds.pse_progress', { method: 'PUT', auth, json: { value: false } });
    expect(set.status).toBe(200);
    const app = faultyWorker({});
    expect((await app.fetch(`/opds/v1.2/books/${books['Chapter 2'].id}/pages/1`, { auth })).status).toBe(200);
    await app.settle();
    expect((await api(`/books/${books['Chapter 2'].id}/progress`, { auth })).status).toBe(404);
  });

  it('a key without ProgressWrite streams pages but writes no progress (API.md §5 permissions)', async () => {
    await seed();
    const user = await createUser(admin, { role: 'reader' });
    const key = await createApiKey(
      { basic: user },
      { name: 'read only', permissions: ['BooksRead', 'PagesRead', 'SeriesRead', 'ProgressRead'] },
    );
    const auth: Credentials = { apiKey: key.key, via: 'basic' };
    // Nothing is deferred for a caller who may not write progress: the answer is all there is.
    const series = await feed(`/opds/v1.2/series/${sagaId}`, auth);
    const stream = linkWithRel(entryTitled(series.text, 'Chapter 2'), PSE_REL);
    expect((await fetchAs(streamUrl(stream.href, 1, 600), auth)).status).toBe(200);
    expect((await api(`/books/${books['Chapter 2'].id}/progress`, { auth: { basic: user } })).status).toBe(404);
    // Without BooksRead the acquisition feed is refused like GET /series/{id}/books.
    const pagesOnly = await createApiKey({ basic: user }, { name: 'pages', permissions: ['PagesRead'] });
    const refused = await fetchAs(`/opds/v1.2/series/${sagaId}`, { apiKey: pagesOnly.key, via: 'basic' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('Content-Type')).toContain('application/atom+xml');
  });

  it('reflowable EPUBs get an acquisition link with their type and no stream link; the navigation feeds page', async () => {
    await seed();
    const all = await feed('/opds/v1.2/series?pageSize=1');
    expect(entries(all.text)).toHaveLength(1);
    const head = feedHead(all.text);
    expect(textOf(head, 'opensearch:totalResults')).toBe('3');
    expect(links(head).find((l) => l.rel === 'previous')).toBeUndefined();
    const next = linkWithRel(head, 'next');
    const last = linkWithRel(head, 'last');
    expect(linkWithRel(head, 'first').href).toContain('page=1');
    expect(last.href).toContain('page=3');
    const second = await feed(next.href);
    expect(linkWithRel(feedHead(second.text), 'previous').href).toContain('page=1');
    const titles = [all, second, await feed(last.href)].map((f) => textOf(entries(f.text)[0] as string, 'title'));
    expect(titles).toEqual(['Novels', 'Paper Girls', 'Saga']);

    const novels = await feed(linkWithRel(entries(all.text)[0] as string, 'subsection').href);
    const dune = entryTitled(novels.text, 'Dune');
    expect(linkWithRel(dune, ACQUISITION_REL).type).toBe('application/epub+zip');
    expect(links(dune).some((l) => l.rel === PSE_REL)).toBe(false);
  });

  it('recently added, keep reading and on deck list the user’s books', async () => {
    await seed();
    const user = await createUser(admin, { role: 'reader' });
    const auth = { basic: user };
    const recent = await feed('/opds/v1.2/recently-added', auth);
    expect(entries(recent.text)).toHaveLength(4);
    expect(textOf(feedHead((await feed('/opds/v1.2/keep-reading', auth)).text), 'opensearch:totalResults')).toBe('0');
    await api(`/books/${books['Chapter 1'].id}/progress`, { method: 'PUT', auth, json: { current_page: 2 } });
    const reading = await feed('/opds/v1.2/keep-reading', auth);
    expect(entries(reading.text).map((e) => textOf(e, 'title'))).toEqual(['Chapter 1']);
    await api(`/books/${books['Chapter 1'].id}/read`, { method: 'POST', auth });
    const deck = await feed('/opds/v1.2/on-deck', auth);
    expect(entries(deck.text).map((e) => textOf(e, 'title'))).toEqual(['Chapter 2']);
    const libraryBooks = await feed(`/opds/v1.2/libraries/${books.Dune.libraryId}/books`, auth);
    expect(entries(libraryBooks.text)).toHaveLength(4);
  });

  it('search goes through the OpenSearch description as KOReader does', async () => {
    await seed();
    const root = await feed(CATALOG);
    const description = await feed(linkWithRel(feedHead(root.text), 'search').href);
    expect(description.headers.get('Content-Type')).toContain('application/opensearchdescription+xml');
    const template = description.text.match(/<Url [^>]*template="([^"]+)"/)?.[1] as string;
    expect(description.text).toMatch(/type="application\/atom\+xml;profile=opds-catalog;kind=navigation"/);
    // The result leads to a feed per kind of match (issue 31 point 18): "dune" matches a book only.
    const results = await feed(template.replace('{searchTerms}', encodeURIComponent('dune')));
    expect(results.headers.get('Content-Type')).toContain(NAV);
    expect(entries(results.text).map((e) => textOf(e, 'title'))).toEqual(['Books matching “dune” (1)']);
    const bookSection = linkWithRel(entries(results.text)[0]!, 'subsection');
    expect(bookSection.type).toBe(ACQ);
    const found = await feed(bookSection.href);
    expect(found.headers.get('Content-Type')).toContain(ACQ);
    expect(entries(found.text).map((e) => textOf(e, 'title'))).toEqual(['Dune']);
    // "saga" matches a series and its books (their summaries say Saga).
    const saga = await feed(template.replace('{searchTerms}', 'saga'));
    expect(entries(saga.text).map((e) => textOf(e, 'title'))).toEqual([
      'Series matching “saga” (1)',
      'Books matching “saga” (2)',
    ]);
    const seriesSection = linkWithRel(entryTitled(saga.text, 'Series matching “saga” (1)'), 'subsection');
    expect(seriesSection.type).toBe(NAV);
    const series = await feed(seriesSection.href);
    expect(linkWithRel(entryTitled(series.text, 'Saga'), 'subsection').href).toContain(`/series/${sagaId}`);
    // Nothing matched: an empty navigation feed, no entry leading nowhere.
    expect(entries((await feed('/opds/v1.2/search?query=zzyzx')).text)).toEqual([]);
  });

  it('a search’s series and books are each their own paged feed: books past 100, series past 20 (issue 31 point 18)', async () => {
    await setupAdmin();
    const auth: Credentials = { basic: { username: ADMIN.username, password: ADMIN.password } };
    const library = await seedLibrary();
    for (let n = 1; n <= 25; n++) await seedSeriesWithBooks(library, 5, { title: `Nebula ${n}` });

    const result = await feed('/opds/v1.2/search?query=nebula', auth);
    expect(entries(result.text).map((e) => textOf(e, 'title'))).toEqual([
      'Series matching “nebula” (25)',
      'Books matching “nebula” (125)',
    ]);

    /** Walks a feed's `next` links from its first page, as an app pages a section. */
    const walk = async (href: string) => {
      const pages: string[][] = [];
      let next: string | undefined = href;
      while (next) {
        const page = await feed(next, auth);
        pages.push(entries(page.text).map((e) => textOf(e, 'title') as string));
        next = links(feedHead(page.text)).find((l) => l.rel === 'next')?.href;
      }
      return pages;
    };
    const booksHref = linkWithRel(entryTitled(result.text, 'Books matching “nebula” (125)'), 'subsection').href;
    const firstBooks = await feed(booksHref, auth);
    expect(textOf(feedHead(firstBooks.text), 'opensearch:totalResults')).toBe('125');
    const bookPages = await walk(booksHref);
    expect(bookPages.map((page) => page.length)).toEqual([100, 25]);
    expect(new Set(bookPages.flat()).size).toBe(125);

    const seriesHref = linkWithRel(entryTitled(result.text, 'Series matching “nebula” (25)'), 'subsection').href;
    const seriesPages = await walk(seriesHref);
    expect(seriesPages.map((page) => page.length)).toEqual([25]);
    expect(new Set(seriesPages.flat())).toEqual(new Set(Array.from({ length: 25 }, (_, i) => `Nebula ${i + 1}`)));
    // Paged smaller, the series feed pages too, keeping the query on its links.
    const smaller = await walk(`${seriesHref}&pageSize=10`);
    expect(smaller.map((page) => page.length)).toEqual([10, 10, 5]);
    expect(new Set(smaller.flat()).size).toBe(25);
  });
});

describe('Same credentials everywhere, 401 challenges with Basic (DECISIONS.md §Reader apps, §Auth)', () => {
  it('every OPDS URL answers an anonymous request with 401 and WWW-Authenticate: Basic realm="Longbox"', async () => {
    await seed();
    const id = books['Chapter 1'].id;
    for (const path of [
      CATALOG,
      '/opds/v1.2/series',
      `/opds/v1.2/series/${sagaId}`,
      '/opds/v1.2/search?query=saga',
      '/opds/v1.2/opensearch.xml',
      `/opds/v1.2/books/${id}/thumbnail`,
      `/opds/v1.2/series/${sagaId}/thumbnail`,
      `/opds/v1.2/books/${id}/pages/0?width=600`,
    ]) {
      const res = await fetchAs(path, undefined);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('WWW-Authenticate'), path).toBe('Basic realm="Longbox"');
    }
    // The acquisition link's target, the API's file endpoint, challenges with Basic first, in the same realm,
    // so an app prompts there too and reuses the feed's credentials.
    const file = await fetchAs(`/api/v1/books/${id}/file`, undefined);
    expect(file.status).toBe(401);
    expect(file.headers.get('WWW-Authenticate')).toMatch(/^Basic realm="Longbox"(,|$)/);
    const wrong = await fetchAs(CATALOG, { basic: { username: reader.username, password: 'wrong-password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('WWW-Authenticate')).toBe('Basic realm="Longbox"');
  });

  it('Basic user:password, Basic api:<key>, X-API-Key, Bearer key and Bearer session all work', async () => {
    await seed();
    const token = (await api('/auth/login', { json: { username: reader.username, password: reader.password } })).body
      .access_token;
    expect(token).toBeTruthy();
    const id = books['Chapter 1'].id;
    for (const auth of [
      { basic: reader },
      { apiKey: readerKey, via: 'basic' as const },
      { apiKey: readerKey },
      { apiKey: readerKey, via: 'bearer' as const },
      { token },
    ]) {
      expect((await fetchAs(CATALOG, auth)).status).toBe(200);
      expect((await fetchAs(`/opds/v1.2/books/${id}/pages/0?width=600`, auth)).status).toBe(200);
      expect((await fetchAs(`/api/v1/books/${id}/file`, auth, { method: 'HEAD' })).status).toBe(200);
    }
  });

  it('Accept-Encoding: identity (KOReader) gets an uncompressed feed', async () => {
    await seed();
    const res = await fetchAs(`/opds/v1.2/series/${sagaId}`, basic(), {
      headers: { 'Accept-Encoding': 'identity', Accept: 'application/atom+xml;profile=opds-catalog, */*' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(res.text.startsWith('<?xml')).toBe(true);
  });
});

describe('Bad input (issue 9): clear errors in the feed’s own format', () => {
  it('unknown ids → 404 as an Atom feed; unknown pages → 404 envelope', async () => {
    await seed();
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const path of [
      `/opds/v1.2/series/${unknown}`,
      `/opds/v1.2/libraries/${unknown}`,
      `/opds/v1.2/libraries/${unknown}/books`,
    ]) {
      const res = await fetchAs(path, basic());
      expect(res.status, path).toBe(404);
      expect(res.headers.get('Content-Type')).toContain('application/atom+xml');
      expect(textOf(res.text, 'title')).toMatch(/not found/i);
    }
    for (const path of [`/opds/v1.2/books/${unknown}/pages/0`, `/opds/v1.2/books/${unknown}/thumbnail`]) {
      const res = await fetchAs(path, basic());
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'NotFound' });
    }
  });

  it('page numbers past the end, maxWidth=0, non-numeric maxWidth or page → 400', async () => {
    await seed();
    const id = books['Chapter 1'].id;
    for (const query of ['3?width=600', '99', '0?width=0', '0?width=abc', '0?width={maxWidth}', 'abc', '-1', '1.5']) {
      const res = await fetchAs(`/opds/v1.2/books/${id}/pages/${query}`, basic());
      expect(res.status, query).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'BadRequest' });
    }
    const user = await createUser(admin, { role: 'reader' });
    await fetchAs(`/opds/v1.2/books/${id}/pages/99`, { basic: user });
    expect((await api(`/books/${id}/progress`, { auth: { basic: user } })).status).toBe(404);
  });

  it('search text that is no search term (quotes, operators) answers an empty feed, not an error', async () => {
    await seed();
    for (const query of ['"(*:', 'NEAR(', '-', '😀']) {
      const res = await fetchAs(`/opds/v1.2/search?query=${encodeURIComponent(query)}`, basic());
      expect(res.status, query).toBe(200);
      expect(entries(res.text), query).toHaveLength(0);
    }
  });

  it('malformed ids, bad paging and an empty search → 400 as Atom', async () => {
    await seed();
    for (const path of [
      '/opds/v1.2/series/not-a-uuid',
      '/opds/v1.2/series?page=0',
      '/opds/v1.2/series?pageSize=x',
      '/opds/v1.2/search?query=',
    ]) {
      const res = await fetchAs(path, basic());
      expect(res.status, path).toBe(400);
      expect(res.headers.get('Content-Type')).toContain('application/atom+xml');
    }
  });
});
