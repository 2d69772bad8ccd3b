/**
 * Issue 11 point 1: per-book work on Cloudflare Queues. A scan sends one message per new or changed
 * book; the consumer completes each (page sizes, fileHash, readerHash, thumbnail) idempotently: a
 * duplicate, a deleted book, a replaced file or a malformed message is acked without work; a failure
 * that may pass is retried with backoff; what the queue gives up on (dead-letter queue) is recorded on
 * the book; the cron re-queues books whose message got lost. The real queue and consumer run in the
 * test runtime (vitest.config.ts `queueConsumers`); single batches are handed to the worker's queue
 * handler with `createMessageBatch` to see each message's ack or retry.
 */
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
} from 'cloudflare:test';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { createD1Database } from '../../src/db/client';
import { books } from '../../src/db/schema';
import type { BookWorkMessage } from '../../src/ingest/book-work';
import { setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const db = () => createD1Database(env.DB);

async function scannedLibrary(auth: Credentials, count: number, path = 'comics') {
  const libraryId = await createLibrary(auth, { name: `Library ${path}`, path });
  for (let i = 1; i <= count; i++) await putObject(`${path}/Series/Book ${i}.cbz`, await makeCbz(2));
  const scanned = await scan(auth, libraryId);
  await waitForTasks(auth, libraryId, { since: scanned.completedAt });
  const rows = await db().select().from(books).where(eq(books.libraryId, libraryId)).orderBy(books.path);
  return { libraryId, scanned, rows };
}

const message = (body: unknown, attempts = 1) => ({
  id: crypto.randomUUID(),
  timestamp: new Date(),
  attempts,
  body,
});

/** Runs one batch through the worker's queue handler and returns what it acked and retried. */
async function deliver(queue: string, messages: ReturnType<typeof message>[], workerEnv: Env = env) {
  const batch = createMessageBatch(queue, messages);
  const ctx = createExecutionContext();
  await worker.queue(batch, workerEnv, ctx);
  return getQueueResult(batch, ctx);
}

const work = (book: typeof books.$inferSelect, thumbnailsSince: string | null = null): BookWorkMessage => ({
  bookId: book.id,
  etag: book.etag,
  thumbnailsSince,
});

function expectComplete(book: typeof books.$inferSelect | undefined) {
  expect(book?.fileHash).toMatch(/^[0-9a-f]{64}$/);
  expect(book?.readerHash).toMatch(/^[0-9a-f]{32}$/);
  expect(book?.analyzed).toBe(true);
  expect(book?.thumbnailKey).not.toBeNull();
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`never happened: ${JSON.stringify(value).slice(0, 500)}`);
    await sleep(50);
  }
}

describe('per-book work on the book-work queue (issue 11)', () => {
  it('completes every book of a scan through the queue, in batches, and reports it in the task rows', async () => {
    const { auth } = await setupAdmin();
    const { libraryId, rows } = await scannedLibrary(auth, 23);
    expect(rows).toHaveLength(23);
    for (const book of rows) expectComplete(book);
    // Every page has its size (one read per book, issue 11 point 2).
    const pages = (await api(`/books/${rows[0]?.id}/pages`, { auth })).body;
    expect(pages.map((p: { width: number; height: number }) => [p.width, p.height])).toEqual([
      [60, 90],
      [60, 90],
    ]);
    const cover = await api(`/books/${rows[0]?.id}/thumbnail`, { auth });
    expect(cover.status).toBe(200);
    const tasks = (await api(`/tasks?library_id=${libraryId}`, { auth })).body.data;
    expect(tasks.find((t: { type: string }) => t.type === 'hash_files')).toMatchObject({
      status: 'completed',
      progress: { current: 23, total: 23, message: '23 books analysed' },
      result: { processed: 23 },
    });
    expect(tasks.find((t: { type: string }) => t.type === 'generate_thumbnails')).toMatchObject({
      status: 'completed',
      progress: { current: 23, total: 23 },
      result: { generated: 23, failed: 0 },
    });
  });

  it('acks duplicates, deleted and unknown books, replaced files and malformed messages without redoing work', async () => {
    const { auth } = await setupAdmin();
    const { libraryId, rows } = await scannedLibrary(auth, 3);
    const [done, removed, replaced] = rows as [
      typeof books.$inferSelect,
      typeof books.$inferSelect,
      typeof books.$inferSelect,
    ];
    await env.LIBRARY.delete(removed.path);
    await scan(auth, libraryId);
    const gone = await db().select().from(books).where(eq(books.id, removed.id)).get();
    expect(gone?.deletedAt).not.toBeNull();

    const messages = [
      message(work(done)),
      message(work(done)),
      message(work(removed)),
      message({ bookId: crypto.randomUUID(), etag: 'x', thumbnailsSince: null }),
      message({ ...work(replaced), etag: 'an-older-version' }),
      message({ something: 'else' }),
    ];
    const result = await deliver('longbox-book-work', messages);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks.sort()).toEqual(messages.map((m) => m.id).sort());
    // Nothing was redone: the complete book and its thumbnail are as they were.
    const after = await db()
      .select()
      .from(books)
      .where(inArray(books.id, [done.id, replaced.id]));
    expect(after.find((b) => b.id === done.id)).toMatchObject({
      updatedAt: done.updatedAt,
      thumbnailUpdatedAt: done.thumbnailUpdatedAt,
      fileHash: done.fileHash,
    });
    expect(after.find((b) => b.id === replaced.id)).toMatchObject({ updatedAt: replaced.updatedAt });
  });

  it('completes a book delivered twice in one batch once, with the same details', async () => {
    const { auth } = await setupAdmin();
    const { rows } = await scannedLibrary(auth, 1);
    const book = rows[0] as typeof books.$inferSelect;
    // As if its work had been lost: the details and the thumbnail are missing again.
    await db()
      .update(books)
      .set({ fileHash: '', readerHash: null, analyzed: false, thumbnailKey: null, thumbnailUpdatedAt: null })
      .where(eq(books.id, book.id));
    const hub = env.EVENT_HUB.get(env.EVENT_HUB.idFromName('global'));
    const before = (await hub.since(0)).length;
    const result = await deliver('longbox-book-work', [message(work(book)), message(work(book))]);
    expect(result.explicitAcks).toHaveLength(2);
    const after = await db().select().from(books).where(eq(books.id, book.id)).get();
    expectComplete(after);
    expect(after).toMatchObject({ fileHash: book.fileHash, readerHash: book.readerHash });
    const covers = (
      await until(
        () => hub.since(0),
        (all) => all.length > before,
      )
    ).filter(
      (e) =>
        e.id > before && e.event.type === 'cover_updated' && (e.event as { entity_id?: string }).entity_id === book.id,
    );
    expect(covers).toHaveLength(1);
  });

  it('retries a failure that may pass (the renderer is unreachable) and keeps the book pending', async () => {
    const { auth } = await setupAdmin();
    const { rows } = await scannedLibrary(auth, 1);
    const book = rows[0] as typeof books.$inferSelect;
    await db().update(books).set({ thumbnailKey: null, thumbnailUpdatedAt: null }).where(eq(books.id, book.id));
    // Fault injection: the renderer service binding fails as an unreachable worker does.
    const outage = {
      ...env,
      RENDERER: new Proxy({}, { get: () => () => Promise.reject(new Error('Network connection lost.')) }),
    } as unknown as Env;
    const first = message(work(book), 1);
    const third = message(work(book, '2000-01-01T00:00:00.000Z'), 3);
    const result = await deliver('longbox-book-work', [first, third], outage);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual([first.id, third.id].sort());
    const after = await db().select().from(books).where(eq(books.id, book.id)).get();
    expect(after).toMatchObject({ thumbnailKey: null, thumbnailError: null, analysisError: null });
  });

  it('records what the dead-letter queue received on the book, so the round completes instead of retrying forever', async () => {
    const { auth } = await setupAdmin();
    const { libraryId, rows } = await scannedLibrary(auth, 2);
    const [unreadable, uncovered] = rows as [typeof books.$inferSelect, typeof books.$inferSelect];
    await db().update(books).set({ fileHash: '', analyzed: false }).where(eq(books.id, unreadable.id));
    await db().update(books).set({ thumbnailKey: null }).where(eq(books.id, uncovered.id));
    // A round still waiting for both books.
    await putObject('comics/Series/Book 3.cbz', await makeCbz(1));
    const rescanned = await scan(auth, libraryId);
    await until(
      async () =>
        (await db().select().from(books).where(eq(books.path, 'comics/Series/Book 3.cbz')).get())?.thumbnailKey,
      (key) => !!key,
    );
    const running = (await api(`/tasks?library_id=${libraryId}&status=running`, { auth })).body.data;
    expect(running.map((t: { type: string }) => t.type).sort()).toEqual(['generate_thumbnails', 'hash_files']);

    const messages = [message(work(unreadable)), message(work(uncovered))];
    const result = await deliver('longbox-book-work-dlq', messages);
    expect(result.explicitAcks.sort()).toEqual(messages.map((m) => m.id).sort());
    const shown = (await api(`/books/${unreadable.id}`, { auth })).body;
    expect(shown.analysisError).toMatch(/^Longbox gave up on this book after repeated failures/);
    const stored = await db().select().from(books).where(eq(books.id, uncovered.id)).get();
    expect(stored?.thumbnailError).toMatch(/^Longbox gave up on this book/);
    expect(stored?.analysisError).toBeNull();
    await waitForTasks(auth, libraryId, { since: rescanned.completedAt });
    const rounds = (await api(`/tasks?library_id=${libraryId}`, { auth })).body.data.filter(
      (t: { createdAt: string }) => t.createdAt >= rescanned.completedAt,
    );
    expect(rounds.find((t: { type: string }) => t.type === 'generate_thumbnails')).toMatchObject({
      status: 'completed',
      result: { failed: 1 },
    });
  });

  it('the cron re-queues books whose message got lost, and leaves recently queued ones to their message', async () => {
    const { auth } = await setupAdmin();
    const { rows } = await scannedLibrary(auth, 2);
    const [lost, inFlight] = rows as [typeof books.$inferSelect, typeof books.$inferSelect];
    const now = Date.now();
    const incomplete = {
      fileHash: '',
      readerHash: null,
      analyzed: false,
      thumbnailKey: null,
      thumbnailUpdatedAt: null,
    };
    await db()
      .update(books)
      .set({ ...incomplete, workQueuedAt: new Date(now - 60 * 60_000).toISOString() })
      .where(eq(books.id, lost.id));
    await db()
      .update(books)
      .set({ ...incomplete, workQueuedAt: new Date(now - 60_000).toISOString() })
      .where(eq(books.id, inFlight.id));
    const tick = async (at: number) => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: '* * * * *' }), env, ctx);
    };
    await tick(now);
    const completed = await until(
      () => db().select().from(books).where(eq(books.id, lost.id)).get(),
      (b) => !!b?.thumbnailKey && b.analyzed,
    );
    expectComplete(completed);
    expect(completed?.fileHash).toBe(lost.fileHash);
    await sleep(300);
    expect(await db().select().from(books).where(eq(books.id, inFlight.id)).get()).toMatchObject({
      fileHash: '',
      thumbnailKey: null,
    });
    // Ten minutes on (LONGBOX_INGEST__REQUEUE_AFTER_MINUTES), its message counts as lost too.
    await tick(now + 11 * 60_000);
    expectComplete(
      await until(
        () => db().select().from(books).where(eq(books.id, inFlight.id)).get(),
        (b) => !!b?.thumbnailKey && b.analyzed,
      ),
    );
  });

  it('a deep scan started while the consumers still work leaves every book complete, each thumbnail made once', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth, { path: 'deep' });
    for (let i = 1; i <= 15; i++) await putObject(`deep/S/Book ${i}.cbz`, await makeCbz(2));
    await scan(auth, libraryId);
    // No waiting for the first round: the deep scan re-imports books the consumers are working on.
    const deep = await scan(auth, libraryId, 'deep');
    await waitForTasks(auth, libraryId, { since: deep.completedAt, timeoutMs: 60_000 });
    const rows = await db().select().from(books).where(eq(books.libraryId, libraryId));
    expect(rows).toHaveLength(15);
    for (const book of rows) {
      expectComplete(book);
      expect(book.thumbnailUpdatedAt! >= deep.startedAt).toBe(true);
    }
    const hub = env.EVENT_HUB.get(env.EVENT_HUB.idFromName('global'));
    const deepCovers = (await hub.since(0)).filter(
      (e) =>
        e.event.type === 'cover_updated' &&
        (e.event as { entity_type?: string }).entity_type === 'book' &&
        e.event.timestamp >= deep.startedAt,
    );
    const perBook = new Map<string, number>();
    for (const e of deepCovers) {
      const id = (e.event as { entity_id: string }).entity_id;
      perBook.set(id, (perBook.get(id) ?? 0) + 1);
    }
    // Every book got its deep-round cover. A book may have two events since the deep scan started: a
    // first-round batch can still be at work when it starts (a batch no longer holds up the scan's
    // requests), and publishes covers it made before that instant, which the deep round then makes again.
    // No round makes a book's cover twice, so never more than two.
    expect(perBook.size).toBe(15);
    expect([...perBook.values()].every((n) => n === 1 || n === 2)).toBe(true);
  });
});
