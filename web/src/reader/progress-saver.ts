/**
 * Saving reading progress without ever getting in the way of reading (komga#1067: a slow progress write
 * queued page requests behind it). A page turn only records the position locally; the write goes out
 * later, debounced per book, at low priority. A write that cannot reach the server stays queued in
 * storage and is sent when the network returns — unless the server's progress is newer: last write by
 * time wins, comparing when the position was recorded here with the server's `updatedAt`.
 */
import { PENDING_PROGRESS_KEY } from './pending-progress-key';

export { PENDING_PROGRESS_KEY };

export interface ProgressUpdate {
  /** 1-based page (EPUB: the position the API counts). */
  currentPage: number;
  completed: boolean;
  /** 0..1; kept by the server for reflowable EPUBs. */
  percentage?: number;
  /** EPUB CFI (DECISIONS.md §Reader apps: at most 4 KiB). */
  locator?: string;
}

/** The server side of progress: the shell's API client behind two calls. */
export interface ProgressTransport {
  /** The server's `updatedAt` for the book's progress, or null when it has none. */
  updatedAt(bookId: string): Promise<string | null>;
  /** `keepalive`: the request must outlive the page (the tab is being closed or hidden). */
  put(bookId: string, update: ProgressUpdate, options?: { keepalive?: boolean }): Promise<void>;
}

/** Thrown by a transport when the server answered and refused (so retrying is pointless). */
export class ProgressRejected extends Error {}

/** The part of `Storage` (localStorage) the saver needs. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface QueuedProgress {
  update: ProgressUpdate;
  /** Client time (ms since epoch) when the reader was at this position. */
  savedAt: number;
}

export interface SyncReport {
  sent: string[];
  /** Dropped because the server had a newer position (read on another device meanwhile). */
  superseded: string[];
  /** Still queued: the network is still down. */
  pending: string[];
}

export const DEFAULT_SAVE_DELAY_MS = 800;

export interface ProgressSaverOptions {
  delayMs?: number;
  now?: () => number;
  /** Told of every position recorded (not in incognito): the reading clock of the statistics. */
  onSave?: (bookId: string, update: ProgressUpdate) => void;
}

export class ProgressSaver {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly delayMs: number;
  private readonly now: () => number;
  private readonly onSave: ((bookId: string, update: ProgressUpdate) => void) | undefined;
  private syncing: Promise<SyncReport> | null = null;
  /** The `savedAt` of each position whose write is in flight: the same position is not sent twice. */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly transport: ProgressTransport,
    private readonly store: KeyValueStore,
    options: ProgressSaverOptions = {},
  ) {
    this.delayMs = options.delayMs ?? DEFAULT_SAVE_DELAY_MS;
    this.now = options.now ?? Date.now;
    this.onSave = options.onSave;
  }

  /** Records a position; returns at once. Incognito reading records nothing. */
  save(bookId: string, update: ProgressUpdate, options: { incognito?: boolean } = {}): void {
    if (options.incognito) return;
    this.onSave?.(bookId, update);
    const queue = this.read();
    queue[bookId] = { update, savedAt: this.now() };
    this.write(queue);
    const timer = this.timers.get(bookId);
    if (timer) clearTimeout(timer);
    this.timers.set(
      bookId,
      setTimeout(() => {
        this.timers.delete(bookId);
        void this.send(bookId);
      }, this.delayMs),
    );
  }

  /** Sends every recorded position now (closing the reader, leaving the page). */
  async flush(): Promise<void> {
    for (const [bookId, timer] of this.timers) {
      clearTimeout(timer);
      this.timers.delete(bookId);
    }
    await Promise.all(Object.keys(this.read()).map((bookId) => this.send(bookId)));
  }

  /**
   * The tab is being closed or hidden (`pagehide`, `visibilitychange`): no timer may ever run again, so every
   * recorded position leaves now, in requests the browser completes after the page is gone (issue 31 point
   * 8: the last page turned before closing a tab reached the server only when that browser next opened
   * Longbox, and another device showed the old page). Called from an event handler, it starts every request
   * before it returns. A position whose answer never arrives stays queued; the next start drops it if the
   * server's is newer, as it then is.
   */
  leaving(): void {
    for (const [bookId, timer] of this.timers) {
      clearTimeout(timer);
      this.timers.delete(bookId);
    }
    for (const bookId of Object.keys(this.read())) void this.send(bookId, { keepalive: true });
  }

  /** Positions waiting for the network. */
  pending(): Record<string, QueuedProgress> {
    return this.read();
  }

  /**
   * After a reconnect (or at start): each queued position is sent unless the server's is newer. One run
   * at a time, so two `online` events do not send twice.
   */
  syncQueued(): Promise<SyncReport> {
    this.syncing ??= this.runSync().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async runSync(): Promise<SyncReport> {
    const report: SyncReport = { sent: [], superseded: [], pending: [] };
    for (const [bookId, queued] of Object.entries(this.read())) {
      let serverTime: string | null;
      try {
        serverTime = await this.transport.updatedAt(bookId);
      } catch (error) {
        if (error instanceof ProgressRejected) {
          this.remove(bookId, queued.savedAt);
          continue;
        }
        report.pending.push(bookId);
        continue;
      }
      if (serverTime !== null && Date.parse(serverTime) > queued.savedAt) {
        this.remove(bookId, queued.savedAt);
        report.superseded.push(bookId);
        continue;
      }
      (await this.send(bookId)) ? report.sent.push(bookId) : report.pending.push(bookId);
    }
    return report;
  }

  /** True when the position left the queue (sent, or refused for good). */
  private async send(bookId: string, options: { keepalive?: boolean } = {}): Promise<boolean> {
    const queued = this.read()[bookId];
    if (!queued) return true;
    if (this.inFlight.get(bookId) === queued.savedAt) return false;
    this.inFlight.set(bookId, queued.savedAt);
    try {
      await this.transport.put(bookId, queued.update, options);
    } catch (error) {
      if (!(error instanceof ProgressRejected)) return false;
    } finally {
      if (this.inFlight.get(bookId) === queued.savedAt) this.inFlight.delete(bookId);
    }
    this.remove(bookId, queued.savedAt);
    return true;
  }

  /** Removes a queued position unless a newer one replaced it while the request was in flight. */
  private remove(bookId: string, savedAt: number): void {
    const queue = this.read();
    if (queue[bookId]?.savedAt !== savedAt) return;
    delete queue[bookId];
    this.write(queue);
  }

  private read(): Record<string, QueuedProgress> {
    try {
      const parsed: unknown = JSON.parse(this.store.getItem(PENDING_PROGRESS_KEY) ?? '{}');
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, QueuedProgress>) : {};
    } catch {
      return {};
    }
  }

  private write(queue: Record<string, QueuedProgress>): void {
    this.store.setItem(PENDING_PROGRESS_KEY, JSON.stringify(queue));
  }
}
