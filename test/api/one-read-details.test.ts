/**
 * Issue 11 point 2: a book's deferred details — every page's dimensions, fileHash (SHA-256) and
 * readerHash (KOReader's partial MD5) — come from one sequential read of the file. Each file of every
 * format, and every readable file of the real-world corpus, is scanned through HTTP and completed by
 * the queue consumer; the results must equal the per-page method (one container.readPageHeader per
 * page, as the page endpoints still read them) and hashes computed here from the whole bytes.
 */
import { env } from 'cloudflare:test';
import { asc, eq } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createD1Database } from '../../src/db/client';
import { bookPages, books } from '../../src/db/schema';
import { containerFor } from '../../src/media';
import type { PageLocator } from '../../src/media/container';
import { memoryRangeReader, r2RangeReader } from '../../src/media/range-reader';
import { completeBookDetails } from '../../src/scanning/book-details';
import { openOnePassReader } from '../../src/scanning/sequential-object-reader';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg, png } from '../fixtures/images';
import { buildPdf } from '../fixtures/pdf-writer';
import { writeRar4, writeRar5 } from '../fixtures/rar-writer';
import { buildZip } from '../fixtures/zip-writer';
import { setupAdmin } from '../support/factories';
import { hex, koreaderHash } from '../support/hashes';
import type { Credentials } from '../support/http';
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
