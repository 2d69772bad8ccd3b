/**
 * Progress saving (issue 12 points 3 and 7): page turns never wait on the write, incognito writes nothing,
 * a write made offline is queued and sent on reconnect, and last write by time wins against the server's
 * `updatedAt`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type KeyValueStore,
  PENDING_PROGRESS_KEY,
  ProgressRejected,
  ProgressSaver,
  type ProgressTransport,
  type ProgressUpdate,
} from './progress-saver';

class MemoryStore implements KeyValueStore {
  readonly data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
}

/** A server holding progress per book, which can go offline. */
class FakeServer implements ProgressTransport {
  online = true;
  readonly progress = new Map<string, { update: ProgressUpdate; updatedAt: string }>();
  readonly puts: { bookId: string; update: ProgressUpdate; keepalive?: boolean }[] = [];
  constructor(private readonly clock: () => number) {}
  async updatedAt(bookId: string) {
    if (!this.online) throw new TypeError('Failed to fetch');
    return this.progress.get(bookId)?.updatedAt ?? null;
  }
  async put(bookId: string, update: ProgressUpdate, options: { keepalive?: boolean } = {}) {
    if (!this.online) throw new TypeError('Failed to fetch');
    if (update.currentPage > 100) throw new ProgressRejected('current_page must be between 1 and 100');
    this.puts.push({ bookId, update, ...(options.keepalive ? { keepalive: true } : {}) });
    this.progress.set(bookId, { update, updatedAt: new Date(this.clock()).toISOString() });
  }
}

describe('progress saver', () => {
  let now = Date.parse('2026-11-24T01:00:00Z');
  const clock = () => now;
  let server: FakeServer;
  let store: MemoryStore;
  let saver: ProgressSaver;

  beforeEach(() => {
    vi.useFakeTimers();
    server = new FakeServer(clock);
    store = new MemoryStore();
    saver = new ProgressSaver(server, store, { delayMs: 500, now: clock });
  });
  afterEach(() => vi.useRealTimers());

  it('returns at once and sends only the last of quick page turns, after the delay', async () => {
    for (let page = 1; page <= 5; page++) saver.save('b1', { currentPage: page, completed: false });
    expect(server.puts).toEqual([]);
    await vi.advanceTimersByTimeAsync(499);
    expect(server.puts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.puts).toEqual([{ bookId: 'b1', update: { currentPage: 5, completed: false } }]);
    expect(saver.pending()).toEqual({});
  });

  it('writes nothing in incognito mode', async () => {
    saver.save('b1', { currentPage: 3, completed: false }, { incognito: true });
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.puts).toEqual([]);
    expect(store.data.has(PENDING_PROGRESS_KEY)).toBe(false);
  });

  it('keeps a position made offline and sends it when the network returns', async () => {
    server.online = false;
    saver.save('b1', { currentPage: 7, completed: false, locator: 'epubcfi(/6/4!/4/2/1:0)' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(Object.keys(saver.pending())).toEqual(['b1']);
    // A new saver (the app reopened offline) still finds it in storage.
    const reopened = new ProgressSaver(server, store, { now: clock });
    server.online = true;
    const report = await reopened.syncQueued();
    expect(report).toEqual({ sent: ['b1'], superseded: [], pending: [] });
    expect(server.progress.get('b1')?.update.locator).toBe('epubcfi(/6/4!/4/2/1:0)');
    expect(reopened.pending()).toEqual({});
  });

  it('drops an offline position when another device saved a newer one meanwhile', async () => {
    server.online = false;
    saver.save('b1', { currentPage: 4, completed: false });
    await vi.advanceTimersByTimeAsync(1000);
    now += 60_000;
    server.online = true;
    server.progress.set('b1', {
      update: { currentPage: 20, completed: false },
      updatedAt: new Date(now).toISOString(),
    });
    const report = await saver.syncQueued();
    expect(report.superseded).toEqual(['b1']);
    expect(server.progress.get('b1')?.update.currentPage).toBe(20);
    expect(saver.pending()).toEqual({});
  });

  it('sends an offline position that is newer than the server’s', async () => {
    server.progress.set('b1', { update: { currentPage: 2, completed: false }, updatedAt: new Date(now).toISOString() });
    now += 60_000;
    server.online = false;
    saver.save('b1', { currentPage: 9, completed: true });
    await vi.advanceTimersByTimeAsync(1000);
    server.online = true;
    expect((await saver.syncQueued()).sent).toEqual(['b1']);
    expect(server.progress.get('b1')?.update).toEqual({ currentPage: 9, completed: true });
  });

  it('keeps positions queued while the network is still down, and forgets ones the server refuses', async () => {
    server.online = false;
    saver.save('b1', { currentPage: 3, completed: false });
    saver.save('b2', { currentPage: 300, completed: false });
    await vi.advanceTimersByTimeAsync(1000);
    expect(await saver.syncQueued()).toEqual({ sent: [], superseded: [], pending: ['b1', 'b2'] });
    server.online = true;
    expect(await saver.syncQueued()).toEqual({ sent: ['b1', 'b2'], superseded: [], pending: [] });
    expect(server.puts.map((p) => p.bookId)).toEqual(['b1']);
    expect(saver.pending()).toEqual({});
  });

  it('flushes at once when the reader closes', async () => {
    saver.save('b1', { currentPage: 2, completed: false });
    await saver.flush();
    expect(server.puts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.puts).toHaveLength(1);
  });

  it('sends every recorded position at once, to outlive the page, when the tab closes or hides', async () => {
    saver.save('b1', { currentPage: 6, completed: false });
    saver.save('b2', { currentPage: 2, completed: false });
    saver.leaving();
    // Both requests started before leaving() returned: nothing waits for a timer or a later turn of the loop.
    expect(server.puts).toEqual([
      { bookId: 'b1', update: { currentPage: 6, completed: false }, keepalive: true },
      { bookId: 'b2', update: { currentPage: 2, completed: false }, keepalive: true },
    ]);
    // pagehide after visibilitychange, and the debounce that no longer fires: sent once each.
    saver.leaving();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.puts).toHaveLength(2);
    expect(saver.pending()).toEqual({});
  });

  it('survives unreadable storage', async () => {
    store.setItem(PENDING_PROGRESS_KEY, '{not json');
    expect(saver.pending()).toEqual({});
    saver.save('b1', { currentPage: 1, completed: false });
    expect(Object.keys(saver.pending())).toEqual(['b1']);
  });
});
