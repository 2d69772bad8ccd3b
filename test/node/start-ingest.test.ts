/**
 * Issue 11 point 3 and its faults, on the real `npm start` (scripts/start.mjs: the API process and the
 * ingest-consumer process over one local state, in a temporary PERSIST_TO folder):
 * - the server answers GET /series, GET /tasks, page requests and progress writes while it ingests a
 *   library, and both processes write the one local D1 without losing or refusing anything;
 * - stopping everything mid-ingest (the local queue forgets its messages) and starting again finishes every
 *   book once the cron re-queues the lost work.
 * - (issue 31 point 13) `npm start` says it is ready only once an upload is analysed at once: a book
 *   uploaded the moment the API answers is analysed within seconds (not at the cron's re-queue), and the
 *   output is a few lines, then "Longbox is ready at …".
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/dev-server';

const ROOT = path.resolve(__dirname, '../..');
const states: string[] = [];
const newState = () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'longbox-start-'));
  states.push(folder);
  return folder;
};
const state = newState();
let server: ChildProcess | undefined;
let output = '';
/** Every line `npm start` printed, as it printed them (request logs included). */
let printed: string[] = [];
/** The consumers' per-batch lines ("batch done"): what each delivery did, across restarts. */
const batches: Array<{ details: number; thumbnails: number }> = [];
let base = '';
let token = '';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `npm start` as a user runs it (the script npm runs), in its own process group so stop() ends it all.
 * Ready when both processes answer, or (`untilApiAnswers`) as soon as the API does, as a user would go.
 */
async function start(
  options: { stateDir?: string; untilApiAnswers?: boolean; env?: Record<string, string> } = {},
): Promise<void> {
  // One `npm start` at a time: the first test's second start would otherwise outlive it (the second test starts
  // its own over it).
  await stop();
  const [port, jobsPort] = [await freePort(), await freePort()];
  printed = [];
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      JOBS_PORT: String(jobsPort),
      PERSIST_TO: options.stateDir ?? state,
      CI: 'true',
      WRANGLER_SEND_METRICS: 'false',
      // Lost book work is re-queued at the next cron tick instead of ten minutes later.
      LONGBOX_INGEST__REQUEUE_AFTER_MINUTES: '0',
      LONGBOX_LOG__LEVEL: 'info',
      ...options.env,
    },
  });
  const reader = () => {
    let partial = '';
    return (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        printed.push(line);
        if (line.includes('"batch done"')) batches.push(JSON.parse(line.slice(line.indexOf('{'))));
        else if (!line.includes('"msg":"request"')) output = `${output}${line}\n`.slice(-30_000);
      }
    };
  };
  server.stdout?.on('data', reader());
  server.stderr?.on('data', reader());
  // Ready when both processes are: the consumers' worker answers its 404 on JOBS_PORT.
  const deadline = Date.now() + 180_000;
  for (;;) {
    const up = await Promise.all([
      fetch(`${base}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      ),
      fetch(`http://127.0.0.1:${jobsPort}/`).then(
        (r) => r.status === 404,
        () => false,
      ),
    ]);
    if (options.untilApiAnswers ? up[0] : up.every(Boolean)) return;
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not start:\n${output}`);
    await sleep(500);
  }
}

async function stop(): Promise<void> {
  const child = server;
  if (!child?.pid) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, sleep(15_000)]);
  }
  // The whole group, even when `npm start` itself has already exited: a wrangler it started can outlive it.
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

afterAll(async () => {
  await stop();
  for (const folder of states) rmSync(folder, { recursive: true, force: true });
});

async function call(method: string, route: string, json?: unknown) {
  const started = performance.now();
  const response = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(json ? { 'Content-Type': 'application/json' } : {}) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null; // page bytes
  }
  return { status: response.status, body, ms: performance.now() - started };
}

async function upload(libraryId: string, key: string, bytes: Uint8Array) {
  const response = await fetch(
    `${base}/api/v1/libraries/${libraryId}/files/${key.split('/').map(encodeURIComponent).join('/')}`,
    {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
      body: bytes,
    },
  );
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
}

async function comic(pages: number, seed: number): Promise<Uint8Array> {
  const files: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (let p = 0; p < pages; p++) {
    const image = await sharp({
      create: { width: 400, height: 600, channels: 3, background: { r: (seed * 37) % 255, g: p * 9, b: 120 } },
    })
      .jpeg({ quality: 70 })
      .toBuffer();
    files[`${String(p + 1).padStart(3, '0')}.jpg`] = [new Uint8Array(image), { level: 0 }];
  }
  return zipSync(files);
}

/** The library's books as the API shows them, and whether each is complete (hashes, sizes, cover). */
async function completeness(libraryId: string) {
  const books = (await call('GET', `/books?library_id=${libraryId}&pageSize=500`)).body.data as any[];
  const complete = books.filter((b) => /^[0-9a-f]{64}$/.test(b.fileHash) && b.analyzed);
  return { books, complete };
}

async function untilComplete(libraryId: string, count: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { books, complete } = await completeness(libraryId);
    if (books.length === count && complete.length === count) return books;
    if (Date.now() > deadline)
      throw new Error(`${complete.length} of ${count} books complete:\n${output.slice(-4000)}`);
    await sleep(500);
  }
}

describe('npm start while a library is ingested (issue 11 point 3)', () => {
  it('keeps answering the API during ingest, and a restart mid-ingest loses no book', async () => {
    await start();
    const setup = await fetch(`${base}/api/v1/setup/initialize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', email: 'admin@example.com', password: 'admin-password-1' }),
    });
    expect(setup.status).toBe(201);
    token = ((await setup.json()) as { access_token: string }).access_token;
    const library = await call('POST', '/libraries', { name: 'Comics', path: 'comics' });
    expect(library.status).toBe(201);
    const libraryId = library.body.id as string;
    const pages = await comic(12, 1);
    for (let i = 0; i < 60; i++) await upload(libraryId, `comics/Series ${i % 6}/Book ${i}.cbz`, pages);

    // A first book to read while the rest is ingested.
    expect((await call('POST', `/libraries/${libraryId}/scan`)).status).toBe(202);
    let first: any;
    for (let i = 0; i < 200 && !first; i++) {
      first = (await call('GET', `/books?library_id=${libraryId}&pageSize=1`)).body.data[0];
      if (!first) await sleep(100);
    }
    const requests: Array<{ what: string; status: number; ms: number }> = [];
    let ingesting = true;
    const reader = (async () => {
      for (let n = 0; ingesting; n++) {
        const series = await call('GET', '/series?pageSize=20');
        requests.push({ what: 'GET /series', status: series.status, ms: series.ms });
        const tasks = await call('GET', `/tasks?library_id=${libraryId}`);
        requests.push({ what: 'GET /tasks', status: tasks.status, ms: tasks.ms });
        const page = await call('GET', `/books/${first.id}/pages/${(n % 12) + 1}`);
        requests.push({ what: 'GET page', status: page.status, ms: page.ms });
        // A write from the API process while the consumers write the same local D1.
        const progress = await call('PUT', `/books/${first.id}/progress`, { current_page: (n % 12) + 1 });
        requests.push({ what: 'PUT progress', status: progress.status, ms: progress.ms });
      }
    })();
    const books = await untilComplete(libraryId, 60, 180_000);
    ingesting = false;
    await reader;
    expect(requests.length).toBeGreaterThan(8);
    for (const request of requests)
      expect(request, JSON.stringify(request)).toMatchObject({ status: expect.any(Number) });
    expect(requests.filter((r) => r.status >= 300)).toEqual([]);
    // The two processes' writes all landed: every page has its size, every book its cover.
    const sized = (await call('GET', `/books/${books[0].id}/pages`)).body as Array<{ width: number }>;
    expect(sized.every((p) => p.width === 400)).toBe(true);
    for (const book of books.slice(0, 5)) expect((await call('GET', `/books/${book.id}/thumbnail`)).status).toBe(200);
    const slowest = Math.max(...requests.map((r) => r.ms));
    console.log(`npm start during ingest: ${requests.length} requests, slowest ${Math.round(slowest)} ms`);
    // Loose on purpose (the machine is shared): a blocked API thread took 15–31 s before issue 11.
    expect(slowest).toBeLessThan(5_000);

    // Stop everything mid-ingest: the local queue forgets what it held, the scan's state stays on disk.
    for (let i = 60; i < 100; i++) await upload(libraryId, `comics/More/Book ${i}.cbz`, pages);
    expect((await call('POST', `/libraries/${libraryId}/scan`)).status).toBe(202);
    let completeAtStop = 0;
    for (let i = 0; i < 600; i++) {
      completeAtStop = (await completeness(libraryId)).complete.length;
      if (completeAtStop > 60) break;
      await sleep(50);
    }
    await stop();
    console.log(`stopped with ${completeAtStop} of 100 books complete`);
    await start();
    // The cron tick `npm start` sends once a minute, sent now.
    const tick = await fetch(`${base}/__scheduled?cron=${encodeURIComponent('* * * * *')}`);
    expect(tick.status).toBe(200);
    const all = await untilComplete(libraryId, 100, 180_000);
    expect(new Set(all.map((b: { id: string }) => b.id)).size).toBe(100);
    // Nothing done twice, but for the one batch (≤ 10 books) that was in flight when the processes stopped.
    // (From the consumers' log lines; a batch cut off by the stop logs nothing, so this is a ceiling check.)
    const details = batches.reduce((n, b) => n + b.details, 0);
    const thumbnails = batches.reduce((n, b) => n + b.thumbnails, 0);
    console.log(`details passes ${details}, thumbnails ${thumbnails} logged for 100 books`);
    expect(details).toBeGreaterThan(0);
    expect(details).toBeLessThanOrEqual(110);
    expect(thumbnails).toBeLessThanOrEqual(110);
  }, 600_000);
});

describe('npm start is ready when it says so (issue 31 point 13)', () => {
  it('analyses a book uploaded the moment the API answers within seconds, and says little before "ready"', async () => {
    // The re-queue of lost work at its real delay (ten minutes): only the queue itself can finish the book.
    await start({ stateDir: newState(), untilApiAnswers: true, env: { LONGBOX_INGEST__REQUEUE_AFTER_MINUTES: '10' } });
    const answeredAt = Date.now();
    const setup = await fetch(`${base}/api/v1/setup/initialize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', email: 'admin@example.com', password: 'admin-password-1' }),
    });
    expect(setup.status).toBe(201);
    token = ((await setup.json()) as { access_token: string }).access_token;
    const library = await call('POST', '/libraries', { name: 'Comics', path: 'comics' });
    const libraryId = library.body.id as string;
    await upload(libraryId, 'comics/First/First 1.cbz', await comic(3, 7));
    expect((await call('POST', `/libraries/${libraryId}/scan`)).status).toBe(202);
    const [book] = await untilComplete(libraryId, 1, 60_000);
    console.log(
      `a book uploaded as the API answered was analysed ${Math.round((Date.now() - answeredAt) / 1000)} s later`,
    );
    expect(book.pageCount).toBe(3);
    expect((await call('GET', `/books/${book.id}/thumbnail`)).status).toBe(200);

    // The output: a few lines, each migration at most once, no wrangler banner, then where to go.
    const ready = printed.findIndex((line) => line.startsWith('Longbox is ready at '));
    expect(ready, printed.slice(0, 40).join('\n')).toBeGreaterThan(-1);
    expect(printed[ready]).toBe(`Longbox is ready at ${base}`);
    expect(printed.filter((line) => line.startsWith('Longbox is ready'))).toHaveLength(1);
    const before = printed.slice(0, ready);
    expect(before.length, before.join('\n')).toBeLessThanOrEqual(6);
    expect(before).toContainEqual(
      expect.stringMatching(/^Database: \d+ migrations applied \(0000_foundation … \d{4}_\w+\)\.$/),
    );
    expect(printed.join('\n')).not.toMatch(
      /⛅️|has access to the following bindings|Request\.cf|Your types might be out of date/,
    );
    await stop();
  }, 300_000);
});
