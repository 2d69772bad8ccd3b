/**
 * The D1 bookmark a client carries between requests when reads come from replicas (DECISIONS.md §Far readers,
 * `LONGBOX_DATABASE__READ_REPLICAS`): every answer names the database state its session reached, in a header
 * for API clients and a cookie for browsers and reader apps that keep cookies; a request bringing one back
 * reads a database at least that new, so nobody misses their own writes.
 */
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

export const BOOKMARK_HEADER = 'Longbox-Bookmark';
export const BOOKMARK_COOKIE = 'longbox_bookmark';

/** D1 bookmarks are hex groups joined by dashes; anything else is ignored (the session starts anywhere). */
const BOOKMARK = /^[0-9A-Za-z-]{1,256}$/;

/** The bookmark the request brings back: the header first, else the cookie. */
export function requestBookmark(c: Context): string | null {
  const sent = c.req.header(BOOKMARK_HEADER) ?? getCookie(c, BOOKMARK_COOKIE);
  return sent !== undefined && BOOKMARK.test(sent) ? sent : null;
}

/** Hands the bookmark the request's session reached back to the client. */
export function sendBookmark(c: Context, bookmark: string | null): void {
  if (!bookmark) return;
  c.header(BOOKMARK_HEADER, bookmark);
  if (getCookie(c, BOOKMARK_COOKIE) !== bookmark) {
    setCookie(c, BOOKMARK_COOKIE, bookmark, { path: '/', httpOnly: true, secure: true, sameSite: 'Lax' });
  }
}
