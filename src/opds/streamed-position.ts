/**
 * Where a page-streaming (OPDS-PSE) reader is, from the pages its app fetches (DECISIONS.md §Reader apps, "Page-
 * streaming progress records the page the reader is at; pages fetched ahead by a client's cache do not move
 * it"; issue 31 point 17).
 *
 * Streaming apps fetch ahead of the reader. A desktop OPDS client that keeps three pages ahead asks for pages
 * 1, 2, 3 and 4 at once when a book opens, and from then on one new page per turn: page 5 when the reader turns
 * to page 2. No header tells such a fetch from the page on screen (PSE defines none, and apps send the same
 * request either way), but the timing does: the pages an app fetches when a book opens arrive together, a
 * **burst** (each within `BURST_MS` of the one before, in any order), and the burst's first page is the one on screen; how far
 * the burst reaches past it is the app's **lookahead**. After the burst, a fetch of page N means the reader
 * turned to N − lookahead. An app that does not prefetch (KOReader fetches the page it shows) opens with a burst
 * of one page, so its lookahead is 0 and every page it fetches is where its reader is.
 *
 * What follows from the rule: a prefetching app never fetches its last `lookahead` pages again, so streaming
 * alone leaves its reader `lookahead` pages before the end of a book (the app's own progress write, or marking
 * the book read, completes it); a person turning pages faster than `BURST_MS` right after opening a book makes
 * the rule under-count by those pages, never over-count. What the rule knows of an app is kept per isolate, per
 * user, book and User-Agent (two apps of one user prefetch differently); an app whose requests reach another
 * isolate starts over there, and then counts its first page fetched, as every page did before this rule.
 */

/** Pages an app fetches within this long of each other are one burst. */
export const BURST_MS = 1000;
/** A reading session this long without a page fetched is over: the next fetch opens the book again. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** Readers followed per isolate; the least recently opened goes first. */
const MAX_SESSIONS = 1000;

interface Session {
  /** Until the opening burst has settled, `first` and `highest` are its lowest and highest pages. */
  opening: boolean;
  /** The page on screen when the book was opened. */
  first: number;
  /** The highest page fetched. */
  highest: number;
  /** How far the opening burst reached past `first`. */
  lookahead: number;
  lastFetchAt: number;
}

const sessions = new Map<string, Session>();

export interface StreamedFetch {
  userId: string;
  bookId: string;
  userAgent: string | null;
  /** 1-based. */
  page: number;
  now: number;
}

/**
 * Notes a page an app fetched. What it means is known once the burst it belongs to is over (parallel requests
 * arrive in any order): `settle`, called `BURST_MS` later, gives the page the reader is then at, or null while
 * the burst goes on (its last fetch settles it). The position is written as progress, which never moves back.
 */
export function notePageFetched(fetch: StreamedFetch): { settle: (now: number) => number | null } {
  const key = `${fetch.userId}\n${fetch.bookId}\n${fetch.userAgent ?? ''}`;
  const { page, now } = fetch;
  let session = sessions.get(key);
  if (!session || now - session.lastFetchAt > SESSION_IDLE_MS) {
    sessions.delete(key);
    if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    session = { opening: true, first: page, highest: page, lookahead: 0, lastFetchAt: now };
    sessions.set(key, session);
  } else {
    if (session.opening && now - session.lastFetchAt > BURST_MS) closeOpening(session);
    if (session.opening) session.first = Math.min(session.first, page);
    session.highest = Math.max(session.highest, page);
    session.lastFetchAt = now;
  }
  const noted = session;
  return {
    settle(at) {
      if (sessions.get(key) !== noted || at - noted.lastFetchAt < BURST_MS) return null;
      if (noted.opening) closeOpening(noted);
      return Math.max(noted.first, noted.highest - noted.lookahead);
    },
  };
}

/** The opening burst is over: how far it reached past its first page is how far this app fetches ahead. */
function closeOpening(session: Session): void {
  session.opening = false;
  session.lookahead = session.highest - session.first;
}
