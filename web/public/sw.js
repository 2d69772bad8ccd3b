/*
 * Longbox service worker: lets the app open and downloaded books be read with no network (issue 12
 * point 7). A plain static file with no build step:
 * - hashed build files (/assets/*) never change: cache first;
 * - page navigations: network first, falling back to the last index.html seen (the SPA shell);
 * - downloaded books live in the "longbox-offline-v1" cache, filled by the page's "download for offline":
 *   their page images, page list and file answer from there first (they do not change), any page width
 *   standing in for another; the book, its progress and its series' books try the network and fall back
 *   to the copy there, so the reader opens offline. Other API calls (and event streams) are not touched.
 * Progress writes are never touched: the reader queues them itself while offline.
 */
const SHELL_CACHE = 'longbox-shell-v1';
const OFFLINE_CACHE = 'longbox-offline-v1';
const SHELL_URL = '/index.html';

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([SHELL_CACHE, OFFLINE_CACHE]);
      for (const name of await caches.keys()) if (!keep.has(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(navigation(request));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request, SHELL_CACHE));
  } else if (request.headers.has('Range')) {
    // Range reads of a book file go to the server; the reader reads a downloaded file from the cache itself.
  } else if (/^\/api\/v1\/books\/[^/]+\/(pages(\/\d+)?|file)$/.test(url.pathname)) {
    event.respondWith(offlineFirst(request));
  } else if (/^\/api\/v1\/(books|series)\/[^/]+(\/progress|\/books)?$/.test(url.pathname)) {
    // Only what the reader opens a book with; every other API call never meets this worker.
    event.respondWith(networkThenOffline(request));
  }
});

async function navigation(request) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const response = await fetch(request);
    const type = response.headers.get('Content-Type') ?? '';
    if (response.ok && type.includes('text/html')) await cache.put(SHELL_URL, response.clone());
    return response;
  } catch (error) {
    const shell = await cache.match(SHELL_URL);
    if (shell) return shell;
    throw error;
  }
}

async function cacheFirst(request, cacheName) {
  const cache = await caches.open(cacheName);
  const hit = await cache.match(request, { ignoreVary: true });
  if (hit) return hit;
  const response = await fetch(request);
  // A missing hashed file is answered with index.html by the SPA fallback: never keep that as a script.
  const type = response.headers.get('Content-Type') ?? '';
  if (response.ok && !type.includes('text/html')) await cache.put(request, response.clone());
  return response;
}

/** Downloaded page images and files: the copy first; a page at another width will do offline. */
async function offlineFirst(request) {
  const cache = await caches.open(OFFLINE_CACHE);
  const exact = await cache.match(request, { ignoreVary: true });
  if (exact) return exact;
  try {
    return await fetch(request);
  } catch (error) {
    const anyWidth = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
    if (anyWidth) return anyWidth;
    throw error;
  }
}

async function networkThenOffline(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const cache = await caches.open(OFFLINE_CACHE);
    const copy = await cache.match(request, { ignoreVary: true });
    if (copy) return copy;
    throw error;
  }
}
