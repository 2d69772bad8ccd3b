/**
 * Issue 21 point 2, the slow faults (`npm run test:faults`), on `npm start`'s two real processes
 * (test/support/split-server.ts) — the platform failing for real, nothing injected:
 * - the jobs process (book-work consumers, renderer) killed in the middle of a batch: nothing half-written,
 *   resized pages are a clear 503 while originals are still served, and after a restart every book completes;
 * - SQLITE_BUSY for real: another writer holding the local D1 file's write lock, briefly (waited out) and for
 *   longer than the retry budget (a 503 with Retry-After, never a 500);
 * - the API process — and with it the event hub Durable Object — killed with SSE streams open: the streams
 *   end, the clients resume with Last-Event-ID and miss nothing the hub had published;
 * and through all of it readers keep writing progress: every write the server acknowledged is there at the end.
 */
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SplitServer, startSplitServer } from '../support/split-server';
import { readEventStream } from '../support/sse';

const BOOKS = 240;
const PAGES = 12;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: SplitServer;
let token = '';
let libraryId = '';
let bookIds: string[] = [];

async function call(method: string, route: string, json?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/v1${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(json ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null; // page bytes
  }
  return { status: response.status, body, headers: response.headers };
}

async function comic(seed: number): Promise<Uint8Array> {
  const files: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (let p = 0; p < PAGES; p++) {
    const image = await sharp({
      create: { width: 300, height: 450, channels: 3, background: { r: (seed * 37) % 255, g: (p * 19) % 255, b: 90 } },
    })
      .jpeg({ quality: 70 })
      .toBuffer();
    files[`${String(p + 1).padStart(3, '0')}.jpg`] = [new Uint8Array(image), { level: 0 }];
  }
  return zipSync(files);
}

/** Readers writing progress all along; what the server acknowledged is kept to be checked at the end. */
const acknowledged = new Map<string, number>();
const progressStatuses = new Map<number, number>();
let writing = false;
let writer: Promise<void> = Promise.resolve();
function startProgressWriters() {
  writing = true;
  let turn = 0;
  writer = (async () => {
    while (writing) {
      const bookId = bookIds[turn % bookIds.length] as string;
      const page = 1 + (Math.floor(turn / bookIds.length) % PAGES);
      turn += 1;
      const res = await call('PUT', `/books/${bookId}/progress`, { current_page: page }).catch(() => ({ status: 0 }));
      progressStatuses.set(res.status, (progressStatuses.get(res.status) ?? 0) + 1);
      if (res.status === 200) acknowledged.set(bookId, page);
      await sleep(100);
    }
  })();
}

/** Books of the library as the database has them (read-only, beside the running server). */
async function databaseState() {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(server.databaseFile(), { readOnly: true });
  try {
    const count = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n);
    return {
      complete: count(
        `SELECT count(*) AS n FROM books WHERE file_hash != '' AND analyzed = 1 AND thumbnail_key IS NOT NULL`,
      ),
      failed: count(`SELECT count(*) AS n FROM books WHERE analysis_error IS NOT NULL OR thumbnail_error IS NOT NULL`),
      // Half-written: hashes without page sizes, or page sizes without hashes.
      halfWritten: count(`SELECT count(*) AS n FROM books b WHERE
          (b.file_hash != '' AND EXISTS (SELECT 1 FROM book_pages p WHERE p.book_id = b.id AND p.width IS NULL))
          OR (b.file_hash = '' AND EXISTS (SELECT 1 FROM book_pages p WHERE p.book_id = b.id AND p.width IS NOT NULL))`),
    };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  server = await startSplitServer({
    LONGBOX_INGEST__REQUEUE_AFTER_MINUTES: '0',
    LONGBOX_INGEST__RETRY_DELAY_SECONDS: '1',
  });
  await server.start('api');
  await server.start('jobs');
  const setup = await fetch(`${server.url}/api/v1/setup/initialize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', email: 'admin@example.com', password: 'a-long-passphrase' }),
  });
  token = ((await setup.json()) as { access_token: string }).access_token;
  libraryId = (await call('POST', '/libraries', { name: 'Faults', path: 'faults' })).body.id;
  for (let i = 0; i < BOOKS; i += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, BOOKS - i) }, async (_, k) => {
        const n = i + k;
        const key = `Series ${Math.floor(n / 20)}/Book ${String(n).padStart(3, '0')}.cbz`;
        const res = await fetch(
          `${server.url}/api/v1/libraries/${libraryId}/files/${key.split('/').map(encodeURIComponent).join('/')}`,
          {
            method: 'PUT',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
            body: await comic(n),
          },
        );
        if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
      }),
    );
  }
}, 600_000);

afterAll(async () => {
  writing = false;
  await writer;
  await server?.stop();
});

describe('npm start under real faults', () => {
  it('the jobs process killed mid-batch: nothing half-written, resized pages are 503s meanwhile, every book completes after a restart', async () => {
    const before = server.batches.length;
    expect((await call('POST', `/libraries/${libraryId}/scan`)).status).toBe(202);
    // The scan lists the books at once; the consumers complete them batch by batch.
    for (const deadline = Date.now() + 120_000; bookIds.length < BOOKS; ) {
      const listed = await call('GET', `/books?library_id=${libraryId}&pageSize=500`);
      bookIds = (listed.body?.data ?? []).map((b: { id: string }) => b.id);
      if (Date.now() > deadline) throw new Error(`${bookIds.length} books listed\n${server.output()}`);
      await sleep(250);
    }
    startProgressWriters();
    for (const deadline = Date.now() + 120_000; server.batches.length === before; ) {
      if (Date.now() > deadline) throw new Error(`no consumer batch finished\n${server.output()}`);
      await sleep(20);
    }
    await server.kill('jobs');
    const atKill = await databaseState();
    expect(atKill.complete).toBeLessThan(BOOKS); // it was killed with work left
    expect(atKill.halfWritten).toBe(0);

    // The renderer went with the jobs process: a resized page is a clear 503, an original page is served.
    const resized = await call('GET', `/books/${bookIds[0]}/pages/2?width=160`);
    expect(resized.status).toBe(503);
    expect(resized.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(resized.body).toMatchObject({ error: 'ServiceUnavailable' });
    expect((await call('GET', `/books/${bookIds[0]}/pages/2`)).status).toBe(200);

    await sleep(2000);
    await server.start('jobs');
    // The cron re-queues what the killed process took with it (npm start ticks it every minute).
    let state = await databaseState();
    for (const deadline = Date.now() + 300_000; state.complete + state.failed < BOOKS; ) {
      await server.cron();
      await sleep(3000);
      state = await databaseState();
      if (Date.now() > deadline) throw new Error(`${JSON.stringify(state)}\n${server.output()}`);
    }
    expect(state).toEqual({ complete: BOOKS, failed: 0, halfWritten: 0 });
    const rendered = await call('GET', `/books/${bookIds[0]}/pages/2?width=160`);
    expect(rendered.status).toBe(200);
  });

  it('SQLITE_BUSY: a short hold of the write lock is waited out; a long one is a 503, never a 500', async () => {
    // One writer at a time from here, so the order of acknowledgements is the order of the writes.
    writing = false;
    await writer;
    const { DatabaseSync } = await import('node:sqlite');
    const holder = new DatabaseSync(server.databaseFile());
    const during = async (holdMs: number) => {
      holder.exec('BEGIN IMMEDIATE'); // the write lock, as the other process's transaction holds it
      const statuses: number[] = [];
      const until = Date.now() + holdMs;
      const writes = (async () => {
        for (let i = 0; Date.now() < until; i++) {
          const res = await call('PUT', `/books/${bookIds[i % bookIds.length]}/progress`, { current_page: 3 });
          statuses.push(res.status);
          if (res.status === 200) acknowledged.set(bookIds[i % bookIds.length] as string, 3);
        }
      })();
      await sleep(holdMs);
      holder.exec('ROLLBACK');
      await writes;
      return statuses;
    };
    try {
      const short = await during(800);
      expect(short.length).toBeGreaterThan(0);
      expect(short.every((s) => s === 200)).toBe(true);
      const long = await during(12_000);
      expect(long).toContain(503);
      expect(long.every((s) => s === 200 || s === 503)).toBe(true);
    } finally {
      holder.close();
    }
    expect((await call('PUT', `/books/${bookIds[0]}/progress`, { current_page: 4 })).status).toBe(200);
    acknowledged.set(bookIds[0] as string, 4);
    startProgressWriters();
  });

  it('the API process (and the event hub) killed with streams open: they end and resume with Last-Event-ID', async () => {
    const open = async (lastEventId?: number) => {
      const res = await fetch(`${server.url}/api/v1/events/stream`, {
        headers: { Authorization: `Bearer ${token}`, ...(lastEventId ? { 'Last-Event-ID': String(lastEventId) } : {}) },
      });
      expect(res.status).toBe(200);
      return readEventStream(res);
    };
    const waitFor = async (check: () => boolean, what: string, ms = 30_000) => {
      for (const deadline = Date.now() + ms; !check(); await sleep(50)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${server.output()}`);
      }
    };
    const streams = await Promise.all(Array.from({ length: 20 }, () => open()));
    const first = (await call('POST', '/libraries', { name: 'Before', path: 'before-kill' })).body.id;
    await waitFor(() => streams.every((s) => s.events.some((e) => e.data.library_id === first)), 'the first event');
    const seen = Math.max(...streams.flatMap((s) => s.events.map((e) => e.id)));

    writing = false;
    await writer;
    await server.kill('api');
    await waitFor(() => streams.every((s) => s.ended), 'every stream to end');
    await server.start('api');
    startProgressWriters();
    const second = (await call('POST', '/libraries', { name: 'After', path: 'after-kill' })).body.id;
    const resumed = await Promise.all(streams.map(() => open(seen)));
    await waitFor(
      () => resumed.every((s) => s.events.some((e) => e.data.library_id === second)),
      'the resumed streams to replay the event published meanwhile',
    );
    for (const stream of resumed) {
      expect(stream.events.every((e) => e.id > seen)).toBe(true);
      await stream.close();
    }
  });

  it('every progress write the server acknowledged is there', async () => {
    writing = false;
    await writer;
    expect(acknowledged.size).toBeGreaterThan(20);
    // No write was answered with anything but success or a retryable refusal.
    expect([...progressStatuses.keys()].filter((status) => status !== 200 && status !== 503 && status !== 0)).toEqual(
      [],
    );
    for (const [bookId, page] of acknowledged) {
      const stored = await call('GET', `/books/${bookId}/progress`);
      expect({ bookId, page: stored.body?.currentPage }).toEqual({ bookId, page });
    }
  });
});
