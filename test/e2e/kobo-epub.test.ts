/**
 * What a Kobo downloads, checked by the tools that judge EPUBs (issue 34 "Done when"; DECISIONS.md §Kobo
 * e-readers, comics): against a real `wrangler dev`, a device's calls (sync, then the download URLs the sync
 * gave) fetch an EPUB and a CBZ and a CBR made into fixed-layout EPUBs; EPUBCheck finds no error in any of
 * them, and foliate-js (the web app's EPUB engine) opens the comic in Chromium as a pre-paginated book whose
 * pages show the archive's images.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg, png } from '../fixtures/images';
import { writeRar4 } from '../fixtures/rar-writer';
import { buildZip } from '../fixtures/zip-writer';
import { type LongboxServer, startServer } from '../support/dev-server';
import { epubcheck, epubcheckErrors, HAS_EPUBCHECK, MISSING_EPUBCHECK } from '../support/epubcheck';
import { call, createLibrary, type Session, scanAndWait, setupAdmin, uploadBook } from './support/api';
import { chromiumPath, launchBrowser, MISSING_CHROMIUM } from './support/browser';

const MODULES = path.resolve(import.meta.dirname, '../../node_modules');
const FOLIATE = path.join(MODULES, 'foliate-js');
/** The one bare import foliate-js makes (fixed-layout.js), resolved as the web app's bundler resolves it. */
const POLYFILL = path.join(MODULES, 'construct-style-sheets-polyfill/dist/adoptedStyleSheets.js');
const CBZ_PAGES = [
  { name: '01.jpg', data: jpeg(64, 96, { seed: 1 }), method: 'store' as const },
  { name: '02.png', data: png(64, 96, 2), method: 'deflate' as const },
  { name: '03.jpg', data: jpeg(96, 64, { seed: 3 }), method: 'deflate' as const },
];
const EPUB = buildEpub({
  nav: true,
  spine: [
    { kind: 'text', bytes: 3000 },
    { kind: 'text', bytes: 3000 },
  ],
  metadataXml:
    '<dc:title>Dune</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>',
});

/** The device's calls, over real HTTP: the endpoint it is configured with, its headers. */
async function kobo(endpoint: string, pathOrUrl: string, token?: string) {
  const response = await fetch(pathOrUrl.startsWith('http') ? pathOrUrl : `${endpoint}${pathOrUrl}`, {
    headers: { Accept: 'application/json', ...(token ? { 'x-kobo-synctoken': token } : {}) },
  });
  if (!response.ok) throw new Error(`${pathOrUrl} → ${response.status}: ${await response.text()}`);
  return response;
}

describe('a Kobo’s downloads (issue 34)', () => {
  let server: LongboxServer;
  let admin: Session;
  let work: string;
  /** Downloaded files by title, and the comic's bytes. */
  const files = new Map<string, string>();

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'longbox-kobo-'));
    server = await startServer();
    admin = await setupAdmin(server.url);
    const library = await createLibrary(server.url, admin.token, 'Comics');
    await uploadBook(server.url, admin.token, library.id, 'Saga/Saga 001.cbz', buildZip(CBZ_PAGES));
    await uploadBook(
      server.url,
      admin.token,
      library.id,
      'Monstress/Monstress 001.cbr',
      writeRar4([1, 2].map((n) => ({ name: `${n}.jpg`, data: jpeg(80, 120, { seed: 10 + n }) }))),
    );
    await uploadBook(server.url, admin.token, library.id, 'Novels/Dune.epub', EPUB);
    await scanAndWait(server.url, admin.token, library.id);
    // A Kobo gets a book once its analysis is done (page sizes measured by the book-work consumers).
    for (let tries = 0; ; tries++) {
      const listed = await call(server.url, 'GET', '/books', { token: admin.token, query: { library_id: library.id } });
      if (listed.data.length === 3 && listed.data.every((b: { analyzed: boolean }) => b.analyzed)) break;
      if (tries > 240) throw new Error(`books not analysed: ${JSON.stringify(listed.data)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const key = await call(server.url, 'POST', '/api-keys', { token: admin.token, json: { name: 'Kobo Clara' } });
    const endpoint = `${server.url}/kobo/${key.key}`;
    await kobo(endpoint, '/v1/initialization');
    let token: string | undefined;
    const metadata: Array<{ Title: string; DownloadUrls: Array<{ Url: string; Size: number }> }> = [];
    for (let page = 0; page < 10; page++) {
      const response = await kobo(endpoint, '/v1/library/sync?Filter=ALL', token);
      token = response.headers.get('x-kobo-synctoken') ?? undefined;
      for (const item of await response.json())
        if (item.NewEntitlement) metadata.push(item.NewEntitlement.BookMetadata);
      if (response.headers.get('x-kobo-sync') !== 'continue') break;
    }
    for (const book of metadata) {
      const [url] = book.DownloadUrls;
      const bytes = new Uint8Array(await (await kobo(endpoint, url!.Url)).arrayBuffer());
      expect(bytes.length, book.Title).toBe(url!.Size);
      const file = path.join(work, `${book.Title}.epub`);
      writeFileSync(file, bytes);
      files.set(book.Title, file);
    }
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('downloads the EPUB as it is, and each comic as an EPUB', () => {
    expect([...files.keys()].sort()).toEqual(['Dune', 'Monstress 001', 'Saga 001']);
    expect(new Uint8Array(readFileSync(files.get('Dune') as string))).toEqual(EPUB);
  });

  if (!HAS_EPUBCHECK) console.warn(MISSING_EPUBCHECK);
  it.skipIf(!HAS_EPUBCHECK)('EPUBCheck finds no error in the EPUB, the CBZ-as-EPUB or the CBR-as-EPUB', () => {
    for (const [title, file] of files) {
      expect(epubcheckErrors(epubcheck(file)), title).toEqual([]);
    }
  });

  if (!chromiumPath) console.warn(MISSING_CHROMIUM);
  it.skipIf(!chromiumPath)(
    'opens in foliate-js in Chromium as a pre-paginated book showing the comic’s pages',
    async () => {
      let browser: Browser | undefined;
      try {
        browser = await launchBrowser();
        const page = await browser.newPage();
        const origin = 'http://foliate.test';
        await page.route(`${origin}/**`, async (route) => {
          const { pathname } = new URL(route.request().url());
          if (pathname === '/') {
            // foliate-js's view defines <foliate-view> when its module loads.
            const body = `<!doctype html><html><head><script type="importmap">
            {"imports": {"construct-style-sheets-polyfill": "/polyfill.js"}}</script></head><body>
            <script type="module">import '/foliate/view.js'; window.foliateLoaded = true;</script></body></html>`;
            return route.fulfill({ contentType: 'text/html', body });
          }
          if (pathname === '/book.epub') {
            return route.fulfill({
              contentType: 'application/epub+zip',
              body: readFileSync(files.get('Saga 001') as string),
            });
          }
          if (pathname === '/polyfill.js')
            return route.fulfill({ contentType: 'text/javascript', body: readFileSync(POLYFILL) });
          const file = path.join(FOLIATE, path.normalize(pathname.replace(/^\/foliate\//, '')));
          if (!file.startsWith(FOLIATE)) return route.fulfill({ status: 404 });
          return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) });
        });
        await page.goto(`${origin}/`);
        await page.waitForFunction(() => (window as unknown as { foliateLoaded?: boolean }).foliateLoaded === true);
        const opened = await page.evaluate(async () => {
          const blob = await (await fetch('/book.epub')).blob();
          const view = document.createElement('foliate-view') as HTMLElement & {
            open(file: File): Promise<void>;
            goTo(target: number): Promise<void>;
            book: { sections: unknown[]; rendition?: { layout?: string }; metadata?: { title?: string } };
            isFixedLayout: boolean;
            renderer: { getContents(): Array<{ doc: Document }> };
          };
          view.style.cssText = 'display:block;width:600px;height:800px';
          document.body.append(view);
          await view.open(new File([blob], 'book.epub', { type: 'application/epub+zip' }));
          await view.goTo(0);
          // The first page's image, once loaded.
          for (let tries = 0; tries < 100; tries++) {
            const images = view.renderer
              .getContents()
              .flatMap(({ doc }) => [...(doc?.querySelectorAll('img') ?? [])]) as HTMLImageElement[];
            const loaded = images.filter((image) => image.complete && image.naturalWidth > 0);
            if (loaded.length > 0) {
              return {
                sections: view.book.sections.length,
                layout: view.book.rendition?.layout,
                fixed: view.isFixedLayout,
                title: view.book.metadata?.title,
                // foliate-js loads the EPUB's resources as blobs.
                image: {
                  blob: loaded[0]!.src.startsWith('blob:'),
                  width: loaded[0]!.naturalWidth,
                  height: loaded[0]!.naturalHeight,
                },
              };
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          throw new Error('no page image loaded');
        });
        expect(opened).toEqual({
          sections: 3,
          layout: 'pre-paginated',
          fixed: true,
          title: 'Saga 001',
          // The first page: the CBZ's 64×96 JPEG.
          image: { blob: true, width: 64, height: 96 },
        });
      } finally {
        await browser?.close();
      }
    },
  );
});

describe('a Kobo’s comics redrawn for its screen (LONGBOX_KOBO__PAGE_SIZE)', () => {
  let server: LongboxServer;
  let work: string;
  let epub: Uint8Array;
  const originals = { large: Buffer.alloc(0), small: png(40, 50, 7), webp: Buffer.alloc(0) };

  beforeAll(async () => {
    const sharp = (await import('sharp')).default;
    originals.large = await sharp({ create: { width: 120, height: 160, channels: 3, background: '#c84' } })
      .jpeg()
      .toBuffer();
    originals.webp = await sharp({ create: { width: 90, height: 120, channels: 3, background: '#48c' } })
      .webp()
      .toBuffer();
    work = mkdtempSync(path.join(tmpdir(), 'longbox-kobo-fit-'));
    server = await startServer({ vars: { LONGBOX_KOBO__PAGE_SIZE: '60x80' } });
    const admin = await setupAdmin(server.url);
    const library = await createLibrary(server.url, admin.token, 'Manga');
    const cbz = buildZip([
      { name: '1.jpg', data: new Uint8Array(originals.large) },
      { name: '2.png', data: originals.small },
      { name: '3.webp', data: new Uint8Array(originals.webp) },
    ]);
    await uploadBook(server.url, admin.token, library.id, 'Berserk/Berserk 001.cbz', cbz);
    await scanAndWait(server.url, admin.token, library.id);
    for (let tries = 0; ; tries++) {
      const listed = await call(server.url, 'GET', '/books', { token: admin.token, query: { library_id: library.id } });
      if (listed.data[0]?.analyzed) break;
      if (tries > 240) throw new Error(`book not analysed: ${JSON.stringify(listed.data)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const key = await call(server.url, 'POST', '/api-keys', { token: admin.token, json: { name: 'Kobo Sage' } });
    const endpoint = `${server.url}/kobo/${key.key}`;
    const items = await (await kobo(endpoint, '/v1/library/sync?Filter=ALL')).json();
    const url = items.find((item: { NewEntitlement?: unknown }) => item.NewEntitlement).NewEntitlement.BookMetadata
      .DownloadUrls[0].Url as string;
    const first = await kobo(endpoint, url);
    epub = new Uint8Array(await first.arrayBuffer());
    // Once drawn, the pages are kept: the second download has a length and answers ranges.
    const tail = await fetch(url, { headers: { Range: 'bytes=-100' } });
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(epub.subarray(epub.length - 100));
    writeFileSync(path.join(work, 'fit.epub'), epub);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('draws larger pages and pages no EPUB shows as JPEGs within the box, and copies the others', async () => {
    const sharp = (await import('sharp')).default;
    const { unzipSync } = await import('fflate');
    const files = unzipSync(epub);
    const size = async (bytes: Uint8Array | undefined) => {
      const meta = await sharp(Buffer.from(bytes ?? new Uint8Array())).metadata();
      return [meta.format, meta.width, meta.height];
    };
    expect(await size(files['OEBPS/images/page-0001.jpg'])).toEqual(['jpeg', 60, 80]);
    expect(files['OEBPS/images/page-0002.png']).toEqual(originals.small);
    expect(await size(files['OEBPS/images/page-0003.jpg'])).toEqual(['jpeg', 60, 80]);
    const page = new TextDecoder().decode(files['OEBPS/page-0001.xhtml']);
    expect(page).toContain('content="width=60, height=80"');
  });

  it.skipIf(!HAS_EPUBCHECK)('passes EPUBCheck', () => {
    expect(epubcheckErrors(epubcheck(path.join(work, 'fit.epub')))).toEqual([]);
  });
});
