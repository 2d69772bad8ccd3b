/**
 * Started by main.tsx, kept tiny because it is in the first download: registers the service worker
 * (public/sw.js) and sends reading progress recorded offline once the network is back. The progress
 * code itself loads only when there is something to send.
 */
import { PENDING_PROGRESS_KEY } from '../reader/pending-progress-key';

function hasPendingProgress(): boolean {
  const pending = localStorage.getItem(PENDING_PROGRESS_KEY);
  return pending !== null && pending !== '{}';
}

export function syncPendingProgress(): void {
  if (!navigator.onLine || !hasPendingProgress()) return;
  // The reader's own chunk (not a chunk of its own for the progress code): opening a book then costs
  // one script request, not two, and syncing is rare.
  void import('../reader/index').then(({ progressSaver }) => progressSaver.syncQueued());
}

export function startOffline(): void {
  if ('serviceWorker' in navigator && location.protocol !== 'file:') {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // No service worker (private window, old browser): the app works online as usual.
    });
  }
  addEventListener('online', syncPendingProgress);
  syncPendingProgress();
}
