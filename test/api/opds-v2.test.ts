/**
 * OPDS 2.0 (DECISIONS.md §Reader apps; issue 9 point 2): JSON feeds with absolute links, the
 * authentication document behind every 401, DiViNa manifests with one sized readingOrder link per page,
 * and the Readium progression API sharing progress with GET/PUT /books/{id}/progress (API.md §4).
 */
import { describe, expect, it } from 'vitest';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { buildPdf } from '../fixtures/pdf-writer';
import { createApiKey, createUser, setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { imageSize } from '../support/media';
import { fetchAs } from '../support/opds';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const CATALOG = 'http://longbox.test/opds/v2.0/catalog';

async function seed() {
  const { auth: admin } = await setupAdmin();
  const libraryId = await createLibrary(admin);
  await putObject(
    'comics/Saga/Saga 001.cbz',
    await makeCbz(3, { Series: 'Saga', Number: '1', Writer: 'Brian K. Vaughan' }),
  );
  await putObject(
    'comics/Novels/Dune.epub',
    buildEpub({
      spine: [
        { kind: 'text', bytes: 3000 },
        { kind: 'text', bytes: 3000 },
      ],
      metadataXml: '<dc:title>Dune</dc:title>',
    }),
  );
  await putObject(
    'comics/Reports/Annual.pdf',
    buildPdf([
      { kind: 'jpeg', image: jpeg(300, 400, { seed: 3 }), width: 300, height: 400 },
      { kind: 'text', text: 'Page two is text' },
    ]),
  );
  const done = await scan(admin, libraryId);
  await waitForTasks(admin, libraryId, { since: done.completedAt ?? '' });
  const listed = await api(`/books?library_id=${libraryId}`, { auth: admin });
  const books = Object.fromEntries(listed.body.data.map((b: any) => [b.title, b]));
  const reader = await createUser(admin, { role: 'reader' });
  const key = await createApiKey({ basic: reader }, { name: 'Thorium' });
  return { admin, books, reader, auth: { apiKey: key.key, via: 'basic' } as Credentials };
}

async function getJson(url: string, auth: Credentials) {
  const res = await fetchAs(url, auth);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text.slice(0, 400)}`);
  return { type: res.headers.get('Content-Type'), body: JSON.parse(res.text) };
}

const linkOf = (links: any[], rel: string) => {
  const found = links.find((l) => l.rel === rel);
  if (!found) throw new Error(`no ${rel} in ${JSON.stringify(links)}`);
  return found;
};

describe('OPDS 2.0 catalog (DECISIONS.md §Reader apps)', () => {
  it('401 carries the Basic challenge, a Link to the authentication document and the document; /auth is public', async () => {
    await seed();
    const res = await fetchAs(CATALOG, undefined);
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toBe('Basic realm="Longbox"');
    expect(res.headers.get('Content-Type')).toBe('application/opds-authentication+json');
    expect(res.headers.get('Link')).toContain('rel="http://opds-spec.org/auth/document"');
    const document = JSON.parse(res.text);
    expect(document.authentication[0].type).toBe('http://opds-spec.org/auth/basic');
    const auth = await fetchAs('/opds/v2.0/auth', undefined);
    expect(auth.status).toBe(200);
    expect(JSON.parse(auth.text).id).toBe('http://longbox.test/opds/v2.0/auth');
  });

  it('catalog → series → publication → DiViNa manifest → page; absolute links everywhere', async () => {
    const { auth, books } = await seed();
    const root = await getJson(CATALOG, auth);
    expect(root.type).toBe('application/opds+json');
    expect(linkOf(root.body.links, 'self').href).toBe(CATALOG);
    expect(linkOf(root.body.links, 'search')).toMatchObject({
      templated: true,
      href: 'http://longbox.test/opds/v2.0/search{?query}',
    });
    const allSeries = root.body.navigation.find((n: any) => n.title === 'All series');
    const series = await getJson(allSeries.href, auth);
    const saga = series.body.navigation.find((n: any) => n.title === 'Saga');
    const sagaFeed = await getJson(saga.href, auth);
    expect(sagaFeed.body.metadata).toMatchObject({ title: 'Saga', numberOfItems: 1 });
    const publication = sagaFeed.body.publications[0];
    expect(publication.metadata).toMatchObject({
      title: books['Saga 001'].title,
      author: [{ name: 'Brian K. Vaughan' }],
    });
    const acquisition = linkOf(publication.links, 'http://opds-spec.org/acquisition');
    expect(acquisition.type).toBe('application/vnd.comicbook+zip');
    // The API's own file endpoint, with the same credentials.
    expect(new URL(acquisition.href).pathname).toMatch(/^\/api\/v1\/books\/[0-9a-f-]{36}\/file$/);
    const self = linkOf(publication.links, 'self');
    expect(self.href).toMatch(/^http:\/\/longbox\.test\/opds\/v2\.0\/books\//);
    expect((await getJson(self.href, auth)).type).toBe('application/opds-publication+json');

    const manifestLink = linkOf(publication.links, 'alternate');
    expect(manifestLink.type).toBe('application/divina+json');
    const manifest = await getJson(manifestLink.href, auth);
    expect(manifest.type).toBe('application/divina+json');
    expect(manifest.body.metadata.conformsTo).toBe('https://readium.org/webpub-manifest/profiles/divina');
    expect(manifest.body.readingOrder).toHaveLength(3);
    expect(manifest.body.readingOrder[1]).toMatchObject({ type: 'image/png', width: 60, height: 90 });
    const page = await fetchAs(manifest.body.readingOrder[1].href, auth);
    expect(page.status).toBe(200);
    expect(imageSize(page.bytes)).toEqual({ width: 60, height: 90 });
    // A PDF is a DiViNa publication too: its embedded JPEG page as stored, its text page rendered.
    const pdf = await getJson(`http://longbox.test/opds/v2.0/books/${books.Annual.id}/manifest`, auth);
    expect(pdf.body.readingOrder).toHaveLength(2);
    expect(pdf.body.readingOrder[0]).toMatchObject({ width: 300, height: 400 });
    for (const link of pdf.body.readingOrder) {
      const image = await fetchAs(link.href, auth);
      expect(image.status).toBe(200);
      expect(image.headers.get('Content-Type')).toBe(link.type);
    }
    // Reading a manifest page does not move progress: the app PUTs progression.
    expect((await fetchAs(linkOf(publication.links, 'http://www.cantook.com/api/progression').href, auth)).status).toBe(
      204,
    );
  });
});

describe('Readium progression shares progress with the API (API.md §4 Reading progress)', () => {
  it('GET 204 → PUT 204 → GET 200 → API sees it; API writes are seen back; an older modified → 409', async () => {
    const { auth, books } = await seed();
    const book = books['Saga 001'];
    const url = `/opds/v2.0/books/${book.id}/progression`;
    expect((await fetchAs(url, auth)).status).toBe(204);
    const first = new Date().toISOString();
    const put = (modified: string, position: number) =>
      fetchAs(url, auth, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/vnd.readium.progression+json' },
        body: JSON.stringify({
          modified,
          device: { id: 'thorium-1', name: 'Thorium' },
          locator: { href: 'x', type: 'image/png', locations: { position } },
        }),
      });
    expect((await put(first, 2)).status).toBe(204);
    const got = await fetchAs(url, auth);
    expect(got.status).toBe(200);
    expect(got.headers.get('Content-Type')).toBe('application/vnd.readium.progression+json');
    const body = JSON.parse(got.text);
    expect(body.locator.locations.position).toBe(2);
    expect(body.device.name).toBe('Thorium');
    expect((await api(`/books/${book.id}/progress`, { auth })).body).toMatchObject({
      currentPage: 2,
      completed: false,
    });

    const older = new Date(Date.parse(first) - 60_000).toISOString();
    const conflict = await put(older, 1);
    expect(conflict.status).toBe(409);
    expect(JSON.parse(conflict.text)).toMatchObject({ status: 409 });
    expect((await api(`/books/${book.id}/progress`, { auth })).body.currentPage).toBe(2);

    await api(`/books/${book.id}/progress`, { method: 'PUT', auth, json: { current_page: 3, is_completed: true } });
    const after = JSON.parse((await fetchAs(url, auth)).text);
    expect(after.locator.locations.position).toBe(3);
  });

  it('an EPUB moves by totalProgression and keeps its fragment as the locator', async () => {
    const { auth, books } = await seed();
    const dune = books.Dune;
    const res = await fetchAs(`/opds/v2.0/books/${dune.id}/progression`, auth, {
      method: 'PUT',
      body: JSON.stringify({
        modified: new Date().toISOString(),
        locator: {
          href: 'OEBPS/ch2.xhtml',
          locations: { totalProgression: 0.5, fragments: ['epubcfi(/6/4!/4/2/1:0)'] },
        },
      }),
    });
    expect(res.status).toBe(204);
    const progress = await api(`/books/${dune.id}/progress`, { auth });
    expect(progress.body).toMatchObject({ progressPercentage: 0.5, locator: 'epubcfi(/6/4!/4/2/1:0)' });
  });

  it('bad input: unknown ids 404 problem documents, positions past the end 400, no manifest for text, no write without ProgressWrite', async () => {
    const { auth, books, reader } = await seed();
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const path of [
      `/opds/v2.0/series/${unknown}`,
      `/opds/v2.0/books/${unknown}/progression`,
      `/opds/v2.0/books/${unknown}/manifest`,
    ]) {
      const res = await fetchAs(path, auth);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('Content-Type')).toBe('application/problem+json');
      expect(JSON.parse(res.text)).toMatchObject({ status: 404, title: 'NotFound' });
    }
    const url = `/opds/v2.0/books/${books['Saga 001'].id}/progression`;
    const body = (locations: unknown) =>
      JSON.stringify({ modified: new Date().toISOString(), locator: { href: 'x', locations } });
    for (const bad of [
      body({ position: 99 }),
      body({ position: 0 }),
      body({}),
      '{not json',
      JSON.stringify({ modified: 'yesterday' }),
    ]) {
      const res = await fetchAs(url, auth, { method: 'PUT', body: bad });
      expect(res.status, bad).toBe(400);
    }
    expect((await fetchAs(url, auth)).status).toBe(204);
    const manifest = await fetchAs(`/opds/v2.0/books/${books.Dune.id}/manifest`, auth);
    expect(manifest.status).toBe(422);

    const readOnly = await createApiKey({ basic: reader }, { name: 'ro', permissions: ['BooksRead', 'ProgressRead'] });
    const refused = await fetchAs(url, { apiKey: readOnly.key }, { method: 'PUT', body: body({ position: 1 }) });
    expect(refused.status).toBe(403);
    expect((await fetchAs(url, auth)).status).toBe(204);
  });
});
