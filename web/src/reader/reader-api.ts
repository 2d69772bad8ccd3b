/**
 * Reading progress through the app's API client: the progress saver is one per app, so a reconnect sends
 * what any reader queued, and the position a book opens at. Every position also runs the reading clock, whose
 * measured sessions go out by beacon when the reading stops (reading-clock.ts); the progress writes name this
 * browser's device (`Longbox-Device-Id`), so the server does not infer the time the clock measures.
 */
import { ApiError, apiUrl, put } from '../api/client';
import { fetchProgress, type ServerProgress } from './book-requests';
import { ProgressRejected, ProgressSaver, type ProgressTransport, type ProgressUpdate } from './progress-saver';
import { browserDeviceId, ReadingClock } from './reading-clock';

const deviceId = browserDeviceId(localStorage);

/** The cookie signs the beacon in; the server's same-origin check passes it (fetch metadata or Referer). */
export const readingClock = new ReadingClock(deviceId, (session) => {
  const body = new Blob([JSON.stringify({ sessions: [session] })], { type: 'application/json' });
  navigator.sendBeacon?.(apiUrl('/reading-sessions'), body);
});
addEventListener('pagehide', () => readingClock.end());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') readingClock.end();
});

/** Network failures stay retryable; an answer that refuses the write (4xx) is final. */
function classify(error: unknown): never {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
    throw new ProgressRejected(error.message);
  }
  throw error;
}

const transport: ProgressTransport = {
  async updatedAt(bookId) {
    try {
      return (await fetchProgress(bookId))?.updatedAt ?? null;
    } catch (error) {
      return classify(error);
    }
  },
  async put(bookId, update: ProgressUpdate, options = {}) {
    try {
      await put(
        `/books/${bookId}/progress`,
        {
          current_page: update.currentPage,
          is_completed: update.completed,
          ...(update.percentage === undefined ? {} : { progress_percentage: update.percentage }),
          ...(update.locator === undefined ? {} : { locator: update.locator }),
        },
        { headers: { 'Longbox-Device-Id': deviceId }, keepalive: options.keepalive },
      );
    } catch (error) {
      classify(error);
    }
  },
};

export const progressSaver = new ProgressSaver(transport, localStorage, {
  onSave: (bookId, update) => readingClock.moved(bookId, update.currentPage, update.completed),
});

// A tab closed, or put away on a phone (which may then be killed without a pagehide), sends what is recorded
// at once: the server's CSRF rule passes these requests like any other of the app's (same-origin fetch).
addEventListener('pagehide', () => progressSaver.leaving());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') progressSaver.leaving();
});

/** Where to open a book: a position recorded here and not yet sent wins over the server's (older) one. */
export function startingPosition(
  bookId: string,
  server: ServerProgress | null | undefined,
): { page: number; percentage: number | null; locator: string | null } {
  const local = progressSaver.pending()[bookId];
  if (local && (!server || local.savedAt >= Date.parse(server.updatedAt))) {
    return {
      page: local.update.completed ? 1 : local.update.currentPage,
      percentage: local.update.percentage ?? null,
      locator: local.update.locator ?? null,
    };
  }
  if (!server) return { page: 1, percentage: null, locator: null };
  return {
    page: server.completed ? 1 : server.currentPage,
    percentage: server.completed ? null : server.progressPercentage,
    locator: server.completed ? null : (server.locator ?? null),
  };
}
