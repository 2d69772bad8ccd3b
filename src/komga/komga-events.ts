/**
 * `GET /sse/v1/events`: Longbox's entity events (the EventHub's `events` stream) renamed to Komga's
 * server-sent events (Komga `infrastructure/sse`, komga-client `sse/KomgaEvent.kt`): BookAdded,
 * SeriesChanged, ThumbnailBookAdded, SessionExpired… with camelCase ids. Keep-alive comments pass through, so Komelia
 * keeps one connection open instead of reconnecting every 10 seconds.
 */
import { EVENT_HUB_NAME } from '../events/publisher';

type Data = Record<string, unknown>;

const NAMES: Record<string, string> = {
  book_created: 'BookAdded',
  book_updated: 'BookChanged',
  book_deleted: 'BookDeleted',
  series_created: 'SeriesAdded',
  series_updated: 'SeriesChanged',
  series_deleted: 'SeriesDeleted',
  library_created: 'LibraryAdded',
  library_updated: 'LibraryChanged',
  library_deleted: 'LibraryDeleted',
};

/** Collection and read-list events carry their members in full: komga-client requires every field. */
const LIST_NAMES: Record<string, string> = {
  collection_created: 'CollectionAdded',
  collection_updated: 'CollectionChanged',
  collection_deleted: 'CollectionDeleted',
  read_list_created: 'ReadListAdded',
  read_list_updated: 'ReadListChanged',
  read_list_deleted: 'ReadListDeleted',
};

/** The Komga event for one Longbox event; null for events Komga has no counterpart of. */
export function toKomgaEvent(event: Data): { name: string; data: Data } | null {
  const type = String(event.type);
  const ids = {
    ...(event.book_id ? { bookId: event.book_id } : {}),
    ...(event.series_id ? { seriesId: event.series_id } : {}),
    ...(event.library_id ? { libraryId: event.library_id } : {}),
  };
  if (type === 'session_expired') return { name: 'SessionExpired', data: { userId: event.user_id } };
  if (type === 'cover_updated') {
    if (event.entity_type === 'book')
      return { name: 'ThumbnailBookAdded', data: { bookId: event.entity_id, selected: true } };
    if (event.entity_type === 'series') {
      return { name: 'ThumbnailSeriesAdded', data: { seriesId: event.entity_id, selected: true } };
    }
    return null;
  }
  const listName = LIST_NAMES[type];
  if (listName) {
    return event.collection_id
      ? { name: listName, data: { collectionId: event.collection_id, seriesIds: event.series_ids ?? [] } }
      : { name: listName, data: { readListId: event.read_list_id, bookIds: event.book_ids ?? [] } };
  }
  const name = NAMES[type];
  return name ? { name, data: ids } : null;
}

const encoder = new TextEncoder();

/** Rewrites SSE frames (`id`/`event`/`data` lines ending in a blank line); comments go through as they are. */
function komgaFrames(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = '';
  return new TransformStream({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const out = rewrite(frame);
        if (out) controller.enqueue(encoder.encode(out));
        end = buffer.indexOf('\n\n');
      }
    },
  });
}

function rewrite(frame: string): string | null {
  const lines = frame.split('\n');
  const data = lines.find((l) => l.startsWith('data: '));
  if (!data) return `${frame}\n\n`;
  try {
    const event = toKomgaEvent(JSON.parse(data.slice(6)) as Data);
    if (!event) return null;
    const id = lines.find((l) => l.startsWith('id: '));
    return `${id ? `${id}\n` : ''}event: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;
  } catch {
    return null;
  }
}

/** The entity events in Komga's terms; `forCaller` keeps those the caller may see (event-streams.service.ts). */
export async function komgaEventStream(
  env: Env,
  keepAliveMs: number,
  lastEventId: number | null,
  forCaller: (body: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>,
) {
  const hub = env.EVENT_HUB.get(env.EVENT_HUB.idFromName(EVENT_HUB_NAME));
  const body = await hub.subscribe('events', lastEventId, keepAliveMs);
  return forCaller(body).pipeThrough(komgaFrames());
}
