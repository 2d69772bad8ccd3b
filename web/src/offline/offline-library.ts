/**
 * "Download for offline" (issue 12 point 7): a book's page images at the widths this device reads them
 * at (or the EPUB file), with the API answers the reader needs to open it, go into the Cache Storage
 * cache that the service worker (public/sw.js) answers from when the network is gone. A small index in
 * localStorage says which books are kept.
 */
export const OFFLINE_CACHE = 'longbox-offline-v1';
const INDEX_KEY = 'longbox.offline.books';
const PARALLEL_DOWNLOADS = 4;

export interface OfflineBook {
  bookId: string;
  title: string;
  kind: 'pages' | 'epub';
  urls: string[];
  savedAt: number;
}

export function offlineSupported(): boolean {
  return typeof caches !== 'undefined' && 'serviceWorker' in navigator;
}

export function offlineBooks(): Record<string, OfflineBook> {
  try {
    return JSON.parse(localStorage.getItem(INDEX_KEY) ?? '{}') as Record<string, OfflineBook>;
  } catch {
    return {};
  }
}

export function isOffline(bookId: string): boolean {
  return bookId in offlineBooks();
}

function writeIndex(index: Record<string, OfflineBook>): void {
  localStorage.setItem(INDEX_KEY, JSON.stringify(index));
}

/** Signed in by the session cookie, as the reader's own `<img>`, Range and API requests are. */
async function fetchForCache(url: string): Promise<Response | null> {
  const response = await fetch(url, { credentials: 'same-origin' });
  // Nothing to keep (a book nobody has started has no progress yet): offline, the reader does without.
  if (response.status === 404 && url.endsWith('/progress')) return null;
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

/** Downloads `urls` into the offline cache, `onProgress(done, total)` after each. */
export async function downloadBook(
  book: Omit<OfflineBook, 'savedAt'>,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<void> {
  const cache = await caches.open(OFFLINE_CACHE);
  let done = 0;
  const queue = [...book.urls];
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      const response = await fetchForCache(url);
      if (response) await cache.put(url, response);
      done += 1;
      onProgress(done, book.urls.length);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_DOWNLOADS }, worker));
  const index = offlineBooks();
  index[book.bookId] = { ...book, savedAt: Date.now() };
  writeIndex(index);
}

/** Refreshes the cached copy of an API answer (progress after reading online), if the book is kept. */
export async function refreshCached(bookId: string, url: string): Promise<void> {
  if (!isOffline(bookId) || !navigator.onLine) return;
  try {
    const cache = await caches.open(OFFLINE_CACHE);
    const response = await fetchForCache(url);
    if (response) await cache.put(url, response);
  } catch {
    // The copy stays as it was: it is only a fallback.
  }
}

export async function removeOfflineBook(bookId: string): Promise<void> {
  const index = offlineBooks();
  const book = index[bookId];
  if (!book) return;
  const cache = await caches.open(OFFLINE_CACHE);
  await Promise.all(book.urls.map((url) => cache.delete(url)));
  delete index[bookId];
  writeIndex(index);
}

/** The downloaded EPUB file, read from the cache instead of by Range requests. */
export async function offlineFile(url: string): Promise<Blob | null> {
  if (typeof caches === 'undefined') return null;
  const cache = await caches.open(OFFLINE_CACHE);
  const response = await cache.match(url, { ignoreVary: true });
  return response ? response.blob() : null;
}

/** The service worker's cache of the app itself (public/sw.js SHELL_CACHE). */
const SHELL_CACHE = 'longbox-shell-v1';

/**
 * The app's own files loaded before the service worker took control are not in its cache yet: keep the
 * page (as the SPA shell) and every script and style this page has loaded, so the app starts offline.
 */
export async function keepAppShell(): Promise<void> {
  const cache = await caches.open(SHELL_CACHE);
  const assets = performance
    .getEntriesByType('resource')
    .map((entry) => new URL(entry.name))
    .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
    .map((url) => url.pathname);
  await Promise.all(
    [...new Set(assets)].map(async (path) => {
      if (!(await cache.match(path))) await cache.add(path);
    }),
  );
  const shell = await fetch('/', { credentials: 'same-origin' });
  if (shell.ok) await cache.put('/index.html', shell);
}
