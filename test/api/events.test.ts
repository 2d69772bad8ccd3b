/**
 * API.md §6 Events and DECISIONS.md §Tasks and events: the three SSE streams, frame shape
 * (`id`, `event`, `data`), event data fields, Last-Event-ID resume and keep-alive comments.
 */
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, authHeaders, type Credentials, expectError } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';

interface Frame {
  id?: number;
  event?: string;
  data?: any;
  comment?: string;
}

/** An open SSE connection that collects parsed frames as they arrive. */
async function connect(path: string, auth: Credentials, headers: Record<string, string> = {}) {
  const response = await SELF.fetch(`http://longbox.test/api/v1${path}`, {
    headers: { Accept: 'text/event-stream', ...authHeaders(auth), ...headers },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const frame: Frame = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) frame.comment = line.slice(1).trim();
          else if (line.startsWith('id: ')) frame.id = Number(line.slice(4));
          else if (line.startsWith('event: ')) frame.event = line.slice(7);
          else if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6));
        }
        frames.push(frame);
        end = buffer.indexOf('\n\n');
      }
    }
  })().catch(() => {});
  return {
    frames,
    async waitFor(predicate: (frame: Frame) => boolean, timeoutMs = 10_000): Promise<Frame> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = frames.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching frame; got ${JSON.stringify(frames)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}

describe('GET /events/stream (API.md §6 entity events)', () => {
  it('streams library and book events as id/event/data frames with the documented fields', async () => {
    const { auth } = await setupAdmin();
    const stream = await connect('/events/stream', auth);
    const libraryId = await createLibrary(auth);
    const created = await stream.waitFor((f) => f.event === 'library_created');
    expect(created.id).toEqual(expect.any(Number));
    expect(created.data).toEqual({ type: 'library_created', library_id: libraryId, timestamp: expect.any(String) });

    await putObject('comics/Saga/Saga 01.cbz', await makeCbz(2));
    await scan(auth, libraryId);
    const book = await stream.waitFor((f) => f.event === 'book_created');
    expect(book.data).toEqual({
      type: 'book_created',
      book_id: expect.any(String),
      series_id: expect.any(String),
      library_id: libraryId,
      timestamp: expect.any(String),
    });
    const series = await stream.waitFor((f) => f.event === 'series_created');
    expect(series.data).toMatchObject({ series_id: book.data.series_id, library_id: libraryId });
    // Task and scan progress go to their own streams, not this one.
    expect(stream.frames.some((f) => f.event === 'task_progress' || f.event === 'scan_progress')).toBe(false);
    await stream.close();
  });

  it('sends a keep-alive comment while idle', async () => {
    const { auth } = await setupAdmin();
    const stream = await connect('/events/stream', auth);
    // The test configuration shortens the 15-second interval (LONGBOX_EVENTS__KEEP_ALIVE_MS).
    await stream.waitFor((f) => f.comment === 'keep-alive');
    await stream.close();
  });

  it('replays the events after Last-Event-ID on reconnect', async () => {
    const { auth } = await setupAdmin();
    const first = await connect('/events/stream', auth);
    await createLibrary(auth, { name: 'One', path: 'one' });
    const one = await first.waitFor((f) => f.event === 'library_created');
    await first.close();

    await createLibrary(auth, { name: 'Two', path: 'two' });
    await createLibrary(auth, { name: 'Three', path: 'three' });
    const resumed = await connect('/events/stream', auth, { 'Last-Event-ID': String(one.id) });
    const replayed = await resumed.waitFor((f) => f.event === 'library_created');
    expect(replayed.id).toBeGreaterThan(one.id as number);
    await resumed.waitFor((f) => f.event === 'library_created' && f.id !== replayed.id);
    expect(resumed.frames.filter((f) => f.event === 'library_created')).toHaveLength(2);
    await resumed.close();
  });

  it('needs credentials; a bad Last-Event-ID is a 400', async () => {
    const { auth } = await setupAdmin();
    expectError(await api('/events/stream'), 401, 'Unauthorized');
    expectError(await api('/events/stream', { auth, headers: { 'Last-Event-ID': 'abc' } }), 400, 'BadRequest');
  });
});

describe('GET /tasks/stream and /scans/stream (API.md §6)', () => {
  it('streams task_progress and scan_progress of a scan', async () => {
    const { auth } = await setupAdmin();
    const tasks = await connect('/tasks/stream', auth);
    const scans = await connect('/scans/stream', auth);
    const libraryId = await createLibrary(auth);
    await putObject('comics/A/a.cbz', await makeCbz(1));
    const result = await scan(auth, libraryId);

    const progress = await tasks.waitFor((f) => f.event === 'task_progress' && f.data.status === 'completed');
    expect(progress.data).toEqual({
      type: 'task_progress',
      task_id: result.taskId,
      task_type: 'scan_library',
      status: 'completed',
      progress: { current: 1, total: 1, message: expect.any(String) },
      timestamp: expect.any(String),
    });
    const scanFrame = await scans.waitFor((f) => f.event === 'scan_progress' && f.data.status === 'completed');
    expect(scanFrame.data).toEqual({
      type: 'scan_progress',
      library_id: libraryId,
      task_id: result.taskId,
      status: 'completed',
      files_total: 1,
      files_processed: 1,
      series_found: 1,
      books_found: 1,
      errors: 0,
      files_skipped: 0,
      skipped: [],
      started_at: expect.any(String),
      completed_at: expect.any(String),
      timestamp: expect.any(String),
    });
    await tasks.close();
    await scans.close();
  });

  it('refuses a reader the task stream (TasksRead) but not the scan stream', async () => {
    const { auth } = await setupAdmin();
    const reader = await createUser(auth, { role: 'reader' });
    const { auth: readerAuth } = await login(reader.username, reader.password);
    expectError(await api('/tasks/stream', { auth: readerAuth }), 403, 'Forbidden');
    const scans = await connect('/scans/stream', readerAuth);
    await scans.close();
  });
});
