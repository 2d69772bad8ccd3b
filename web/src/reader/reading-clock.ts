/**
 * Measured reading time for the statistics (docs/DECISIONS.md §Reading statistics; Codex-rs's activity rules):
 * a stretch of reading starts at a position change and grows with each one; a gap longer than the idle timeout,
 * a hidden tab, leaving the page or moving to another book ends it, and the time between position changes —
 * only gaps shorter than the timeout — is sent as one measured session (`POST /reading-sessions`, by
 * `navigator.sendBeacon` so it survives the page going away). A hidden tab or an idle reader adds nothing.
 */

/** Codex-rs's idle timeout: five minutes without a page turn is not reading. */
export const IDLE_AFTER_MS = 5 * 60_000;

/** One measured session as POST /reading-sessions takes it. */
export interface MeasuredSession {
  id: string;
  bookId: string;
  deviceId: string;
  kind: 'progress' | 'completed';
  activeDurationMs: number;
  pagesRead: number;
  clientStartedAt: string;
  clientEndedAt: string;
}

interface Stretch {
  bookId: string;
  startedAt: number;
  lastAt: number;
  activeMs: number;
  pages: number;
  lastPage: number;
  completed: boolean;
}

export class ReadingClock {
  private stretch: Stretch | null = null;

  constructor(
    private readonly deviceId: string,
    private readonly send: (session: MeasuredSession) => void,
    private readonly now: () => number = Date.now,
    private readonly newId: () => string = () => crypto.randomUUID(),
  ) {}

  /** The reader is at `page` of `bookId` now (a page turned, a scroll, a jump). */
  moved(bookId: string, page: number, completed: boolean): void {
    const now = this.now();
    const current = this.stretch;
    if (current && (current.bookId !== bookId || now - current.lastAt > IDLE_AFTER_MS)) this.end();
    const stretch = this.stretch;
    if (!stretch) {
      this.stretch = { bookId, startedAt: now, lastAt: now, activeMs: 0, pages: 0, lastPage: page, completed };
      return;
    }
    stretch.activeMs += now - stretch.lastAt;
    if (page !== stretch.lastPage) stretch.pages += 1;
    stretch.lastAt = now;
    stretch.lastPage = page;
    stretch.completed ||= completed;
  }

  /** The reading stops (tab hidden, page left, reader closed): the stretch so far is sent, if it holds any time. */
  end(): void {
    const stretch = this.stretch;
    this.stretch = null;
    if (!stretch || stretch.activeMs <= 0) return;
    this.send({
      id: this.newId(),
      bookId: stretch.bookId,
      deviceId: this.deviceId,
      kind: stretch.completed ? 'completed' : 'progress',
      activeDurationMs: stretch.activeMs,
      pagesRead: stretch.pages,
      clientStartedAt: new Date(stretch.startedAt).toISOString(),
      clientEndedAt: new Date(stretch.lastAt).toISOString(),
    });
  }
}

const DEVICE_KEY = 'longbox.reading-device';

/** This browser's device id for the statistics: made once, kept in local storage. */
export function browserDeviceId(store: Pick<Storage, 'getItem' | 'setItem'>): string {
  const known = store.getItem(DEVICE_KEY);
  if (known) return known;
  const made = crypto.randomUUID();
  store.setItem(DEVICE_KEY, made);
  return made;
}
