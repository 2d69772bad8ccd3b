/**
 * Live updates (API.md §6): one EventSource per tab on `/events/stream` (the session cookie signs it in).
 * Catalogue changes and new covers bump `catalogVersion`, which screens list among their inputs so they
 * reload by themselves: the books and series they load again name their new `coverVersion`, which the cover
 * addresses carry (components/cards.tsx). Bursts (a scan adds hundreds of books) are coalesced into one reload.
 */
import { effect, signal } from '@preact/signals';
import { apiUrl } from '../api/client';
import { session } from './session';

export const catalogVersion = signal(0);
/** Bumped by each `release_announced` (issue 32): the releases badge and inbox reload. */
export const releasesVersion = signal(0);

/** The open screens load their lists again (after a change this tab made that the event stream does not announce). */
export function reloadCatalog(): void {
  catalogVersion.value++;
}
/** The ids of books whose record changed most recently (progress excluded: see book screen polling). */
export const changedBooks = signal<ReadonlySet<string>>(new Set());

const CATALOG_EVENTS = [
  'book_created',
  'book_updated',
  'book_deleted',
  'series_created',
  'series_updated',
  'series_deleted',
  'library_created',
  'library_updated',
];
const COALESCE_MS = 400;

let source: EventSource | null = null;
let pending: ReturnType<typeof setTimeout> | null = null;
let pendingBooks = new Set<string>();

function bumpSoon(bookId?: string) {
  if (bookId) pendingBooks.add(bookId);
  if (pending) return;
  pending = setTimeout(() => {
    pending = null;
    changedBooks.value = pendingBooks;
    pendingBooks = new Set();
    catalogVersion.value++;
  }, COALESCE_MS);
}

function connect(): EventSource {
  const events = new EventSource(apiUrl('/events/stream'));
  for (const type of CATALOG_EVENTS) {
    events.addEventListener(type, (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as { book_id?: string };
      bumpSoon(data.book_id);
    });
  }
  events.addEventListener('cover_updated', () => bumpSoon());
  events.addEventListener('release_announced', () => {
    releasesVersion.value++;
  });
  return events;
}

/** Started once by the app; follows the session (closed on logout, reopened on login). */
export function startLiveUpdates(): () => void {
  return effect(() => {
    const signedIn = session.value !== null;
    if (signedIn && !source && typeof EventSource !== 'undefined') source = connect();
    if (!signedIn && source) {
      source.close();
      source = null;
    }
  });
}

/**
 * Any SSE stream as a callback per event, for screens that follow one (scan and task progress). The
 * browser reconnects by itself and resumes with Last-Event-ID.
 */
export function subscribe(path: string, handlers: Record<string, (data: any) => void>): () => void {
  const events = new EventSource(apiUrl(path));
  for (const [type, handler] of Object.entries(handlers)) {
    events.addEventListener(type, (event) => handler(JSON.parse((event as MessageEvent<string>).data)));
  }
  return () => events.close();
}
