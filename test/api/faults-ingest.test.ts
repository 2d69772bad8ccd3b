/**
 * Issue 21 point 2, faults in the book-work consumer (the one-pass read of a book, its D1 batch, the
 * renderer) through the worker's real queue handler, real D1 and R2, with the platform misbehaving
 * (test/support/faults.ts). A fault must end in a retry of the message with nothing half-written — no book
 * marked damaged because storage failed, no page sizes of a book whose hashes were not written — and the
 * retry, once the platform is back, must complete the book exactly as an undisturbed run does.
 */
import { env } from 'cloudflare:test';
import { eq, inArray } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createD1Database } from '../../src/db/client';
import { bookPages, books } from '../../src/db/schema';
import type { BookWorkMessage } from '../../src/ingest/book-work';
import { setupAdmin } from '../support/factories';
import { faultyWorker, libraryReadFault, r2InternalError } from '../support/faults';
import type { Credentials } from '../support/http';
import { makeCbz, pngPage, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const db = () => createD1Database(env.DB);
type Book = typeof books.$inferSelect;

/** A CBZ whose pages are deflated (as some tools write them): their headers are read through an inflate. */
async function deflatedCbz(pages: number): Promise<Uint8Array> {
  const files: Record<string, [Uint8Array, { level: 6 }]> = {};
  for (let i = 1; i <= pages; i++) files[`${i}.png`] = [await pngPage(300, 400, [i * 50, 90, 30]), { level: 6 }];
  return zipSync(files);
}

/** Scanned and completed books, then put back to "details pending" as a new file would be. */
async function pendingBooks(auth: Credentials, path: string, files: Uint8Array[]) {
  const libraryId = await createLibrary(auth, { name: `Library ${path}`, path });
  for (const [i, bytes] of files.entries()) await putObject(`${path}/Series/Book ${i + 1}.cbz`, bytes);
  const scanned = await scan(auth, libraryId);
  await waitForTasks(auth, libraryId, { since: scanned.completedAt });
  const complete = await db().select().from(books).where(eq(books.libraryId, libraryId)).orderBy(books.path);
  const ids = complete.map((b) => b.id);
  await db().update(books).set({ fileHash: '', readerHash: '', analyzed: false }).where(inArray(books.id, ids));
  await db().update(bookPages).set({ width: null, height: null }).where(inArray(bookPages.bookId, ids));
  return { libraryId, complete };
}

const work = (book: Book): BookWorkMessage => ({ bookId: book.id, etag: book.etag, thumbnailsSince: null });

async function stateOf(id: string) {
  const book = (await db().select().from(books).where(eq(books.id, id)).get()) as Book;
  const pages = await db().select().from(bookPages).where(eq(bookPages.bookId, id)).orderBy(bookPages.number);
  return { book, sizes: pages.map((p) => [p.width, p.height]) };
}

/** Nothing of the interrupted delivery was written: still pending, no page size, no error on the book. */
async function expectUntouched(id: string) {
  const { book, sizes } = await stateOf(id);
  expect(book).toMatchObject({ fileHash: '', readerHash: '', analyzed: false, analysisError: null });
  expect(sizes.every(([w, h]) => w === null && h === null)).toBe(true);
}

/** Complete, with the same hashes and sizes an undisturbed consumer recorded for it. */
async function expectCompleteAs(original: Book) {
  const { book, sizes } = await stateOf(original.id);
  expect(book).toMatchObject({
    fileHash: original.fileHash,
    readerHash: original.readerHash,
    analyzed: true,
    analysisError: null,
  });
  expect(sizes.every(([w, h]) => typeof w === 'number' && typeof h === 'number')).toBe(true);
}

describe('R2 faults in the one-pass read of a book', () => {
  for (const [label, file, at] of [
    ['stored pages, early', () => makeCbz(8), 0.05],
    ['stored pages, late', () => makeCbz(8), 0.7],
    ['deflated pages, early', () => deflatedCbz(4), 0.05],
    ['deflated pages, mid-page', () => deflatedCbz(4), 0.4],
  ] as const) {
    it(`a read cut off part-way (${label}) is retried, nothing is written, and the retry completes the book`, async () => {
      const { auth } = await setupAdmin();
      const path = `cut-${label.replace(/\W+/g, '-')}`;
      const { complete } = await pendingBooks(auth, path, [await file(), await makeCbz(2)]);
      const [target, other] = complete as [Book, Book];
      const afterBytes = Math.round(target.fileSize * at);
      const fault = libraryReadFault(target.path, { kind: 'break', afterBytes, error: r2InternalError() });
      const worker = faultyWorker(fault);

      const first = await worker.deliver('longbox-book-work', [work(target), work(other)]);
      expect(fault.reads).toHaveLength(1);
      expect(first.retryMessages).toHaveLength(1);
      await expectUntouched(target.id);
      await expectCompleteAs(other); // the other book of the batch is not held back

      const retry = await worker.deliver('longbox-book-work', [work(target)], 2);
      expect(retry.retryMessages).toEqual([]);
      await expectCompleteAs(target);
    });
  }

  it('a read that stalls is given up after the stall limit and retried; the retry completes the book', async () => {
    const { auth } = await setupAdmin();
    const { complete } = await pendingBooks(auth, 'stall-read', [await makeCbz(8)]);
    const target = complete[0] as Book;
    const fault = libraryReadFault(target.path, { kind: 'stall', afterBytes: 700 });
    const worker = faultyWorker(fault, { LONGBOX_INGEST__READ_STALL_SECONDS: '1' });

    const started = Date.now();
    const first = await worker.deliver('longbox-book-work', [work(target)]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(first.retryMessages).toHaveLength(1);
    await expectUntouched(target.id);

    const retry = await worker.deliver('longbox-book-work', [work(target)], 2);
    expect(retry.retryMessages).toEqual([]);
    await expectCompleteAs(target);
  });
});

describe('D1 faults in a consumer batch', () => {
  it('a refused batch write retries every book of the batch and records none of them half-way', async () => {
    const { auth } = await setupAdmin();
    const { complete } = await pendingBooks(auth, 'd1-batch', [await makeCbz(3), await makeCbz(4)]);
    let refusals = 1;
    const worker = faultyWorker({
      d1: ({ sql }) => (sql.length > 1 && refusals-- > 0 ? new Error('D1_ERROR: Network connection lost.') : undefined),
    });
    const first = await worker.deliver('longbox-book-work', complete.map(work));
    expect(first.retryMessages).toHaveLength(2);
    for (const book of complete) await expectUntouched(book.id);

    const retry = await worker.deliver('longbox-book-work', complete.map(work), 2);
    expect(retry.retryMessages).toEqual([]);
    for (const book of complete) await expectCompleteAs(book);
  });
});
