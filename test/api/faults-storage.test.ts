/**
 * Issue 21 point 2, R2 faults through the real stack: the worker's handlers with the test's real D1, R2,
 * Durable Objects and edge cache, while the platform's R2 fails a read, cuts it part-way or stalls it
 * (test/support/faults.ts; the seam is src/fault-injection/platform-faults.ts). Every fault must end in a clear
 * error or something the client can resume, and nothing broken may be kept: no truncated page in the
 * edge cache, no book marked damaged because storage failed.
 */
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createD1Database } from '../../src/db/client';
import { books } from '../../src/db/schema';
import { EDGE_CACHE_FILL_MS } from '../../src/pages/edge-page-cache';
import { ADMIN, setupAdmin } from '../support/factories';
import { faultyWorker, libraryReadFault, r2InternalError, readUntilFailure } from '../support/faults';
import { api, type Credentials, expectError } from '../support/http';
import { makeCbz, pngPage, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const db = () => createD1Database(env.DB);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bytes of page `n` of makeCbz's books (60×90 PNGs). */
const expectedPage = (n: number) => pngPage(60, 90, [(n * 40) % 256, 120, 200]);

async function bookWithPages(auth: Credentials, path: string, pages = 3) {
  const libraryId = await createLibrary(auth, { name: `Library ${path}`, path });
  const key = `${path}/Series/Book.cbz`;
  await putObject(key, await makeCbz(pages));
  const scanned = await scan(auth, libraryId);
  await waitForTasks(auth, libraryId, { since: scanned.completedAt });
  const book = await db().select().from(books).where(eq(books.libraryId, libraryId)).get();
  if (!book) throw new Error('the book was not scanned');
  return { libraryId, key, book };
}

describe('R2 faults on the page route', () => {
  it('a read R2 refuses answers 503 with Retry-After, and the next request serves the page', async () => {
    const { auth } = await setupAdmin();
    const { key, book } = await bookWithPages(auth, 'fail-page');
    const fault = libraryReadFault(key, { kind: 'fail', error: r2InternalError() });
    const worker = faultyWorker(fault);
    const through = await worker.signIn(ADMIN);
    const failed = await worker.fetch(`/books/${book.id}/pages/1`, { auth: through });
    const body = await failed.json();
    expect(fault.reads).toHaveLength(1);
    expect(failed.status).toBe(503);
    expect(body).toMatchObject({ error: 'ServiceUnavailable' });
    expect(failed.headers.get('Retry-After')).toMatch(/^\d+$/);
    await worker.settle();

    const again = await api(`/books/${book.id}/pages/1`, { auth });
    expect(again.status).toBe(200);
    expect(new Uint8Array(await new Response(again.text).arrayBuffer()).length).toBeGreaterThan(0);
  });

  it('a page cut off mid-transfer fails that response, and no truncated copy is cached or served afterwards', async () => {
    const { auth } = await setupAdmin();
    const { key, book } = await bookWithPages(auth, 'break-page');
    const fault = libraryReadFault(key, { kind: 'break', afterBytes: 200, error: r2InternalError() });
    const worker = faultyWorker(fault);
    const through = await worker.signIn(ADMIN);
    const broken = await worker.fetch(`/books/${book.id}/pages/2`, { auth: through });
    expect(broken.status).toBe(200); // the headers left before the storage failed
    const declared = Number(broken.headers.get('Content-Length'));
    const { bytes, failure } = await readUntilFailure(broken.body);
    expect(failure).toBeDefined();
    expect(bytes.length).toBeLessThan(declared);
    await worker.settle();

    // The edge cache kept nothing of it: the next read goes to R2 and is whole; the one after is a cache hit.
    const expected = await expectedPage(2);
    for (const cache of ['miss', 'hit']) {
      const res = await worker.fetch(`/books/${book.id}/pages/2`, { auth: through });
      const got = new Uint8Array(await res.arrayBuffer());
      expect(res.headers.get('X-Longbox-Cache')).toBe(cache);
      expect(got).toEqual(expected);
      await worker.settle();
    }
  });

  it('a stalled page read is let go once the client gave up, nothing of it is cached, and the page is served whole', async () => {
    const { auth } = await setupAdmin();
    const { key, book } = await bookWithPages(auth, 'stall-page');
    const fault = libraryReadFault(key, { kind: 'stall', afterBytes: 100 });
    const worker = faultyWorker(fault);
    const through = await worker.signIn(ADMIN);
    const stalled = await worker.fetch(`/books/${book.id}/pages/3`, { auth: through });
    expect(stalled.status).toBe(200);
    const reader = (stalled.body as ReadableStream<Uint8Array>).getReader();
    // What arrives before the stall, then nothing: the client waits half a second and gives up.
    let received = 0;
    const gaveUp = sleep(500).then(() => 'gave up' as const);
    for (;;) {
      const next = await Promise.race([reader.read(), gaveUp]);
      if (next === 'gave up' || next.done) break;
      received += next.value.length;
    }
    expect(received).toBeLessThanOrEqual(100);
    await reader.cancel();
    // The request's deferred work (the edge-cache fill, the stream's other reader) gives up on its deadline
    // instead of waiting forever; once a request's work is done the runtime lets go of what it left open.
    const hung = sleep(EDGE_CACHE_FILL_MS + 5000).then(() => 'still filling' as const);
    expect(await Promise.race([worker.settle().then(() => 'settled' as const), hung])).toBe('settled');

    const whole = await worker.fetch(`/books/${book.id}/pages/3`, { auth: through });
    expect(whole.headers.get('X-Longbox-Cache')).toBe('miss');
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(await expectedPage(3));
  });
});

describe('R2 faults on the file download', () => {
  it('a download cut off mid-transfer is resumed with a Range request, and the bytes add up to the file', async () => {
    const { auth } = await setupAdmin();
    const { key, book } = await bookWithPages(auth, 'break-file', 6);
    const file = new Uint8Array(await ((await env.LIBRARY.get(key)) as R2ObjectBody).arrayBuffer());
    const fault = libraryReadFault(key, { kind: 'break', afterBytes: 1500, error: r2InternalError() });
    const worker = faultyWorker(fault);
    const through = await worker.signIn(ADMIN);
    const broken = await worker.fetch(`/books/${book.id}/file`, { auth: through });
    expect(broken.status).toBe(200);
    expect(broken.headers.get('Accept-Ranges')).toBe('bytes');
    const first = await readUntilFailure(broken.body);
    expect(first.failure).toBeDefined();
    expect(first.bytes.length).toBeLessThan(file.length);
    expect(first.bytes).toEqual(file.subarray(0, first.bytes.length));

    const rest = await worker.fetch(`/books/${book.id}/file`, {
      auth: through,
      headers: { Range: `bytes=${first.bytes.length}-` },
    });
    expect(rest.status).toBe(206);
    const tail = new Uint8Array(await rest.arrayBuffer());
    const joined = new Uint8Array(first.bytes.length + tail.length);
    joined.set(first.bytes);
    joined.set(tail, first.bytes.length);
    expect(joined).toEqual(file);
  });

  it('a download R2 refuses answers 503, not a 500', async () => {
    const { auth } = await setupAdmin();
    const { key, book } = await bookWithPages(auth, 'fail-file');
    const worker = faultyWorker(libraryReadFault(key, { kind: 'fail', error: r2InternalError() }));
    const through = await worker.signIn(ADMIN);
    const res = await worker.fetch(`/books/${book.id}/file`, { auth: through });
    const body = await res.json();
    expectError(
      { status: res.status, body, headers: res.headers, text: JSON.stringify(body) },
      503,
      'ServiceUnavailable',
    );
  });
});
