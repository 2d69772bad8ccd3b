/**
 * Issue 11 point 2: a book's deferred details — every page's dimensions, fileHash (SHA-256) and
 * readerHash (KOReader's partial MD5) — come from one sequential read of the file. Each file of every
 * format, and every readable file of the real-world corpus, is scanned through HTTP and completed by
 * the queue consumer; the results must equal the per-page method (one container.readPageHeader per
 * page, as the page endpoints still read them) and hashes computed here from the whole bytes.
 * The same read keeps the cover's bytes, so the consumer makes the thumbnail (DECISIONS.md §Books:
 * the cover the file names, else page 1) without a second GET; covers it cannot keep (a PDF page to
 * render, an EPUB cover outside the pages, a page over 4 MiB) are read for the thumbnail as before.
 */
import { env } from 'cloudflare:test';
import { asc, eq } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createD1Database } from '../../src/db/client';
import { bookPages, books } from '../../src/db/schema';
import { createEventPublisher } from '../../src/events/publisher';
import { type BookWorkDeps, completeBookWorkBatch } from '../../src/ingest/book-completion';
import { containerFor } from '../../src/media';
import { createRendererClient, type ImageRendererRpc } from '../../src/media/image-renderer';
import type { PageLocator } from '../../src/media/container';
import { memoryRangeReader, r2RangeReader } from '../../src/media/range-reader';
import { completeBookDetails } from '../../src/scanning/book-details';
import { openOnePassReader } from '../../src/scanning/sequential-object-reader';
import { comicInfoXml } from '../fixtures/comic-info';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg, png } from '../fixtures/images';
import { buildPdf } from '../fixtures/pdf-writer';
import { writeRar4, writeRar5 } from '../fixtures/rar-writer';
import { buildZip } from '../fixtures/zip-writer';
import { setupAdmin } from '../support/factories';
import { hex, koreaderHash } from '../support/hashes';
import { pngPage } from '../support/library-files';
import { fetchRaw, imageSize, sameBytes } from '../support/media';
import { api, type Credentials } from '../support/http';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

/** Files that take every path of the one-read pass: stored, deflated, data descriptors, RAR, EPUB, PDF. */
function formatFiles(): Record<string, Uint8Array> {
  const smallPages = Array.from({ length: 40 }, (_, i) => png(20 + i, 30 + i, i));
  return {
    // A large stored page first: KOReader's samples and the window cut both cross it.
    'one/stored.cbz': zipSync(
      {
        '1.jpg': jpeg(100, 150, { padding: 3_000_000, seed: 1 }),
        '2.png': png(61, 91, 2),
        '3.jpg': jpeg(120, 180, { padding: 600_000, seed: 3 }),
        '4.png': png(62, 93, 4),
      },
      { level: 0 },
    ),
    'one/deflated.cbz': zipSync(
      { 'a.png': png(70, 100, 5), 'b.jpg': jpeg(90, 140, { seed: 6, padding: 200_000 }), 'c.png': png(33, 44, 7) },
      { level: 9 },
    ),
    // Many small entries: a page-header window reaches past the next entries, which are read from memory.
    'one/many-small.cbz': zipSync(
      Object.fromEntries(smallPages.map((p, i) => [`${String(i).padStart(3, '0')}.png`, p])),
    ),
    // Sizes only after the data (flag bit 3): the locators from the central directory are what count.
    'one/descriptors.cbz': buildZip([
      { name: '01.png', data: png(50, 70, 8), method: 'deflate', dataDescriptor: true },
      { name: '02.jpg', data: jpeg(80, 60, { seed: 9 }), dataDescriptor: true },
    ]),
    'one/rar4.cbr': writeRar4([
      { name: '001.png', data: png(64, 96, 10) },
      { name: '002.jpg', data: jpeg(100, 80, { seed: 11, padding: 100_000 }) },
    ]),
    'one/rar5-solid.cbr': writeRar5(
      [
        { name: 'p1.png', data: png(40, 60, 12), literal: true },
        { name: 'p2.png', data: png(41, 61, 13), literal: true, solid: true },
      ],
      { solid: true },
    ),
    'one/pictures.epub': buildEpub({
      fixedLayout: true,
      spine: [
        { kind: 'wrapper', image: jpeg(120, 180, { seed: 14 }) },
        { kind: 'image', image: jpeg(121, 181, { seed: 15 }) },
      ],
    }),
    'one/novel.epub': buildEpub({ spine: [{ kind: 'text', bytes: 5000 }] }),
    'one/doc.pdf': buildPdf([
      { kind: 'jpeg', image: jpeg(200, 300, { seed: 16 }), width: 200, height: 300 },
      { kind: 'text', text: 'Rendered, not an image' },
    ]),
  };
}

const corpusFound = env.CORPUS_FOUND === true;
/** Corpus files with pages to measure (MANIFEST.md: the readable archives of every format). */
const CORPUS_BOOKS = [
  'cbz/komga-zip.zip',
  'cbr/komga-rar4.rar',
  'cbr/komga-rar4-solid.rar',
  'cbr/komga-rar5.rar',
  'cbr/komga-rar5-solid.rar',
  'epub/komga-epub3.epub',
  'pdf/komga.pdf',
  'bad/komga-zip-lzma.zip',
];
function corpusFiles(): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const name of CORPUS_BOOKS) {
    const base64 = env.CORPUS_FILES?.[name];
    if (base64) out[`one/corpus/${name}`] = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }
  return out;
}

/** The per-page method on the bytes themselves: what the details were before the one-read pass. */
async function reference(bytes: Uint8Array, book: typeof books.$inferSelect, locators: PageLocator[]) {
  const reader = memoryRangeReader(bytes);
  const container = containerFor(book.fileFormat);
  const sizes = [];
  for (const locator of locators)
    sizes.push(await container.readPageHeader(reader, locator, book.containerIndex as never));
  return {
    fileHash: hex(await crypto.subtle.digest('SHA-256', bytes)),
    readerHash: koreaderHash(bytes),
    sizes: sizes.map((s) => (s ? [s.width, s.height] : [null, null])),
  };
}

async function scanned(auth: Credentials, files: Record<string, Uint8Array>) {
  for (const [key, bytes] of Object.entries(files)) await env.LIBRARY.put(key, bytes);
  const libraryId = await createLibrary(auth, { path: 'one' });
  const done = await scan(auth, libraryId);
  await waitForTasks(auth, libraryId, { since: done.completedAt, timeoutMs: 60_000 });
  return libraryId;
}

async function compareAll(files: Record<string, Uint8Array>) {
  const db = createD1Database(env.DB);
  for (const [key, bytes] of Object.entries(files)) {
    const book = await db.select().from(books).where(eq(books.path, key)).get();
    expect(book, key).toBeDefined();
    if (!book) continue;
    expect(book.analysisError, key).toBeNull();
    expect(book.analyzed, key).toBe(true);
    const pages = await db.select().from(bookPages).where(eq(bookPages.bookId, book.id)).orderBy(asc(bookPages.number));
    const expected = await reference(
      bytes,
      book,
      pages.map((p) => p.locator as PageLocator),
    );
    expect(book.fileHash, key).toBe(expected.fileHash);
    expect(book.readerHash, key).toBe(expected.readerHash);
    expect(
      pages.map((p) => [p.width, p.height]),
      key,
    ).toEqual(expected.sizes);
  }
}

describe('one sequential read per book (issue 11 point 2)', () => {
  it('gives every format the dimensions and hashes of the per-page method', async () => {
    const { auth } = await setupAdmin();
    const files = formatFiles();
    await scanned(auth, files);
    await compareAll(files);
    // Not vacuous: the fixtures really have measured pages.
    const db = createD1Database(env.DB);
    const stored = await db.select().from(books).where(eq(books.path, 'one/stored.cbz')).get();
    const sized = await db
      .select()
      .from(bookPages)
      .where(eq(bookPages.bookId, stored?.id ?? ''));
    // Not vacuous: the PNG pages are measured (the padded JPEGs hide their size past the header window).
    const measured = sized.filter((p) => p.width !== null).map((p) => [p.width, p.height]);
    expect(measured).toEqual(
      expect.arrayContaining([
        [61, 91],
        [62, 93],
      ]),
    );
  });

  it.skipIf(!corpusFound)('gives the real-world corpus the dimensions and hashes of the per-page method', async () => {
    const { auth } = await setupAdmin();
    const files = corpusFiles();
    expect(Object.keys(files)).toHaveLength(CORPUS_BOOKS.length);
    await scanned(auth, files);
    await compareAll(files);
  });

  it('a pass that ends early (an unreadable page, a failed write) stops its GET and leaves no rejection behind', async () => {
    const bytes = zipSync(
      { '1.jpg': jpeg(100, 150, { padding: 400_000, seed: 9 }), '2.png': png(40, 60, 2) },
      { level: 0 },
    );
    await env.LIBRARY.put('one/early-end.cbz', bytes);
    const head = await env.LIBRARY.head('one/early-end.cbz');
    if (!head) throw new Error('the fixture was not stored');
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason ?? 'a rejection without a reason');
    process.on('unhandledRejection', onRejection);
    try {
      const pass = await openOnePassReader(env.LIBRARY, 'one/early-end.cbz', head.etag, () =>
        r2RangeReader(env.LIBRARY, 'one/early-end.cbz', bytes.length),
      );
      expect(await pass.reader.read(0, 4)).toEqual(bytes.subarray(0, 4));
      pass.abort();
      // A stray rejection of the aborted pass (its SHA-256 digest) surfaces within a few ticks.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('costs one R2 request for a CBZ, however many pages it has', async () => {
    const { auth } = await setupAdmin();
    const files = formatFiles();
    await scanned(auth, files);
    const db = createD1Database(env.DB);
    for (const key of ['one/stored.cbz', 'one/deflated.cbz', 'one/many-small.cbz', 'one/descriptors.cbz']) {
      const book = await db.select().from(books).where(eq(books.path, key)).get();
      if (!book) throw new Error(`${key} missing`);
      // Run the pass again on the scanned book and count its GETs.
      const stats = await completeBookDetails(db, env.LIBRARY, book);
      expect(stats, key).toEqual({ requests: 1, fallbackReads: 0 });
    }
  });
});

/** Calls made through a binding, recorded by the thin wrappers below (every call goes through unchanged). */
type Calls = Array<{ method: string; first: unknown }>;

/** The LIBRARY bucket with its GETs recorded: every read of a book file is one GET. */
function countedLibrary(calls: Calls): R2Bucket {
  return new Proxy(env.LIBRARY, {
    get(target, property) {
      if (property === 'get')
        return (key: string, options?: R2GetOptions) => {
          calls.push({ method: 'get', first: key });
          return target.get(key, options);
        };
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The renderer service binding with its calls recorded: they show what a thumbnail was made from. */
function countedRenderer(calls: Calls): ImageRendererRpc {
  const binding = env.RENDERER as unknown as ImageRendererRpc;
  return {
    transform: (...args) => binding.transform(...args),
    probe: (...args) => binding.probe(...args),
    thumbnail: (...args) => {
      calls.push({ method: 'thumbnail', first: args[0] });
      return binding.thumbnail(...args);
    },
    renderPdfPage: (...args) => {
      calls.push({ method: 'renderPdfPage', first: args[0] });
      return binding.renderPdfPage(...args);
    },
  };
}

/**
 * Completes one scanned book again through the consumer's path (completeBookWorkBatch, as
 * consumers/book-work.consumer.ts calls it) with its details and thumbnail missing, as a scan leaves a
 * new book; returns the GETs it made on the LIBRARY bucket and the thumbnail it stored.
 */
async function completedOnce(path: string, expected: { thumbnail: boolean } = { thumbnail: true }) {
  const db = createD1Database(env.DB);
  const scanned = await db.select().from(books).where(eq(books.path, path)).get();
  if (!scanned) throw new Error(`${path} was not scanned`);
  expect(scanned.analysisError, path).toBeNull();
  await db
    .update(books)
    .set({
      fileHash: '',
      readerHash: null,
      analyzed: false,
      thumbnailKey: null,
      thumbnailUpdatedAt: null,
      thumbnailError: null,
    })
    .where(eq(books.id, scanned.id));
  await env.CACHE.delete(`thumbnails/books/${scanned.id}`);

  // Every read of a book file is one GET on LIBRARY; the renderer's calls show where the cover came from.
  const library: Calls = [];
  const renderer: Calls = [];
  const deferred: Promise<unknown>[] = [];
  const deps: BookWorkDeps = {
    db,
    env: { ...env, LIBRARY: countedLibrary(library) },
    events: createEventPublisher(env.EVENT_HUB, (work) => deferred.push(work())),
    renderer: createRendererClient(countedRenderer(renderer)),
    thumbnailMaxSide: 400,
  };
  const [outcome] = await completeBookWorkBatch(deps, [
    { bookId: scanned.id, etag: scanned.etag, thumbnailsSince: null },
  ]);
  await Promise.all(deferred);
  if (outcome?.kind === 'retry') throw outcome.error;
  expect(outcome, path).toMatchObject({ kind: 'done', details: true, thumbnail: expected.thumbnail });
  const book = await db.select().from(books).where(eq(books.id, scanned.id)).get();
  // The details are those of the first completion (the one read still measures and hashes the file).
  expect(book, path).toMatchObject({ fileHash: scanned.fileHash, readerHash: scanned.readerHash, analyzed: true });
  expect(book?.thumbnailKey, path).toBe(expected.thumbnail ? `thumbnails/books/${scanned.id}` : null);
  const stored = await env.CACHE.get(`thumbnails/books/${scanned.id}`);
  if (expected.thumbnail && !stored) throw new Error(`${path}: no thumbnail stored`);
  return {
    bookId: scanned.id,
    gets: library.map((call) => call.first),
    rendererCalls: renderer.map((call) => call.method),
    /** What the thumbnail was made from: bytes in memory (a kept cover) or a stream of a read of its own. */
    thumbnailInput: renderer.find((call) => call.method === 'thumbnail')?.first,
    thumbnail: new Uint8Array(stored ? await stored.arrayBuffer() : new ArrayBuffer(0)),
    thumbnailError: book?.thumbnailError ?? null,
  };
}

/** The thumbnail the on-demand path (GET …/thumbnail with the stored one missing) makes: its own read of the cover. */
async function onDemandThumbnail(auth: Credentials, bookId: string) {
  await env.CACHE.delete(`thumbnails/books/${bookId}`);
  const response = await fetchRaw(`/books/${bookId}/thumbnail`, { auth });
  expect(response.status).toBe(200);
  return response.bytes;
}

/** A thumbnail's longest side is thumbnails.max_size (400) and its aspect the page's (DECISIONS.md §Books). */
function expectThumbnailOf(bytes: Uint8Array, page: { width: number; height: number }) {
  const size = imageSize(bytes);
  expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(400);
  expect(Math.abs(size.width / size.height - page.width / page.height)).toBeLessThan(0.02);
}

/** Three pages of distinct shapes, the second marked FrontCover in ComicInfo.xml (DECISIONS.md §Books). */
async function frontCoverPages() {
  return {
    '1.png': await pngPage(600, 600, [200, 40, 40]),
    '2.png': await pngPage(300, 600, [40, 200, 40]),
    '3.png': await pngPage(800, 400, [40, 40, 200]),
    'ComicInfo.xml': comicInfoXml({ Title: 'Cover inside' }, 1),
  };
}

describe('the thumbnail made from the cover kept by the one read (issue 11 point 2)', () => {
  it('a CBZ costs one R2 GET for details and thumbnail together, and the thumbnail is its ComicInfo FrontCover', async () => {
    const { auth } = await setupAdmin();
    const pages = await frontCoverPages();
    await scanned(auth, {
      'one/front-cover.cbz': zipSync(
        Object.fromEntries(Object.entries(pages).map(([name, bytes]) => [name, [bytes, { level: 0 }]])),
      ),
    });
    const { bookId, gets, thumbnailInput, thumbnail } = await completedOnce('one/front-cover.cbz');
    expect(gets).toEqual(['one/front-cover.cbz']);
    expect(thumbnailInput).toBeInstanceOf(ArrayBuffer); // the kept bytes, not a stream of a second read
    // The 300×600 page 2, not the square page 1 or the wide page 3.
    expect(imageSize(thumbnail)).toEqual({ width: 200, height: 400 });
    // Exactly what reading the cover on its own makes (the path every thumbnail took before).
    expect(sameBytes(thumbnail, await onDemandThumbnail(auth, bookId))).toBe(true);
  });

  it('a deflated cover entry is kept too: one GET, the same thumbnail as its own read makes', async () => {
    const { auth } = await setupAdmin();
    const pages = await frontCoverPages();
    const bytes = zipSync(
      Object.fromEntries(Object.entries(pages).map(([name, page]) => [name, [page, { level: 9 }]])),
    );
    await scanned(auth, { 'one/deflated-cover.cbz': bytes });
    const { bookId, gets, thumbnailInput, thumbnail } = await completedOnce('one/deflated-cover.cbz');
    expect(gets).toEqual(['one/deflated-cover.cbz']);
    expect(thumbnailInput).toBeInstanceOf(ArrayBuffer); // the kept bytes, not a stream of a second read
    expect(imageSize(thumbnail)).toEqual({ width: 200, height: 400 });
    expect(sameBytes(thumbnail, await onDemandThumbnail(auth, bookId))).toBe(true);
  });

  it('every format keeps a cover that is one of its pages: one GET, the thumbnail its own read makes', async () => {
    const { auth } = await setupAdmin();
    // Each book's cover is 300×600 (thumbnail 200×400); its other page is wide, so a wrong page shows.
    const files = {
      // Larger than a sequential read (1 MiB) and the pass's window (2 MiB): kept in pieces as it streams.
      'one/large-cover.cbz': zipSync(
        { '1.jpg': jpeg(300, 600, { padding: 3_000_000, seed: 31 }), '2.png': png(600, 300, 32) },
        { level: 0 },
      ),
      'one/descriptor-cover.cbz': buildZip([
        { name: '01.png', data: png(300, 600, 33), method: 'deflate', dataDescriptor: true },
        { name: '02.png', data: png(600, 300, 34), dataDescriptor: true },
      ]),
      'one/cover.cbr': writeRar4([
        { name: '001.jpg', data: jpeg(300, 600, { seed: 35, padding: 100_000 }) },
        { name: '002.png', data: png(600, 300, 36) },
      ]),
      'one/solid-cover.cbr': writeRar5(
        [
          { name: 'p1.png', data: png(300, 600, 37), literal: true },
          { name: 'p2.png', data: png(600, 300, 38), literal: true, solid: true },
        ],
        { solid: true },
      ),
      // The EPUB 3 cover-image is the first page's image (DECISIONS.md §Books, EPUB covers).
      'one/page-cover.epub': buildEpub({
        fixedLayout: true,
        coverStyle: 'epub3',
        spine: [
          { kind: 'wrapper', image: jpeg(300, 600, { seed: 39 }) },
          { kind: 'wrapper', image: jpeg(600, 300, { seed: 40 }) },
        ],
      }),
      // A PDF page that is one embedded JPEG is served (and kept) as that JPEG.
      'one/jpeg-cover.pdf': buildPdf([
        { kind: 'jpeg', image: jpeg(300, 600, { seed: 41 }), width: 300, height: 600 },
        { kind: 'jpeg', image: jpeg(600, 300, { seed: 42 }), width: 600, height: 300 },
      ]),
    };
    await scanned(auth, files);
    for (const path of Object.keys(files)) {
      const done = await completedOnce(path);
      expect(done.gets, path).toEqual([path]);
      expect(done.rendererCalls, path).toEqual(['thumbnail']);
      expect(done.thumbnailInput, path).toBeInstanceOf(ArrayBuffer);
      expect(imageSize(done.thumbnail), path).toEqual({ width: 200, height: 400 });
      expect(sameBytes(done.thumbnail, await onDemandThumbnail(auth, done.bookId)), path).toBe(true);
    }
    // The pass that kept the covers still measured every page and hashed the whole file.
    await compareAll(files);
  });

  it('a damaged cover is the thumbnail’s error at once, found by the one read (no retries, no second read)', async () => {
    const { auth } = await setupAdmin();
    // A deflated cover whose compressed data is overwritten in the middle: its header still inflates
    // (the page is measured), the rest does not.
    const zip = buildZip([
      { name: '01.jpg', data: jpeg(2000, 4000, { seed: 51 }), method: 'deflate' },
      { name: '02.png', data: png(600, 300, 52) },
    ]);
    const compressedSize = new DataView(zip.buffer).getUint32(18, true);
    const dataStart = 30 + '01.jpg'.length;
    zip.fill(0xff, dataStart + Math.floor(compressedSize / 2), dataStart + Math.floor(compressedSize / 2) + 64);
    const files = { 'one/damaged-cover.cbz': zip };
    const libraryId = await scanned(auth, files);
    const db = createD1Database(env.DB);
    // Through the real queue: recorded on the first delivery, not after the dead-letter queue gave up.
    const book = await db.select().from(books).where(eq(books.path, 'one/damaged-cover.cbz')).get();
    expect(book?.thumbnailError).toBe('01.jpg cannot be decompressed; the archive is damaged');
    await compareAll(files);
    const tasks = (await api(`/tasks?library_id=${libraryId}`, { auth })).body.data;
    expect(tasks.find((t: { type: string }) => t.type === 'generate_thumbnails')).toMatchObject({
      status: 'completed',
      result: { generated: 0, failed: 1 },
    });

    // And once more through completeBookWorkBatch: the pass's own GET only, the renderer never asked.
    const again = await completedOnce('one/damaged-cover.cbz', { thumbnail: false });
    expect(again.gets).toEqual(['one/damaged-cover.cbz']);
    expect(again.rendererCalls).toEqual([]);
    expect(again.thumbnailError).toBe('01.jpg cannot be decompressed; the archive is damaged');
    // Shown as the placeholder (DECISIONS.md §Books), as any book without an image to show.
    const cover = await fetchRaw(`/books/${again.bookId}/thumbnail`, { auth });
    expect(cover.status).toBe(200);
    expect(cover.headers.get('Content-Type')).toBe('image/svg+xml');
  });

  it('covers the read cannot keep get their thumbnail from a read of their own', async () => {
    const { auth } = await setupAdmin();
    await scanned(auth, {
      // A PDF page that is text has to be rendered (render_required): the renderer draws it.
      'one/text-cover.pdf': buildPdf([
        { kind: 'text', text: 'A cover that is only text' },
        { kind: 'jpeg', image: jpeg(300, 200, { seed: 21 }), width: 300, height: 200 },
      ]),
      // A fixed-layout EPUB whose cover image (60×90) is not one of its reading-order pages (300×200).
      'one/outside-cover.epub': buildEpub({
        fixedLayout: true,
        coverStyle: 'epub2',
        spine: [
          { kind: 'wrapper', image: jpeg(300, 200, { seed: 22 }) },
          { kind: 'wrapper', image: jpeg(300, 200, { seed: 23 }) },
        ],
      }),
      // A cover larger than a kept page may be (4 MiB): the thumbnail streams it itself.
      'one/huge-cover.cbz': zipSync(
        {
          '1.jpg': jpeg(300, 600, { padding: 9 * 1024 * 1024, seed: 24 }),
          '2.jpg': jpeg(600, 300, { seed: 25 }),
        },
        { level: 0 },
      ),
    });

    const pdf = await completedOnce('one/text-cover.pdf');
    // The one read for the details; the renderer reads the PDF itself to draw the 612×792 pt page.
    expect(pdf.gets).toEqual(['one/text-cover.pdf']);
    expect(pdf.rendererCalls).toEqual(['renderPdfPage', 'thumbnail']);
    expectThumbnailOf(pdf.thumbnail, { width: 612, height: 792 });

    const epub = await completedOnce('one/outside-cover.epub');
    expect(epub.gets).toEqual(['one/outside-cover.epub', 'one/outside-cover.epub']);
    expect(epub.thumbnailInput).toBeInstanceOf(ReadableStream);
    expect(imageSize(epub.thumbnail)).toEqual({ width: 60, height: 90 });
    expect(sameBytes(epub.thumbnail, await onDemandThumbnail(auth, epub.bookId))).toBe(true);

    const huge = await completedOnce('one/huge-cover.cbz');
    expect(huge.gets).toEqual(['one/huge-cover.cbz', 'one/huge-cover.cbz']);
    expect(huge.thumbnailInput).toBeInstanceOf(ReadableStream);
    expect(imageSize(huge.thumbnail)).toEqual({ width: 200, height: 400 });
    expect(sameBytes(huge.thumbnail, await onDemandThumbnail(auth, huge.bookId))).toBe(true);
  });
});
