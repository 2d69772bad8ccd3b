/*
 * A book opened by address (/read/<id>): its record and page list are requested and the reader's code
 * preloaded now, while the app's own scripts download; the app takes these answers
 * (web/src/api/started-requests.ts). A classic script file rather than an inline one, so the app's policy
 * can forbid inline scripts (DECISIONS.md §Security); the web build (web/vite.config.ts) gives it a hashed
 * name and writes the reader chunk's name into it. It holds no credential: the session cookie signs the
 * requests in, and the stored session (web/src/state/session.ts) only says whether there is one.
 */
(() => {
  const match = /^\/read\/([^/?#]+)/.exec(location.pathname);
  let session = null;
  try {
    session = JSON.parse(localStorage.getItem('longbox.session'));
  } catch {}
  if (!match || !session || !(session.expiresAt > Date.now())) return;
  const reader = '%LONGBOX_READER_CHUNK%';
  if (reader.charAt(0) === '/') {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = reader;
    document.head.appendChild(link);
  }
  const base = `/api/v1/books/${match[1]}`;
  const started = {};
  window.__longboxStarted = started;
  for (const url of [base, `${base}/pages`]) {
    started[url] = fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    started[url].catch(() => {});
  }
})();
