/**
 * Issue 22 "Done when": Komelia opening an EPUB through Komga's Readium endpoints, replayed with the requests
 * and decoders of test/support/clients/komelia-epub.ts (komga-client, Komelia's TTSU and "Komga" readers):
 * manifest → positions → the first chapter's resources → progression PUT → the API's progress shows the
 * locator → another session's progression GET returns it. The EPUB is made here: nested folders, an entry
 * whose name needs percent-encoding (space, non-ASCII, '%'), a stylesheet, an image, a navigation document;
 * and an image-only EPUB, which Komga serves as DiViNa too.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { books, readProgress } from '../../src/db/schema';
import { db } from '../support/catalog-factory';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg, png } from '../fixtures/images';
import { buildZip } from '../fixtures/zip-writer';
import { createApiKey, setupAdmin } from '../support/factories';
import { api } from '../support/http';
import { KOMGA, komga } from '../support/komga';
import { KomeliaBook } from '../support/komga-client-dtos';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { KtorSession } from '../support/clients/client-http';
import {
  KomeliaR2Positions,
  KomeliaR2Progression,
  KomeliaWPPublication,
  komgaPositions,
  komgaResourceHref,
  komgaWebuiProgressionBody,
  komeliaResourceRequest,
  MEDIA_TYPES,
  PROFILES,
  ttsuChapterIndex,
  ttsuProgressionBody,
} from '../support/clients/komelia-epub';
import { selfTransport } from '../support/clients/self-transport';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const CHAPTER_ONE = 'OEBPS/Text/Part 1/Chapitre é 1.xhtml';
const CHAPTER_TWO = 'OEBPS/Text/Part2/ch2.xhtml';
const STYLESHEET = 'OEBPS/Styles/100% ç.css';
const FIGURE = 'OEBPS/Images/fig.png';

function chapter(title: string, bytes: number): string {
  const head = `<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title><link rel="stylesheet" href="../../Styles/100%25%20%C3%A7.css"/></head><body><h1 id="start">${title}</h1><img src="../../Images/fig.png"/><p>`;
  const tail = '</p></body></html>';
  return head + 'Words of the story. '.repeat(Math.ceil(bytes / 20)).slice(0, bytes - head.length - tail.length) + tail;
}

/** A reflowable EPUB 3 whose entries live in nested folders, one named with a space, an accent and a '%'. */
function novel(): { bytes: Uint8Array; entries: Record<string, Uint8Array> } {
  const entries: Record<string, Uint8Array> = {
    [CHAPTER_ONE]: encode(chapter('Chapitre un', 2500)),
    [CHAPTER_TWO]: encode(chapter('Chapter two', 5000)),
    [STYLESHEET]: encode('body { font-family: serif; }\nh1 { color: #333; }\n'),
    [FIGURE]: png(8, 6, 3),
  };
  const nav = `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
<body><nav epub:type="toc"><ol>
  <li><a href="Text/Part%201/Chapitre%20%C3%A9%201.xhtml#start"><span>Chapitre</span> un</a>
    <ol><li><a href="Text/Part2/ch2.xhtml">Chapter two</a></li></ol></li>
</ol></nav></body></html>`;
  const opf = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:10000000-0000-4000-8000-000000000001</dc:identifier>
    <dc:title>Le Roman</dc:title>
    <dc:creator>Jeanne Auteur</dc:creator>
    <dc:contributor id="t1">Tom Translator</dc:contributor>
    <meta refines="#t1" property="role" scheme="marc:relators">trl</meta>
    <dc:language>fr</dc:language>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="c1" href="Text/Part%201/Chapitre%20%C3%A9%201.xhtml" media-type="application/xhtml+xml"/>
    <item id="c2" href="Text/Part2/ch2.xhtml" media-type="application/xhtml+xml"/>
    <item id="css" href="Styles/100%25%20%C3%A7.css" media-type="text/css"/>
    <item id="fig" href="Images/fig.png" media-type="image/png"/>
  </manifest>
  <spine><itemref idref="c1"/><itemref idref="c2"/></spine>
</package>`;
  const container = `<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`;
  const bytes = buildZip([
    { name: 'mimetype', data: encode('application/epub+zip') },
    { name: 'META-INF/container.xml', data: encode(container), method: 'deflate' },
    { name: 'OEBPS/content.opf', data: encode(opf), method: 'deflate' },
    { name: 'OEBPS/nav.xhtml', data: encode(nav), method: 'deflate' },
    ...Object.entries(entries).map(([name, data]) => ({
      name,
      data,
      method: name.endsWith('.png') ? ('store' as const) : ('deflate' as const),
    })),
  ]);
  return { bytes, entries };
}

async function library() {
  const admin = await setupAdmin();
  const libraryId = await createLibrary(admin.auth, { name: 'Books', path: 'books' });
  const { bytes, entries } = novel();
  await putObject('books/Roman/Le Roman.epub', bytes);
  await putObject(
    'books/Pictures/Picture Book.epub',
    buildEpub({
      spine: [1, 2, 3].map((seed) => ({ kind: 'wrapper' as const, image: jpeg(40, 60, { seed }) })),
      metadataXml: '<dc:title>Picture Book</dc:title>',
    }),
  );
  await putObject('books/Comics/Comic 001.cbz', await makeCbz(2));
  await scan(admin.auth, libraryId);
  const books = (await api('/books?pageSize=50', { auth: admin.auth })).body.data as { id: string; title: string }[];
  const id = (title: string) => {
    const found = books.find((b) => b.title === title);
    if (!found) throw new Error(`${title} was not scanned: ${books.map((b) => b.title).join(', ')}`);
    return found.id;
  };
  return { admin, entries, novelId: id('Le Roman'), pictureId: id('Picture Book'), comicId: id('Comic 001') };
}

describe("Komelia's EPUB session over the Readium endpoints", () => {
  it('opens the EPUB, loads its first chapter, saves progression that the API and another session see', async () => {
    const { admin, entries, novelId } = await library();
    const key = (await createApiKey(admin.auth, { name: 'Komelia tablet' })).key;
    const komelia = new KtorSession(selfTransport({ auth: { apiKey: key, via: 'basic' } }));
    const bookPath = `/api/v1/books/${novelId}`;

    // The book: an EPUB for the EPUB reader (not DiViNa-compatible).
    const book = await komelia.json('book', { method: 'GET', path: bookPath }, KomeliaBook);
    expect(book.media.mediaProfile).toBe('EPUB');
    expect(book.media.epubDivinaCompatible).toBe(false);

    // Manifest: every href absolute under the server URL, entries Spring-encoded, nested folders kept.
    const manifestResponse = await komelia.send('manifest', {
      method: 'GET',
      path: `${bookPath}/manifest`,
      headers: { Accept: '*/*' },
    });
    expect(manifestResponse.headers.get('Content-Type')).toBe(MEDIA_TYPES.webpub);
    const manifest = await komelia.json(
      'manifest',
      { method: 'GET', path: `${bookPath}/manifest` },
      KomeliaWPPublication,
    );
    expect(manifest.metadata.title).toBe('Le Roman');
    expect(manifest.metadata.conformsTo).toBe(PROFILES.epub);
    expect(manifest.metadata.author).toEqual(['Jeanne Auteur']);
    expect(manifest.metadata.translator).toEqual(['Tom Translator']);
    expect(manifest.readingOrder?.map((l) => l.href)).toEqual([
      komgaResourceHref(KOMGA, novelId, CHAPTER_ONE),
      komgaResourceHref(KOMGA, novelId, CHAPTER_TWO),
    ]);
    expect(manifest.readingOrder?.[0]?.href).toContain('/resource/OEBPS/Text/Part%201/Chapitre%20%C3%A9%201.xhtml');
    expect(manifest.resources).toEqual(
      expect.arrayContaining([
        { href: komgaResourceHref(KOMGA, novelId, STYLESHEET), type: 'text/css' },
        { href: komgaResourceHref(KOMGA, novelId, FIGURE), type: 'image/png' },
      ]),
    );
    for (const link of [...manifest.links, ...(manifest.readingOrder ?? []), ...(manifest.resources ?? [])])
      expect(link.href?.startsWith(KOMGA)).toBe(true);
    expect(manifest.links.find((l) => l.rel === 'self')?.href).toBe(`${KOMGA}${bookPath}/manifest`);
    // TOC with titles (TTSU requires one per entry), fragments kept, nesting kept.
    expect(manifest.toc).toEqual([
      {
        title: 'Chapitre un',
        href: `${komgaResourceHref(KOMGA, novelId, CHAPTER_ONE)}#start`,
        children: [{ title: 'Chapter two', href: komgaResourceHref(KOMGA, novelId, CHAPTER_TWO) }],
      },
    ]);
    // /manifest/epub is the same document.
    const epubVariant = await komelia.json(
      'manifest',
      { method: 'GET', path: `${bookPath}/manifest/epub` },
      KomeliaWPPublication,
    );
    expect(epubVariant).toEqual(manifest);

    // Positions: Komga's algorithm over the uncompressed spine sizes, raw entry paths.
    const positionsResponse = await komelia.send('positions', { method: 'GET', path: `${bookPath}/positions` });
    expect(positionsResponse.headers.get('Content-Type')).toBe(MEDIA_TYPES.positionList);
    const positions = await komelia.json(
      'positions',
      { method: 'GET', path: `${bookPath}/positions` },
      KomeliaR2Positions,
    );
    const expected = komgaPositions([
      { entryPath: CHAPTER_ONE, mediaType: 'application/xhtml+xml', size: entries[CHAPTER_ONE]!.length },
      { entryPath: CHAPTER_TWO, mediaType: 'application/xhtml+xml', size: entries[CHAPTER_TWO]!.length },
    ]);
    expect(JSON.parse(decode(positionsResponse.bytes))).toEqual(expected);
    expect(positions.total).toBe(3 + 5);
    expect(book.media.pagesCount).toBe(positions.total);

    // The first chapter, then its stylesheet and image, as the webview asks for them through Komelia's proxy.
    for (const [href, entry] of [
      [manifest.readingOrder?.[0]?.href ?? '', CHAPTER_ONE],
      [komgaResourceHref(KOMGA, novelId, STYLESHEET), STYLESHEET],
      [komgaResourceHref(KOMGA, novelId, FIGURE), FIGURE],
    ] as const) {
      const { path, kind } = komeliaResourceRequest(KOMGA, href);
      expect(kind).toBe('resource');
      const resource = await komelia.send('chapters', { method: 'GET', path, headers: { Accept: '*/*' } });
      expect(resource.bytes).toEqual(entries[entry]);
      // Komga's two directives, and stricter (DECISIONS.md §Security): nothing from elsewhere, no forms, and a
      // sandbox that keeps the origin, so the reader page still lays the chapter out.
      const policy = resource.headers.get('Content-Security-Policy') ?? '';
      for (const directive of ["script-src 'none'", "object-src 'none'", 'sandbox allow-same-origin']) {
        expect(policy).toContain(directive);
      }
      expect(resource.headers.get('Cache-Control')).toBe('max-age=0, must-revalidate, private');
      expect(resource.headers.get('Last-Modified')).toBeTruthy();
    }

    // No progress yet: 204.
    expect((await komelia.send('progression', { method: 'GET', path: `${bookPath}/progression` })).status).toBe(204);

    // TTSU saves a bookmark 60% into chapter two.
    const body = ttsuProgressionBody({
      chapter: manifest.readingOrder?.[1] ?? {},
      chapterProgress: 0.6,
      beforeText: 'Words of the story.',
      modifiedMs: Date.parse('2026-03-01T10:00:00Z'),
      positions: positions.positions,
    });
    if (!body) throw new Error('TTSU would save nothing for chapter two');
    const put = await komelia.send('progression-put', {
      method: 'PUT',
      path: `${bookPath}/progression`,
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    expect(put.status).toBe(204);

    // The API shows the locator (href as sent) and attributes the progress to the key (Longbox's own device), the reader's device beside it.
    const progress = await api(`/books/${novelId}/progress`, { auth: admin.auth });
    expect(progress.status).toBe(200);
    const locator = JSON.parse(progress.body.locator);
    expect(locator.href).toBe(CHAPTER_TWO);
    expect(locator.locations.position).toBe(7);
    expect(locator.text.before).toBe('Words of the story.');
    expect(progress.body.currentPage).toBe(7);
    expect(progress.body.completed).toBe(false);
    const row = await db.select().from(readProgress).where(eq(readProgress.bookId, novelId)).get();
    expect(row).toMatchObject({ deviceName: 'Komelia tablet', readerDeviceId: 'unused', readerDeviceName: 'Komelia' });

    // Another session (Basic, no cookie) finds it and TTSU places the reader in chapter two.
    const other = new KtorSession(
      selfTransport({ auth: { basic: { username: 'admin', password: 'admin-password-1' } } }),
    );
    const progression = await other.json(
      'progression',
      { method: 'GET', path: `${bookPath}/progression` },
      KomeliaR2Progression,
    );
    expect(progression.device).toEqual({ id: 'unused', name: 'Komelia' });
    expect(progression.modified).toBe('2026-03-01T10:00:00Z');
    expect(progression.locator.href).toBe(CHAPTER_TWO);
    expect(progression.locator.locations?.totalProgression).toBe(Math.fround(7 / 8));
    expect(ttsuChapterIndex(manifest, progression)).toBe(1);

    // The "Komga" reader saves a place in chapter one, whose href stays percent-encoded as sent.
    const webui = komgaWebuiProgressionBody({
      href: manifest.readingOrder?.[0]?.href ?? '',
      type: 'application/xhtml+xml',
      locations: { progression: 0.5, position: 2, fragment: 'start' },
      modifiedMs: Date.parse('2026-03-01T11:00:00Z'),
    });
    await komelia.send('progression-put', {
      method: 'PUT',
      path: `${bookPath}/progression`,
      headers: { 'Content-Type': 'application/json' },
      body: webui,
    });
    const back = await other.json(
      'progression',
      { method: 'GET', path: `${bookPath}/progression` },
      KomeliaR2Progression,
    );
    expect(back.locator.href).toBe('OEBPS/Text/Part%201/Chapitre%20%C3%A9%201.xhtml');
    expect(back.device.name).toBe('Komga-webui');
    expect(ttsuChapterIndex(manifest, back)).toBe(0);

    // An older progression is refused (409) and changes nothing.
    const stale = await komga(`${bookPath}/progression`, {
      method: 'PUT',
      auth: admin.auth,
      json: JSON.parse(body),
    });
    expect(stale.status).toBe(409);
    expect(JSON.parse((await api(`/books/${novelId}/progress`, { auth: admin.auth })).body.locator).href).toBe(
      'OEBPS/Text/Part%201/Chapitre%20%C3%A9%201.xhtml',
    );
  });

  it('serves resources by their exact entry path, with revalidation, and refuses what is no resource', async () => {
    const { admin, entries, novelId, comicId } = await library();
    const path = `/api/v1/books/${novelId}/resource/${komgaResourceHref('', novelId, STYLESHEET).split('/resource/')[1]}`;
    const first = await komga(path, { auth: admin.auth });
    expect(first.status).toBe(200);
    expect(first.headers.get('Content-Type')).toBe('text/css');
    expect(first.headers.get('Content-Disposition')).toBe("inline; filename*=UTF-8''100%25%20%C3%A7.css");
    expect(first.bytes).toEqual(entries[STYLESHEET]);
    const again = await komga(path, {
      auth: admin.auth,
      headers: { 'If-Modified-Since': first.headers.get('Last-Modified') ?? '' },
    });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);

    expect(
      (await komga(`/api/v1/books/${novelId}/resource/OEBPS/Styles/missing.css`, { auth: admin.auth })).status,
    ).toBe(404);
    expect((await komga(`/api/v1/books/${novelId}/resource/OEBPS/content.opf`, { auth: admin.auth })).status).toBe(404);
    expect((await komga(`/api/v1/books/${comicId}/resource/ComicInfo.xml`, { auth: admin.auth })).status).toBe(400);
    expect((await komga(`/api/v1/books/${comicId}/manifest/epub`, { auth: admin.auth })).status).toBe(400);
    expect((await komga(path)).status).toBe(401);
    // A user who cannot see the book gets 404, never its bytes.
    expect(
      (await komga(`/api/v1/books/00000000-0000-4000-8000-000000000000/manifest`, { auth: admin.auth })).status,
    ).toBe(404);
  });

  it("serves an EPUB's fonts without credentials, as Komga does, and nothing else; signed-in callers keep their access rules", async () => {
    const admin = await setupAdmin();
    const libraryId = await createLibrary(admin.auth, { name: 'Typeset', path: 'typeset' });
    const font = new Uint8Array([0x77, 0x4f, 0x46, 0x32, ...new Array(60).fill(7)]); // 'wOF2' and some bytes
    const opf = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:20000000-0000-4000-8000-000000000002</dc:identifier><dc:title>Typeset</dc:title></metadata>
  <manifest>
    <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
    <item id="font" href="Fonts/Serif%20R%C3%A9.woff2" media-type="font/woff2"/>
    <item id="old" href="Fonts/old.ttf" media-type="application/x-font-ttf"/>
    <item id="map" href="Images/map.svg" media-type="image/svg+xml"/>
    <item id="css" href="style.css" media-type="text/css"/>
  </manifest>
  <spine><itemref idref="c1"/></spine>
</package>`;
    const container = `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;
    await putObject(
      'typeset/Typeset/Typeset.epub',
      buildZip([
        { name: 'mimetype', data: encode('application/epub+zip') },
        { name: 'META-INF/container.xml', data: encode(container) },
        { name: 'OEBPS/content.opf', data: encode(opf) },
        { name: 'OEBPS/c1.xhtml', data: encode(chapter('One', 1500)) },
        { name: 'OEBPS/Fonts/Serif Ré.woff2', data: font },
        { name: 'OEBPS/Fonts/old.ttf', data: font },
        { name: 'OEBPS/Images/map.svg', data: encode('<svg xmlns="http://www.w3.org/2000/svg"/>') },
        { name: 'OEBPS/style.css', data: encode('body { font-family: "Serif"; }') },
      ]),
    );
    await scan(admin.auth, libraryId);
    const [book] = (await api(`/books?library_id=${libraryId}`, { auth: admin.auth })).body.data;
    const resource = (path: string) => `/api/v1/books/${book.id}/resource/${path}`;
    const fontPath = resource('OEBPS/Fonts/Serif%20R%C3%A9.woff2');

    // An @font-face load: no Authorization, no cookie.
    const anonymous = await komga(fontPath);
    expect([anonymous.status, anonymous.headers.get('Content-Type')]).toEqual([200, 'font/woff2']);
    expect(anonymous.bytes).toEqual(font);
    expect((await komga(resource('OEBPS/Fonts/old.ttf'))).status).toBe(200);
    // Only fonts: a stylesheet, an SVG image, the package document, a chapter, another book's id, a font path
    // under an unknown book all get the 401 of any request without credentials.
    for (const path of ['OEBPS/style.css', 'OEBPS/Images/map.svg', 'OEBPS/content.opf', 'OEBPS/c1.xhtml']) {
      const refused = await komga(resource(path));
      expect(refused.status, path).toBe(401);
      expect(refused.headers.get('WWW-Authenticate')).toContain('Basic');
    }
    expect(
      (await komga(`/api/v1/books/00000000-0000-4000-8000-000000000000/resource/OEBPS/Fonts/old.ttf`)).status,
    ).toBe(401);
    expect((await komga(`/api/v1/books/${book.id}/manifest`)).status).toBe(401);

    // With credentials the usual rules hold: a reader who may not see the library gets the 404 of an unknown
    // book for its font too (the access matrix's rule), the admin gets the font.
    const reader = await api('/users', {
      auth: admin.auth,
      json: {
        username: 'shut-out',
        email: 'shut-out@example.com',
        password: 'reader-password-1',
        role: 'reader',
        sharedLibraryIds: [],
      },
    });
    expect(reader.status).toBe(201);
    const readerAuth = { basic: { username: 'shut-out', password: 'reader-password-1' } };
    expect((await komga(fontPath, { auth: readerAuth })).status).toBe(404);
    expect((await komga(fontPath, { auth: admin.auth })).status).toBe(200);
  });

  it('refuses progressions that name no entry, lack a progression, or are malformed', async () => {
    const { admin, novelId } = await library();
    const put = (json: unknown) =>
      komga(`/api/v1/books/${novelId}/progression`, { method: 'PUT', auth: admin.auth, json });
    const at = '2026-03-01T10:00:00Z';
    expect(
      (
        await put({
          modified: at,
          device: { id: 'd', name: 'n' },
          locator: { href: 'nope.xhtml', locations: { progression: 0.1 } },
        })
      ).status,
    ).toBe(400);
    expect(
      (await put({ modified: at, device: { id: 'd', name: 'n' }, locator: { href: CHAPTER_TWO, locations: {} } }))
        .status,
    ).toBe(400);
    expect((await put({ modified: 'yesterday', locator: { href: CHAPTER_TWO } })).status).toBe(400);
    expect(
      (
        await put({
          modified: at,
          device: { id: 'd', name: 'n' },
          locator: { href: CHAPTER_TWO, locations: { progression: 2 } },
        })
      ).status,
    ).toBe(400);
    expect((await api(`/books/${novelId}/progress`, { auth: admin.auth })).status).toBe(404);
    // A reader that sends the manifest href whole (not stripped as Komelia does) names the same entry.
    const whole = await put({
      modified: at,
      device: { id: 'd', name: 'Web' },
      locator: { href: komgaResourceHref(KOMGA, novelId, CHAPTER_TWO), locations: { progression: 0.5 } },
    });
    expect(whole.status).toBe(204);
    expect(JSON.parse((await api(`/books/${novelId}/progress`, { auth: admin.auth })).body.locator).href).toBe(
      komgaResourceHref(KOMGA, novelId, CHAPTER_TWO),
    );
    // Progress made elsewhere (the API) reads back as the position of its page.
    await api(`/books/${novelId}/progress`, { method: 'DELETE', auth: admin.auth });
    await api(`/books/${novelId}/progress`, {
      method: 'PUT',
      auth: admin.auth,
      json: { current_page: 4, is_completed: false },
    });
    const progression = await komga(`/api/v1/books/${novelId}/progression`, { auth: admin.auth });
    expect(progression.status).toBe(200);
    expect(progression.body.locator.href).toBe(CHAPTER_TWO);
    expect(progression.body.locator.locations.position).toBe(4);
  });
});

describe('an EPUB analysed before the Readium index was stored', () => {
  it('gets its index built once, on the first Readium request, and recorded', async () => {
    const { admin, entries, novelId } = await library();
    await db.update(books).set({ readiumIndex: null }).where(eq(books.id, novelId));
    const manifest = await komga(`/api/v1/books/${novelId}/manifest`, { auth: admin.auth });
    expect(manifest.status).toBe(200);
    expect(manifest.body.readingOrder).toHaveLength(2);
    const stored = await db.select({ index: books.readiumIndex }).from(books).where(eq(books.id, novelId)).get();
    expect(stored?.index).toMatchObject({ version: 1, spine: expect.any(Array) });
    const chapter = await komga(manifest.body.readingOrder[1].href.slice(KOMGA.length), { auth: admin.auth });
    expect(chapter.bytes).toEqual(entries[CHAPTER_TWO]);
  });
});

describe('an image-only EPUB', () => {
  it('is DiViNa-compatible: EPUB manifest with a DiViNa link, the DiViNa manifest reads its pages', async () => {
    const { admin, pictureId, comicId } = await library();
    const book = await komga(`/api/v1/books/${pictureId}`, { auth: admin.auth });
    expect(book.body.media.epubDivinaCompatible).toBe(true);
    const manifest = await komga(`/api/v1/books/${pictureId}/manifest`, { auth: admin.auth });
    expect(manifest.headers.get('Content-Type')).toBe(MEDIA_TYPES.webpub);
    expect(manifest.body.links).toContainEqual({
      href: `${KOMGA}/api/v1/books/${pictureId}/manifest/divina`,
      type: MEDIA_TYPES.divina,
    });
    const divina = await komga(`/api/v1/books/${pictureId}/manifest/divina`, { auth: admin.auth });
    expect(divina.headers.get('Content-Type')).toBe(MEDIA_TYPES.divina);
    expect(divina.body.metadata.conformsTo).toBe(PROFILES.divina);
    const hrefs = (divina.body.readingOrder as { href: string }[]).map((l) => l.href);
    expect(hrefs).toEqual([1, 2, 3].map((n) => `${KOMGA}/api/v1/books/${pictureId}/pages/${n}`));
    const page = await komga(hrefs[1]!.slice(KOMGA.length), { auth: admin.auth });
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toBe('image/jpeg');

    // Progression by position, as for comics.
    const put = await komga(`/api/v1/books/${pictureId}/progression`, {
      method: 'PUT',
      auth: admin.auth,
      json: {
        modified: '2026-03-01T10:00:00Z',
        device: { id: 'x', name: 'Reader' },
        locator: { href: hrefs[2], locations: { position: 3 } },
      },
    });
    expect(put.status).toBe(204);
    const progress = await api(`/books/${pictureId}/progress`, { auth: admin.auth });
    expect(progress.body.currentPage).toBe(3);
    expect(progress.body.completed).toBe(true);

    // A comic's /manifest is its DiViNa manifest.
    const comic = await komga(`/api/v1/books/${comicId}/manifest`, { auth: admin.auth });
    expect(comic.headers.get('Content-Type')).toBe(MEDIA_TYPES.divina);
    expect(comic.body.readingOrder).toHaveLength(2);
  });
});
