/**
 * Page-streaming progress records the page the reader is at; pages fetched ahead by a client's cache do not move
 * it (DECISIONS.md §Reader apps; issue 31 point 17), and it is written after the page is sent, retried, never
 * lost silently (issue 30 point 4). Apps are played by their requests through the worker's own handler, whose
 * deferred work (waitUntil) each step waits for.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUser, setupAdmin } from '../support/factories';
import { faultyWorker } from '../support/faults';
import { api, type Credentials } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const DESKTOP_CLIENT = 'DesktopComicReader/2.1 (prefetches three pages)';
const KOREADER = 'KOReader/2024.11';

/** A scanned 21-page book (the example) and a reader who streams it. */
async function seed() {
  const { auth: admin } = await setupAdmin();
  const libraryId = await createLibrary(admin);
  await putObject('comics/Long/Long 001.cbz', await makeCbz(21, { Series: 'Long', Number: '1' }));
  const done = await scan(admin, libraryId);
  await waitForTasks(admin, libraryId, { since: done.completedAt ?? '' });
  const listed = await api(`/books?library_id=${libraryId}`, { auth: admin });
  const user = await createUser(admin, { role: 'reader' });
  return { bookId: listed.body.data[0].id as string, auth: { basic: user } as Credentials };
}

/** An app streaming one book: fetches (0-based PSE page numbers, as the link counts them) and what they wrote. */
function streamingApp(bookId: string, auth: Credentials, userAgent: string, worker = faultyWorker({})) {
  const fetchPage = async (index: number) => {
    const res = await worker.fetch(`/opds/v1.2/books/${bookId}/pages/${index}`, {
      auth,
      headers: { 'User-Agent': userAgent },
    });
    expect(res.status).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  };
  return {
    /** Pages fetched at once, as a cache filling ahead does; returns when the writes they caused are done. */
    async fetchAtOnce(...indexes: number[]) {
      const bodies = await Promise.all(indexes.map(fetchPage));
      await worker.settle();
      return bodies;
    },
    async progress() {
      const res = await api(`/books/${bookId}/progress`, { auth });
      return res.status === 404 ? null : (res.body as { currentPage: number; completed: boolean });
    },
  };
}

describe('page-streaming progress (DECISIONS.md §Reader apps; issue 31 point 17)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a client prefetching three pages: opening at page 1 records page 1, each turn one page more', async () => {
    const { bookId, auth } = await seed();
    const app = streamingApp(bookId, auth, DESKTOP_CLIENT);
    // Opening the book: the page on screen and the three after it, all at once.
    await app.fetchAtOnce(0, 1, 2, 3);
    expect(await app.progress()).toMatchObject({ currentPage: 1, completed: false });
    // The reader turns to page 2: the cache already holds it and fetches page 5.
    await app.fetchAtOnce(4);
    expect((await app.progress())?.currentPage).toBe(2);
    await app.fetchAtOnce(5);
    expect((await app.progress())?.currentPage).toBe(3);
    // A jump ahead to page 15 fills the cache from there: the reader is at 15.
    await app.fetchAtOnce(14, 15, 16, 17);
    expect((await app.progress())?.currentPage).toBe(15);
  }, 120_000);

  it('the same pages arriving in any order within the burst open the book at the lowest of them', async () => {
    const { bookId, auth } = await seed();
    const app = streamingApp(bookId, auth, DESKTOP_CLIENT);
    await app.fetchAtOnce(3, 1, 0, 2);
    expect((await app.progress())?.currentPage).toBe(1);
  }, 120_000);

  it('an app that fetches only the page it shows (KOReader) records every page turned', async () => {
    const { bookId, auth } = await seed();
    const app = streamingApp(bookId, auth, KOREADER);
    for (const index of [0, 1, 2]) await app.fetchAtOnce(index);
    expect((await app.progress())?.currentPage).toBe(3);
  }, 120_000);

  it('a failed progress write is retried after the page was sent; one that keeps failing is logged, the page still served', async () => {
    const { bookId, auth } = await seed();
    let failures = 1;
    const refusing = faultyWorker({
      d1: ({ sql }) => {
        if (failures === 0 || !sql.some((s) => /insert into "read_progress"/i.test(s))) return undefined;
        failures -= 1;
        return new Error('D1_ERROR: Network connection lost.');
      },
    });
    const app = streamingApp(bookId, auth, KOREADER, refusing);
    const [page] = await app.fetchAtOnce(0);
    expect(page?.length).toBeGreaterThan(0);
    expect((await app.progress())?.currentPage).toBe(1);

    failures = Number.POSITIVE_INFINITY;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const [next] = await app.fetchAtOnce(1);
    expect(next?.length).toBeGreaterThan(0);
    expect((await app.progress())?.currentPage).toBe(1);
    const lines = logged.mock.calls.map((call) => String(call[0]));
    expect(
      lines.some((line) => line.includes('deferred work failed') && line.includes('Network connection lost')),
    ).toBe(true);
  }, 120_000);
});
