/**
 * Issue 29 point 4: a book's words reach browsers as words. Markup and script in every ComicInfo and OPF
 * text field are stored and served as the text they are (JSON, and OPDS feeds a browser may open, where an
 * XHTML-namespaced `<script>` in a title must stay text); web links are http(s) only — a `javascript:` or
 * `data:` link is dropped at scan and refused at every write (/api/v1 and Komf's /komga PATCH) with a 400
 * naming the field; a hostile file name cannot break out of `Content-Disposition`; an error that echoes
 * its input is JSON that no browser runs. The browser half — nothing runs on any screen — is
 * test/e2e/hostile-books.test.ts.
 */
import { DOMParser } from '@xmldom/xmldom';
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { hostileCbz, hostileEpub } from '../fixtures/hostile-books';
import { setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';
import { komga } from '../support/komga';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';

const EXFIL = 'https://exfil.invalid';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

async function hostileLibrary() {
  const { auth } = await setupAdmin();
  const libraryId = await createLibrary(auth);
  await putObject('comics/Hostile comic/Hostile comic 1.cbz', hostileCbz(EXFIL));
  await putObject('comics/Hostile EPUB/Hostile.epub', hostileEpub(EXFIL));
  await scan(auth, libraryId);
  const books = (await api('/books', { auth })).body.data as Array<{ id: string; title: string; seriesId: string }>;
  const comic = books.find((book) => book.title.startsWith('Hostile comic'))!;
  const epub = books.find((book) => book.title.startsWith('Hostile EPUB'))!;
  return { auth, comic, epub };
}

const get = (path: string, auth: Credentials) =>
  SELF.fetch(`http://longbox.test${path}`, {
    headers: 'token' in (auth ?? {}) ? { Authorization: `Bearer ${(auth as { token: string }).token}` } : {},
  });

describe('a book’s words reach browsers as words (issue 29 point 4)', () => {
  it('keeps markup and script in ComicInfo and OPF fields as text, and drops javascript: and data: links at scan', async () => {
    const { auth, comic, epub } = await hostileLibrary();
    const book = (await api(`/books/${comic.id}`, { auth })).body;
    expect(book.title).toMatch(/^Hostile comic Title <script>/);
    const metadata = (await api(`/books/${comic.id}/metadata`, { auth })).body;
    expect(metadata.summary).toContain('<img src=x onerror=');
    const authors = metadata.authors as Array<{ name: string; role: string }>;
    expect(new Set(authors.map((author) => author.role))).toEqual(new Set(['penciller', 'writer']));
    expect(authors.some((author) => author.name.startsWith('Writer <script>'))).toBe(true);
    // The ComicInfo Web list held a javascript:, a data: and one real link: only the real one is kept.
    expect(metadata.links).toEqual([{ label: 'example.org', url: 'https://example.org/comic' }]);
    const novel = (await api(`/books/${epub.id}`, { auth })).body;
    expect(novel.title).toMatch(/^Hostile EPUB title <script>/);
  });

  it('refuses a javascript: or data: link at every write, with a 400 naming the field', async () => {
    const { auth, comic } = await hostileLibrary();
    for (const url of [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      'data:text/html,<script>x</script>',
    ]) {
      const links = [{ label: 'Read more', url }];
      const book = expectError(
        await api(`/books/${comic.id}/metadata`, { auth, method: 'PATCH', json: { links } }),
        400,
        'BadRequest',
      );
      expect(book.details).toEqual([{ path: 'links.0.url', message: 'must be an http or https address' }]);
      const series = expectError(
        await api(`/series/${comic.seriesId}/metadata`, { auth, method: 'PATCH', json: { links } }),
        400,
        'BadRequest',
      );
      expect(series.details).toEqual([{ path: 'links.0.url', message: 'must be an http or https address' }]);
      // Komf writes links through Komga's PATCH.
      for (const path of [`/api/v1/books/${comic.id}/metadata`, `/api/v1/series/${comic.seriesId}/metadata`]) {
        const refused = await komga(path, { auth, method: 'PATCH', json: { links } });
        expect(refused.status, path).toBe(400);
        expect(refused.body.message).toBe('Invalid request body: links.0.url: must be an http or https address');
      }
    }
    expect((await api(`/books/${comic.id}/metadata`, { auth })).body.links).toEqual([
      { label: 'example.org', url: 'https://example.org/comic' },
    ]);
    const fine = [{ label: 'Publisher', url: 'https://example.org/p' }];
    expect((await api(`/books/${comic.id}/metadata`, { auth, method: 'PATCH', json: { links: fine } })).status).toBe(
      200,
    );
    expect(
      (await komga(`/api/v1/series/${comic.seriesId}/metadata`, { auth, method: 'PATCH', json: { links: fine } }))
        .status,
    ).toBe(204);
  });

  it('writes hostile titles into OPDS feeds as text: no XHTML element, no script, even opened in a browser', async () => {
    const { auth, comic, epub } = await hostileLibrary();
    for (const path of [
      `/opds/v1.2/series/${comic.seriesId}`,
      `/opds/v1.2/series/${epub.seriesId}`,
      '/opds/v1.2/search/books?query=Hostile',
    ]) {
      const response = await get(path, auth);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('Content-Security-Policy'), path).toMatch(/script-src 'none'.*sandbox/);
      const xml = await response.text();
      const errors: string[] = [];
      const doc = new DOMParser({
        onError: (level, message) => void errors.push(`${level}: ${message}`),
      }).parseFromString(xml, 'application/xml');
      expect(errors, path).toEqual([]);
      // Every element is Atom's, OPDS's, Dublin Core's or page streaming's: nothing a browser renders as HTML.
      const namespaces = new Set<string>();
      const walk = (node: { childNodes?: ArrayLike<any>; namespaceURI?: string | null; nodeType: number }) => {
        if (node.nodeType === 1) namespaces.add(node.namespaceURI ?? '');
        for (const child of Array.from(node.childNodes ?? [])) walk(child);
      };
      walk(doc.documentElement as never);
      expect(
        [...namespaces].filter((ns) => ns === XHTML_NS || ns === 'http://www.w3.org/2000/svg'),
        path,
      ).toEqual([]);
      expect(doc.getElementsByTagNameNS(XHTML_NS, 'script').length, path).toBe(0);
      const titles = Array.from(doc.getElementsByTagName('title')).map((title) => title.textContent ?? '');
      expect(
        titles.some((title) => title.includes('<x:script xmlns:x="http://www.w3.org/1999/xhtml">')),
        path,
      ).toBe(true);
    }
  });

  it('keeps a hostile file name inside Content-Disposition', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    const name = 'Evil"; filename=evil.html; x=<script>alert(1)<\\script>\u202e.cbz';
    await putObject(`comics/Evil/${name}`, await makeCbz(1));
    await scan(auth, libraryId);
    const id = (await api('/books', { auth })).body.data[0].id as string;
    const response = await get(`/api/v1/books/${id}/file`, auth);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const disposition = response.headers.get('Content-Disposition') ?? '';
    // One attachment, two parameters: the quoted ASCII name cannot close its quotes or start a parameter.
    const match = /^attachment; filename="([^"]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]+)$/.exec(disposition);
    expect(match, disposition).not.toBeNull();
    expect(match![1]).not.toMatch(/[";\\]/);
    expect(decodeURIComponent(match![2]!)).toBe(name.replace('\\', '_'));
  });

  it('answers input echoed in an error as JSON that no browser runs', async () => {
    const { auth } = await setupAdmin();
    const payload = encodeURIComponent('<script>alert(1)</script>');
    for (const path of [`/api/v1/books/${payload}`, `/api/v1/series?sort=${payload}`, `/komga/api/v1/${payload}`]) {
      const response = await get(path, auth);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('Content-Type'), path).toMatch(/^application\/json/);
      expect(response.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      expect(response.headers.get('Content-Security-Policy'), path).toMatch(/default-src 'none'.*sandbox/);
      await response.arrayBuffer();
    }
  });
});
