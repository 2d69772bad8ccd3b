/**
 * API.md §4 Pages and DECISIONS.md §Books: the page list and page images of scanned books, originals
 * byte for byte, resized/transcoded copies rendered once and cached per book version, validation of
 * every parameter, conditional requests, and the books whose pages cannot be served.
 */
import { env } from 'cloudflare:test';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_TABLE_TTL_MS } from '../../src/pages/page-table-cache';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { buildPdf } from '../fixtures/pdf-writer';
import { writeRar4, writeRar5 } from '../fixtures/rar-writer';
import { buildZip } from '../fixtures/zip-writer';
import { eventually } from '../support/eventually';
import { ADMIN, createApiKey, createUser, login, setupAdmin } from '../support/factories';
import { faultyWorker } from '../support/faults';
import { api, type Credentials, expectError } from '../support/http';
import { pngPage, putObject } from '../support/library-files';
import { booksByFileName, fetchRaw, imageKind, imageSize, sameBytes } from '../support/media';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

afterEach(() => vi.useRealTimers());

/** Reads an original page until the edge cache answers it (the cache is filled after the first response). */
async function originalIsEdgeCached(auth: Credentials, bookId: string, page: number) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await fetchRaw(pageUrl(bookId, page), { auth });
    if (response.headers.get('X-Longbox-Cache') === 'hit') return response;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`page ${page} of ${bookId} never came from the edge cache`);
}

interface Library {
  auth: Credentials;
  libraryId: string;
  books: Record<string, any>;
  pages: Uint8Array[];
  jpegPages: Uint8Array[];
}

/** A CBZ of three 60×90 PNG pages (the second deflated), a CBZ of 400×600 JPEG pages, a broken file. */
async function scannedLibrary(): Promise<Library> {
  const { auth } = await setupAdmin();
  const libraryId = await createLibrary(auth);
  const pages = [
    await pngPage(60, 90, [200, 40, 40]),
    await pngPage(60, 90, [40, 200, 40]),
    await pngPage(60, 90, [40, 40, 200]),
  ];
  await putObject(
    'comics/Saga/Saga 001.cbz',
    zipSync({
      '10.png': [pages[2]!, { level: 0 }],
      '1.png': [pages[0]!, { level: 0 }],
      '2.png': [pages[1]!, { level: 6 }],
    }),
  );
  const jpegPages = [jpeg(400, 600, { seed: 1 }), jpeg(400, 600, { seed: 2 })];
  await putObject(
    'comics/Photos/scan.cbz',
    zipSync({ 'p1.jpg': [jpegPages[0]!, { level: 0 }], 'p2.jpg': [jpegPages[1]!, { level: 0 }] }),
  );
  await putObject('comics/Broken/broken.cbz', 'not a zip file');
  await scan(auth, libraryId);
  return { auth, libraryId, books: await booksByFileName(auth, libraryId), pages, jpegPages };
}

const pageUrl = (bookId: string, page: number | string, query = '') =>
  `/books/${bookId}/pages/${page}${query ? `?${query}` : ''}`;

describe('GET /books/{id}/pages (API.md §4 Pages)', () => {
  it('lists pages in natural order with file name, media type, size, and dimensions once analysed', async () => {
    const { auth, libraryId, books, pages } = await scannedLibrary();
    const saga = books['Saga 001.cbz'];
    await waitForTasks(auth, libraryId);
    const listed = await api(`/books/${saga.id}/pages`, { auth });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { number: 1, fileName: '1.png', mediaType: 'image/png', width: 60, height: 90, size: pages[0]!.length },
      { number: 2, fileName: '2.png', mediaType: 'image/png', width: 60, height: 90, size: pages[1]!.length },
      { number: 3, fileName: '10.png', mediaType: 'image/png', width: 60, height: 90, size: pages[2]!.length },
    ]);
    expect((await api(`/books/${saga.id}`, { auth })).body.analyzed).toBe(true);
  });

  it('answers 422 with the analysis error for a broken book, 404 for unknown and removed books, 400 for a bad id', async () => {
    const { auth, libraryId, books } = await scannedLibrary();
    const broken = expectError(
      await api(`/books/${books['broken.cbz'].id}/pages`, { auth }),
      422,
      'UnprocessableEntity',
    );
    expect(broken.message).toContain(books['broken.cbz'].analysisError);
    expectError(await api(`/books/${crypto.randomUUID()}/pages`, { auth }), 404, 'NotFound');
    expectError(await api('/books/not-a-uuid/pages', { auth }), 400, 'BadRequest');

    await env.LIBRARY.delete('comics/Photos/scan.cbz');
    await scan(auth, libraryId);
    const removed = books['scan.cbz'];
    expect((await api(`/books/${removed.id}`, { auth })).body.deleted).toBe(true);
    expectError(await api(`/books/${removed.id}/pages`, { auth }), 404, 'NotFound');
    expectError(await api(pageUrl(removed.id, 1), { auth }), 404, 'NotFound');
  });
});

describe('GET /books/{book_id}/pages/{page_number}: originals (API.md §4 Pages)', () => {
  it('serves each page exactly as stored (stored and deflated entries) with its type, length and validators', async () => {
    const { auth, books, pages, jpegPages } = await scannedLibrary();
    const saga = books['Saga 001.cbz'];
    for (const [index, expected] of pages.entries()) {
      const page = await fetchRaw(pageUrl(saga.id, index + 1), { auth });
      expect(page.status).toBe(200);
      expect(sameBytes(page.bytes, expected)).toBe(true);
      expect(page.headers.get('Content-Type')).toBe('image/png');
      expect(page.headers.get('Content-Length')).toBe(String(expected.length));
      expect(page.headers.get('ETag')).toMatch(/^"[^"]+"$/);
      expect(page.headers.get('Cache-Control')).toBe('private, max-age=86400');
      // First read of each page: from R2, and kept in the edge cache for the next reader.
      expect(page.headers.get('X-Longbox-Cache')).toBe('miss');
    }
    const photo = await fetchRaw(pageUrl(books['scan.cbz'].id, 2), { auth });
    expect(photo.headers.get('Content-Type')).toBe('image/jpeg');
    expect(sameBytes(photo.bytes, jpegPages[1]!)).toBe(true);
  });

  it('serves pages whose local ZIP header is longer than the central directory says (Info-ZIP extra fields)', async () => {
    const { auth, libraryId } = await scannedLibrary();
    const pages = [jpeg(50, 50, { seed: 7 }), jpeg(50, 50, { seed: 8 })];
    await putObject(
      'comics/Extra/extra.cbz',
      buildZip([
        { name: '1.jpg', data: pages[0]!, localExtra: new Uint8Array(28) },
        { name: '2.jpg', data: pages[1]!, method: 'deflate', localExtra: new Uint8Array(9) },
      ]),
    );
    await scan(auth, libraryId);
    const id = (await booksByFileName(auth, libraryId))['extra.cbz'].id;
    for (const [index, expected] of pages.entries()) {
      const page = await fetchRaw(pageUrl(id, index + 1), { auth });
      expect(page.status).toBe(200);
      expect(sameBytes(page.bytes, expected)).toBe(true);
    }
  });

  it('answers If-None-Match with 304 (weak or listed tags too) and gives every page and variant its own ETag', async () => {
    const { auth, books } = await scannedLibrary();
    const id = books['Saga 001.cbz'].id;
    const first = await fetchRaw(pageUrl(id, 1), { auth });
    const etag = first.headers.get('ETag')!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await fetchRaw(pageUrl(id, 1), { auth, headers: { 'If-None-Match': ifNoneMatch } });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.get('ETag')).toBe(etag);
    }
    expect((await fetchRaw(pageUrl(id, 1), { auth, headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    const etags = new Set([
      etag,
      (await fetchRaw(pageUrl(id, 2), { auth })).headers.get('ETag'),
      (await fetchRaw(pageUrl(id, 1, 'width=30'), { auth })).headers.get('ETag'),
      (await fetchRaw(pageUrl(id, 1, 'width=30&format=webp'), { auth })).headers.get('ETag'),
    ]);
    expect(etags.size).toBe(4);
  });
});

describe('GET /books/{book_id}/pages/{page_number}: width, height and format (API.md §4 Pages)', () => {
  it('resizes keeping the aspect ratio and transcodes to each format', async () => {
    const { auth, books } = await scannedLibrary();
    const png = books['Saga 001.cbz'].id;
    const photo = books['scan.cbz'].id;
    const cases: Array<[string, string, 'jpeg' | 'png' | 'webp', { width: number; height: number }]> = [
      [png, 'width=30', 'png', { width: 30, height: 45 }],
      [png, 'height=45', 'png', { width: 30, height: 45 }],
      [png, 'width=30&height=30', 'png', { width: 20, height: 30 }],
      [png, 'format=jpeg', 'jpeg', { width: 60, height: 90 }],
      [png, 'width=40&format=webp', 'webp', { width: 40, height: 60 }],
      [photo, 'width=100', 'jpeg', { width: 100, height: 150 }],
      [photo, 'height=300&format=png', 'png', { width: 200, height: 300 }],
      [photo, 'format=webp', 'webp', { width: 400, height: 600 }],
    ];
    for (const [id, query, kind, size] of cases) {
      const page = await fetchRaw(pageUrl(id, 1, query), { auth });
      expect(page.status, query).toBe(200);
      expect(imageKind(page.bytes), query).toBe(kind);
      expect(page.headers.get('Content-Type'), query).toBe(`image/${kind}`);
      expect(page.headers.get('Content-Length'), query).toBe(String(page.bytes.length));
      if (kind !== 'webp') expect(imageSize(page.bytes), query).toEqual(size);
      expect(page.headers.get('X-Longbox-Cache'), query).toBe('miss');
    }
  });

  it('serves the original when the request needs no image work: bounds at or above the page, same format', async () => {
    const { auth, books, pages } = await scannedLibrary();
    const id = books['Saga 001.cbz'].id;
    for (const query of ['width=60', 'width=8192', 'height=90&width=61', 'format=png', 'width=500&format=png']) {
      const page = await fetchRaw(pageUrl(id, 1, query), { auth });
      expect(page.status, query).toBe(200);
      expect(sameBytes(page.bytes, pages[0]!), query).toBe(true);
      expect(page.headers.get('Content-Type'), query).toBe('image/png');
    }
  });

  it('keeps original pages in the edge cache: the next read is a hit with the same bytes and validators', async () => {
    const { auth, books, pages } = await scannedLibrary();
    const id = books['Saga 001.cbz'].id;
    const first = await fetchRaw(pageUrl(id, 2), { auth });
    expect(first.headers.get('X-Longbox-Cache')).toBe('miss');
    const second = await originalIsEdgeCached(auth, id, 2);
    expect(second.headers.get('ETag')).toBe(first.headers.get('ETag'));
    expect(second.headers.get('Content-Type')).toBe('image/png');
    expect(sameBytes(second.bytes, pages[1]!)).toBe(true);
    expect(second.headers.get('Content-Length')).toBe(String(pages[1]!.length));
    // The cache answers nothing before the credentials and the permission are checked (API.md §5, §7).
    expectError(await api(pageUrl(id, 2)), 401, 'Unauthorized');
    const booksOnly = await createApiKey(auth, { name: 'metadata only', permissions: ['BooksRead'] });
    expectError(await api(pageUrl(id, 2), { auth: { apiKey: booksOnly.key } }), 403, 'Forbidden');
  });

  it('streams pages above the edge-cache size limit from R2 every time, byte for byte', async () => {
    const { auth, libraryId } = await scannedLibrary();
    // A 5 MiB JPEG stream (SOI, incompressible comment data, EOI): bigger than the 4 MiB the cache takes.
    const big = new Uint8Array(5 * 1024 * 1024);
    for (let offset = 0; offset < big.length; offset += 65_536) {
      crypto.getRandomValues(big.subarray(offset, Math.min(offset + 65_536, big.length)));
    }
    big.set([0xff, 0xd8], 0);
    big.set([0xff, 0xd9], big.length - 2);
    await putObject('comics/Big/big.cbz', zipSync({ '1.jpg': [big, { level: 0 }] }));
    await scan(auth, libraryId);
    const id = (await booksByFileName(auth, libraryId))['big.cbz'].id;
    for (let read = 0; read < 2; read++) {
      const page = await fetchRaw(pageUrl(id, 1), { auth });
      expect(page.status).toBe(200);
      expect(page.headers.get('Content-Length')).toBe(String(big.length));
      expect(page.headers.get('X-Longbox-Cache')).toBeNull();
      expect(sameBytes(page.bytes, big)).toBe(true);
    }
  });

  it('renders once: later requests are cache hits (the data center, else the CACHE bucket) without the renderer', async () => {
    const { auth, books } = await scannedLibrary();
    const id = books['scan.cbz'].id;
    const first = await fetchRaw(pageUrl(id, 2, 'width=100&format=webp'), { auth });
    expect(first.headers.get('X-Longbox-Cache')).toBe('miss');
    // Stored after the answer (issue 30).
    const stored = await eventually(
      () => env.CACHE.list({ prefix: `pages/${id}/` }),
      (listed) => listed.objects.length === 1,
    );
    const second = await fetchRaw(pageUrl(id, 2, 'width=100&format=webp'), { auth });
    expect(second.headers.get('X-Longbox-Cache')).toBe('hit');
    expect(second.headers.get('ETag')).toBe(first.headers.get('ETag'));
    expect(second.headers.get('Content-Type')).toBe('image/webp');
    expect(sameBytes(second.bytes, first.bytes)).toBe(true);
    // Without the edge cache a hit is served from the stored object: changing it shows that nothing was rendered
    // again. With it, the data center's copy answers first: still the rendition first made, no R2 read.
    const key = stored.objects[0]!.key;
    await env.CACHE.put(key, 'stored rendition', { httpMetadata: { contentType: 'image/webp' } });
    const withoutEdge = faultyWorker({}, { LONGBOX_PAGES__EDGE_CACHE: 'false' });
    const third = await withoutEdge.fetch(pageUrl(id, 2, 'width=100&format=webp'), { auth: { basic: ADMIN } });
    expect(third.headers.get('X-Longbox-Cache')).toBe('hit');
    expect(await third.text()).toBe('stored rendition');
    const reads: string[] = [];
    const edge = faultyWorker({ r2Get: ({ bucket, key: read }) => void reads.push(`${bucket} ${read}`) });
    const near = await edge.fetch(pageUrl(id, 2, 'width=100&format=webp'), { auth: { basic: ADMIN } });
    expect(near.headers.get('X-Longbox-Cache')).toBe('hit');
    expect(sameBytes(new Uint8Array(await near.arrayBuffer()), first.bytes)).toBe(true);
    expect(reads).toEqual([]);
  });

  it('never serves pages of the old file after it is replaced and rescanned, and refuses to read a file changed since the scan', async () => {
    const { auth, libraryId, books, pages } = await scannedLibrary();
    const id = books['Saga 001.cbz'].id;
    const before = await fetchRaw(pageUrl(id, 1, 'width=30'), { auth });
    const originalBefore = await fetchRaw(pageUrl(id, 1), { auth });
    await originalIsEdgeCached(auth, id, 1);
    const replacement = await pngPage(80, 80, [10, 10, 10]);
    await putObject('comics/Saga/Saga 001.cbz', zipSync({ '1.png': [replacement, { level: 0 }] }));

    // Page 2 must be read from the file, which is no longer the scanned one.
    const stale = expectError(await api(pageUrl(id, 2), { auth }), 409, 'Conflict');
    expect(stale.message).toMatch(/changed since the library was last scanned/);
    // Page 1 of the scanned version is still in the edge cache: the catalog describes that version until the rescan.
    const cached = await fetchRaw(pageUrl(id, 1), { auth });
    expect(cached.headers.get('X-Longbox-Cache')).toBe('hit');
    expect(sameBytes(cached.bytes, pages[0]!)).toBe(true);

    const renditionsBefore = (await env.CACHE.list({ prefix: `pages/${id}/` })).objects;
    expect(renditionsBefore).toHaveLength(1);
    await scan(auth, libraryId);
    expect((await api(`/books/${id}`, { auth })).body.pageCount).toBe(1);
    // The rendition of the old file can never be asked for again: the scan removed it from the CACHE bucket.
    expect((await env.CACHE.list({ prefix: `pages/${id}/` })).objects).toEqual([]);
    // The book's table, kept near the reader, follows the rescan within its lifetime (pages/page-table-cache.ts);
    // until then the version the reader was reading stays consistent, pages and list alike.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + PAGE_TABLE_TTL_MS + 1000);
    const after = await fetchRaw(pageUrl(id, 1, 'width=30'), { auth });
    expect(after.headers.get('X-Longbox-Cache')).toBe('miss');
    expect(after.headers.get('ETag')).not.toBe(before.headers.get('ETag'));
    expect(imageSize(after.bytes)).toEqual({ width: 30, height: 30 });
    const original = await fetchRaw(pageUrl(id, 1), {
      auth,
      headers: { 'If-None-Match': originalBefore.headers.get('ETag')! },
    });
    expect(original.status).toBe(200);
    expect(sameBytes(original.bytes, replacement)).toBe(true);
    vi.useRealTimers();
  });

  it('refuses malformed parameters and page numbers with 400, pages beyond the book with 404', async () => {
    const { auth, books } = await scannedLibrary();
    const id = books['Saga 001.cbz'].id;
    const bad: Array<[string | number, string, string]> = [
      [1, 'width=0', 'width'],
      [1, 'width=abc', 'width'],
      [1, 'width=-5', 'width'],
      [1, 'width=1.5', 'width'],
      [1, 'width=8193', 'width'],
      [1, 'width=', 'width'],
      [1, 'width=1e3', 'width'],
      [1, 'height=0', 'height'],
      [1, 'height=12px', 'height'],
      [1, 'format=tiff', 'format'],
      [1, 'format=JPEG', 'format'],
      [0, '', 'page_number'],
      ['abc', '', 'page_number'],
      ['1.5', '', 'page_number'],
      ['-1', '', 'page_number'],
    ];
    for (const [page, query, field] of bad) {
      const error = expectError(await api(pageUrl(id, page, query), { auth }), 400, 'BadRequest');
      expect(
        error.details?.map((d) => d.path),
        `${page}?${query}`,
      ).toContain(field);
    }
    const beyond = expectError(await api(pageUrl(id, 4), { auth }), 404, 'NotFound');
    expect(beyond.message).toContain('3 pages');
    expectError(await api(pageUrl(id, 99999999999), { auth }), 404, 'NotFound');
    expectError(await api(pageUrl(crypto.randomUUID(), 1), { auth }), 404, 'NotFound');
    expectError(await api(pageUrl('nope', 1), { auth }), 400, 'BadRequest');
    const broken = expectError(await api(pageUrl(books['broken.cbz'].id, 1), { auth }), 422, 'UnprocessableEntity');
    expect(broken.message).toContain(books['broken.cbz'].analysisError);
  });
});

describe('pages of CBR, EPUB and PDF books (DECISIONS.md §Books)', () => {
  it('serves CBR pages (RAR4 and RAR5, stored) byte for byte and resizes them', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    const pages = [jpeg(80, 120, { seed: 11 }), jpeg(80, 120, { seed: 12 })];
    const entries = pages.map((data, i) => ({ name: `page${i + 1}.jpg`, data }));
    await putObject('comics/Rar/four.cbr', writeRar4(entries));
    await putObject('comics/Rar/five.cbr', writeRar5(entries, { quickOpen: true }));
    await scan(auth, libraryId);
    const books = await booksByFileName(auth, libraryId);
    for (const name of ['four.cbr', 'five.cbr']) {
      const second = await fetchRaw(pageUrl(books[name].id, 2), { auth });
      expect(second.headers.get('Content-Type'), name).toBe('image/jpeg');
      expect(sameBytes(second.bytes, pages[1]!), name).toBe(true);
      const small = await fetchRaw(pageUrl(books[name].id, 1, 'width=40'), { auth });
      expect(imageSize(small.bytes), name).toEqual({ width: 40, height: 60 });
    }
  });

  it('serves picture-book EPUB pages, and answers 422 for a reflowable EPUB whose pages list is empty', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    const art = [jpeg(120, 180, { seed: 5 }), jpeg(120, 180, { seed: 6 })];
    await putObject(
      'comics/Art/art.epub',
      buildEpub({ spine: art.map((image) => ({ kind: 'wrapper' as const, image })), fixedLayout: true }),
    );
    await putObject(
      'comics/Novel/novel.epub',
      buildEpub({ spine: [{ kind: 'text', bytes: 5000 }], coverStyle: 'epub3' }),
    );
    await scan(auth, libraryId);
    const books = await booksByFileName(auth, libraryId);

    const pages = await api(`/books/${books['art.epub'].id}/pages`, { auth });
    expect(pages.body.map((p: { fileName: string }) => p.fileName)).toEqual([
      'OEBPS/images/page1.jpg',
      'OEBPS/images/page2.jpg',
    ]);
    const second = await fetchRaw(pageUrl(books['art.epub'].id, 2), { auth });
    expect(sameBytes(second.bytes, art[1]!)).toBe(true);
    expect(imageSize((await fetchRaw(pageUrl(books['art.epub'].id, 2, 'width=60'), { auth })).bytes)).toEqual({
      width: 60,
      height: 90,
    });

    const novel = books['novel.epub'];
    expect(novel.pageCount).toBeGreaterThan(0);
    expect((await api(`/books/${novel.id}/pages`, { auth })).body).toEqual([]);
    const refused = expectError(await api(pageUrl(novel.id, 1), { auth }), 422, 'UnprocessableEntity');
    expect(refused.message).toContain('/file');
  });

  it('serves an embedded PDF page image as is and renders the other pages (cached like any rendition)', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    const scanImage = jpeg(300, 450, { seed: 9 });
    await putObject(
      'comics/Docs/doc.pdf',
      buildPdf([
        { kind: 'jpeg', image: scanImage, width: 300, height: 450 },
        { kind: 'text', text: 'Hello' },
      ]),
    );
    await scan(auth, libraryId);
    const id = (await booksByFileName(auth, libraryId))['doc.pdf'].id;

    const listed = await api(`/books/${id}/pages`, { auth });
    expect(listed.body[0]).toMatchObject({ fileName: 'page-0001.jpg', mediaType: 'image/jpeg' });
    // A rendered page's size is its default rendering: US Letter with the longest side at 2000 px.
    expect(listed.body[1]).toMatchObject({
      fileName: 'page-0002',
      mediaType: 'image/png',
      width: 1545,
      height: 2000,
      size: 0,
    });

    const embedded = await fetchRaw(pageUrl(id, 1), { auth });
    expect(embedded.headers.get('Content-Type')).toBe('image/jpeg');
    expect(sameBytes(embedded.bytes, scanImage)).toBe(true);

    const rendered = await fetchRaw(pageUrl(id, 2), { auth });
    expect(rendered.status).toBe(200);
    expect(imageKind(rendered.bytes)).toBe('png');
    expect(imageSize(rendered.bytes)).toEqual({ width: 1545, height: 2000 });
    expect(rendered.headers.get('X-Longbox-Cache')).toBe('miss');
    expect((await fetchRaw(pageUrl(id, 2), { auth })).headers.get('X-Longbox-Cache')).toBe('hit');

    const small = await fetchRaw(pageUrl(id, 2, 'height=400&format=jpeg'), { auth });
    expect(imageKind(small.bytes)).toBe('jpeg');
    expect(imageSize(small.bytes)).toEqual({ width: 309, height: 400 });
  });
});

describe('who may read pages (API.md §5, §7)', () => {
  it('needs credentials (401) and PagesRead (403), for the list and the image', async () => {
    const { auth, books } = await scannedLibrary();
    const id = books['Saga 001.cbz'].id;
    for (const path of [`/books/${id}/pages`, pageUrl(id, 1)]) {
      const anonymous = expectError(await api(path), 401, 'Unauthorized');
      expect(anonymous.message).toBeTruthy();
      const booksOnly = await createApiKey(auth, { name: 'metadata only', permissions: ['BooksRead'] });
      expectError(await api(path, { auth: { apiKey: booksOnly.key } }), 403, 'Forbidden');
      const pagesOnly = await createApiKey(auth, { name: 'pages only', permissions: ['PagesRead'] });
      expect((await api(path, { auth: { apiKey: pagesOnly.key } })).status).toBe(200);
    }
    const reader = await createUser(auth, { role: 'reader' });
    const session = await login(reader.username, reader.password);
    expect((await fetchRaw(pageUrl(id, 1), { auth: session.auth })).status).toBe(200);
  });
});
