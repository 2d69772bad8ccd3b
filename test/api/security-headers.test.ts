/**
 * Issue 29 "Done when": the headers of DECISIONS.md §Security on every kind of answer — the web app's page
 * and files under the app's policy; everything else (API JSON, errors, 404s, page images, thumbnails, book
 * files, OPDS feeds and page streaming, KOReader, /komga) with a policy that runs no script and sandboxes
 * the document (a Kobo's sync, downloads and covers too: the device reads them as data and never minds); /komga's EPUB resources with their own, which keeps the origin for Readium navigators; and
 * `X-Content-Type-Options: nosniff` and the referrer policy on all of them.
 */
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { buildZip } from '../fixtures/zip-writer';
import { png } from '../fixtures/images';
import { createApiKey, setupAdmin } from '../support/factories';
import { authHeaders, type Credentials } from '../support/http';
import { KoboDevice } from '../support/kobo-device';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const encode = (text: string) => new TextEncoder().encode(text);

/** The policy's directives by name (`sandbox` → ''). */
function directives(policy: string | null): Map<string, string> {
  expect(policy, 'a Content-Security-Policy').toBeTruthy();
  return new Map(
    policy!
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const space = part.indexOf(' ');
        return space < 0 ? [part, ''] : [part.slice(0, space), part.slice(space + 1)];
      }),
  );
}

function expectCommonHeaders(response: Response, label: string): void {
  expect(response.headers.get('X-Content-Type-Options'), label).toBe('nosniff');
  expect(response.headers.get('Referrer-Policy'), label).toBe('same-origin');
}

/** The data policy: no script, no plugin, no form, a sandbox with an origin of its own. */
function expectDataPolicy(response: Response, label: string): void {
  expectCommonHeaders(response, label);
  const policy = directives(response.headers.get('Content-Security-Policy'));
  expect(policy.get('default-src'), label).toBe("'none'");
  expect(policy.get('script-src'), label).toBe("'none'");
  expect(policy.get('object-src'), label).toBe("'none'");
  expect(policy.get('form-action'), label).toBe("'none'");
  expect(policy.get('sandbox'), label).toBe('');
}

const get = (path: string, auth?: Credentials, headers: Record<string, string> = {}) =>
  SELF.fetch(`http://longbox.test${path}`, { headers: { ...authHeaders(auth), ...headers } });

/** A comic and a reflowable EPUB with a stylesheet and an image, scanned into one library. */
async function library() {
  const { auth } = await setupAdmin();
  const libraryId = await createLibrary(auth);
  await putObject('comics/Alpha/Alpha 001.cbz', await makeCbz(2));
  const chapter = `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title><link rel="stylesheet" href="style.css"/></head>
<body><h1>One</h1><img src="fig.png" alt=""/><p>Words.</p></body></html>`;
  const opf = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:20000000-0000-4000-8000-000000000002</dc:identifier>
    <dc:title>Prose</dc:title><dc:language>en</dc:language>
  </metadata>
  <manifest>
    <item id="c1" href="one.xhtml" media-type="application/xhtml+xml"/>
    <item id="css" href="style.css" media-type="text/css"/>
    <item id="fig" href="fig.png" media-type="image/png"/>
  </manifest>
  <spine><itemref idref="c1"/></spine>
</package>`;
  await putObject(
    'comics/Prose/Prose.epub',
    buildZip([
      { name: 'mimetype', data: encode('application/epub+zip') },
      {
        name: 'META-INF/container.xml',
        data: encode(
          '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
        ),
      },
      { name: 'OEBPS/content.opf', data: encode(opf) },
      { name: 'OEBPS/one.xhtml', data: encode(chapter) },
      { name: 'OEBPS/style.css', data: encode('body { color: #222; }') },
      { name: 'OEBPS/fig.png', data: png(4, 4, 1) },
    ]),
  );
  const done = await scan(auth, libraryId);
  // A Kobo is offered only analysed books (page count known), and analysis runs on the queue after the scan.
  await waitForTasks(auth, libraryId, { since: done.completedAt ?? '' });
  const books = (await (await get('/api/v1/books', auth)).json()) as { data: Array<{ id: string; title: string }> };
  const comic = books.data.find((book) => book.title !== 'Prose')!;
  const epub = books.data.find((book) => book.title === 'Prose')!;
  return { auth, comic, epub };
}

describe('security headers on every answer (DECISIONS.md §Security)', () => {
  it('puts the app page and every app file under the app policy: own scripts only, never framed', async () => {
    for (const path of ['/', '/read/abc', '/series/x', '/manifest.webmanifest', '/sw.js']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expectCommonHeaders(response, path);
      const policy = directives(response.headers.get('Content-Security-Policy'));
      expect(policy.get('default-src'), path).toBe("'self'");
      expect(policy.get('script-src'), path).toBe("'self'");
      expect(policy.get('connect-src'), path).toBe("'self'");
      expect(policy.get('object-src'), path).toBe("'none'");
      expect(policy.get('base-uri'), path).toBe("'none'");
      expect(policy.get('frame-ancestors'), path).toBe("'none'");
      expect(policy.get('worker-src'), path).toBe("'self'");
      // The EPUB reader's sections are blob: documents; nothing else may be framed.
      expect(policy.get('frame-src'), path).toBe('blob:');
      await response.arrayBuffer();
    }
    const html = await (await get('/')).text();
    // No inline script for the policy to forbid: every <script> names its file.
    expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g) ?? []).toEqual([]);
  });

  it('gives API JSON, errors and 404s the data policy', async () => {
    const { auth } = await library();
    for (const [path, credentials, status] of [
      ['/api/v1/books', auth, 200],
      ['/api/v1/books', undefined, 401],
      ['/api/v1/books/00000000-0000-4000-8000-000000000000', auth, 404],
      ['/api/v1/books/not-a-book', auth, 400],
      ['/api/v1/nowhere', undefined, 404],
      ['/assets/gone-1234.js', undefined, 404],
    ] as const) {
      const response = await get(path, credentials);
      expect(response.status, path).toBe(status);
      expectDataPolicy(response, `${path} (${status})`);
      await response.arrayBuffer();
    }
  });

  it("sandboxes the API's media: page images, thumbnails, the book file", async () => {
    // `library()` used these credentials already: each request below starts its handler before its credential
    // check (middleware/caller.ts), and the answer that handler made is given these headers all the same.
    const { auth, comic, epub } = await library();
    for (const path of [
      `/api/v1/books/${comic.id}/pages/1`,
      `/api/v1/books/${comic.id}/pages/1?width=40`,
      `/api/v1/books/${comic.id}/thumbnail`,
      `/api/v1/books/${comic.id}/file`,
      `/api/v1/books/${epub.id}/file`,
      `/api/v1/books/${epub.id}/thumbnail`,
    ]) {
      const response = await get(path, auth);
      expect(response.status, path).toBe(200);
      expectDataPolicy(response, path);
      await response.arrayBuffer();
    }
  });

  it('sandboxes OPDS feeds, page streaming and KOReader', async () => {
    const { auth, comic } = await library();
    for (const path of [
      '/opds/v1.2/catalog',
      '/opds/v2.0/catalog',
      `/opds/v1.2/books/${comic.id}/pages/0`,
      '/opds/v1.2/catalog?no-credentials',
      '/koreader/healthcheck',
      '/koreader/users/auth',
    ]) {
      const credentials = path.endsWith('no-credentials') ? undefined : auth;
      // KOReader's own Accept header, or its routes refuse the request before anything else (412).
      const response = await get(path, credentials, { Accept: 'application/vnd.koreader.v1+json' });
      expect([200, 401], path).toContain(response.status);
      expectDataPolicy(response, path);
      await response.arrayBuffer();
    }
  });

  it('sandboxes what a Kobo gets: its JSON, the EPUB and the comic as EPUB it downloads, covers', async () => {
    const { auth, comic, epub } = await library();
    const device = new KoboDevice((await createApiKey(auth, { name: 'Kobo Clara' })).key);
    await device.connect();
    await device.sync();
    const sync = await device.call('GET', '/v1/library/sync');
    expect(sync.status).toBe(200);
    expectDataPolicy(sync, 'sync');
    await sync.arrayBuffer();
    expect([...device.books.keys()].sort()).toEqual([comic.id, epub.id].sort());
    for (const book of [epub, comic]) {
      const { response, bytes } = await device.download(book.id);
      expect(response.status, book.title).toBe(200);
      expect(response.headers.get('Content-Type'), book.title).toBe('application/epub+zip');
      // The device saves the file; a browser given the address downloads it rather than showing it.
      expect(response.headers.get('Content-Disposition'), book.title).toMatch(/^attachment;/);
      expect(bytes.byteLength, book.title).toBe(Number(response.headers.get('Content-Length')));
      expectDataPolicy(response, `${book.title}'s download`);
    }
    const cover = await device.call('GET', `/v1/books/${comic.id}/thumbnail/120/160/false/image.jpg`);
    expect(cover.status).toBe(200);
    expectDataPolicy(cover, 'cover');
    await cover.arrayBuffer();
  });

  it("sandboxes /komga's JSON and images, and gives its EPUB resources a policy that keeps their origin", async () => {
    const { auth, comic, epub } = await library();
    for (const path of [
      '/komga/api/v1/books',
      `/komga/api/v1/books/${comic.id}/pages/1`,
      `/komga/api/v1/books/${comic.id}/thumbnail`,
      '/komga/api/v1/nowhere',
    ]) {
      const response = await get(path, auth);
      expect([200, 404], path).toContain(response.status);
      expectDataPolicy(response, path);
      await response.arrayBuffer();
    }
    for (const entry of ['OEBPS/one.xhtml', 'OEBPS/style.css', 'OEBPS/fig.png']) {
      const path = `/komga/api/v1/books/${epub.id}/resource/${entry}`;
      const response = await get(path, auth);
      expect(response.status, path).toBe(200);
      expectCommonHeaders(response, path);
      const policy = directives(response.headers.get('Content-Security-Policy'));
      expect(policy.get('script-src'), path).toBe("'none'");
      expect(policy.get('object-src'), path).toBe("'none'");
      expect(policy.get('form-action'), path).toBe("'none'");
      expect(policy.get('default-src'), path).toBe("'self' data:");
      expect(policy.get('sandbox'), path).toBe('allow-same-origin');
      await response.arrayBuffer();
    }
  });
});
