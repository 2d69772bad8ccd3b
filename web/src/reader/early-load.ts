/**
 * A book opened by address (a link, a reload, an installed app's shortcut): main.tsx calls this before the
 * app renders, so the book and its pages load while the app shell and the reader's code are still on
 * their way, instead of after them. The reader takes the result once; later opens load afresh.
 */
import { type BookAndPages, loadBookAndPages } from './book-requests';

const started = new Map<string, Promise<BookAndPages>>();

export function startEarlyLoad(): void {
  const bookId = /^\/read\/([^/?#]+)/.exec(location.pathname)?.[1];
  if (!bookId) return;
  const loading = loadBookAndPages(bookId);
  loading.catch(() => {}); // the reader reports failures; an app that never opens it must not warn
  started.set(bookId, loading);
}

/** The early load, left in place (the reader's module uses it to fetch the first page's image at once). */
export function peekEarlyLoad(): { bookId: string; loading: Promise<BookAndPages> } | undefined {
  const [entry] = started;
  return entry && { bookId: entry[0], loading: entry[1] };
}

export function takeEarlyLoad(bookId: string): Promise<BookAndPages> | undefined {
  const loading = started.get(bookId);
  started.delete(bookId);
  return loading;
}
