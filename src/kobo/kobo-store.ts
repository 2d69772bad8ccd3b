/**
 * Forwarding to Kobo's own store (`LONGBOX_KOBO__STORE_PROXY`, off by default; DECISIONS.md §Kobo e-readers):
 * what Longbox does not answer itself — the store's catalogue, the device's account, its purchases' sync — goes
 * to storeapi.kobo.com as Komga and calibre-web forward it, so a Kobo pointed at Longbox keeps its store books.
 * Only the device's own headers go out (authorization, agent, language, content type, `x-kobo-*`); never
 * Longbox's credentials, which are the path segment Longbox removes.
 */

export const KOBO_STORE_ORIGIN = 'https://storeapi.kobo.com';
/** Where the store keeps book covers, for cover requests of books Longbox does not have. */
export const KOBO_IMAGE_TEMPLATE = 'https://cdn.kobo.com/book-images/{ImageId}/{Width}/{Height}/false/image.jpg';
const TIMEOUT_MS = 30_000;

const FORWARDED = new Set(['authorization', 'user-agent', 'accept', 'accept-language', 'content-type']);

export interface StoreAnswer {
  status: number;
  /** The store's `x-kobo-*` headers. */
  headers: Record<string, string>;
  body: ArrayBuffer;
}

/**
 * Sends the device's request to the store: `path` is what follows `/kobo/<key>` (with its query string), and
 * `syncToken` the store's own token when the request is a library sync (Longbox's is never sent).
 */
export async function forwardToStore(
  request: Request,
  path: string,
  body: ArrayBuffer | null,
  syncToken?: string | null,
): Promise<StoreAnswer> {
  const headers = new Headers();
  for (const [name, value] of request.headers) {
    const lower = name.toLowerCase();
    if (lower === 'x-kobo-synctoken') continue;
    if (FORWARDED.has(lower) || lower.startsWith('x-kobo-')) headers.set(name, value);
  }
  if (syncToken) headers.set('x-kobo-synctoken', syncToken);
  const response = await fetch(`${KOBO_STORE_ORIGIN}${path}`, {
    method: request.method,
    headers,
    body: body && request.method !== 'GET' && request.method !== 'HEAD' ? body : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const koboHeaders: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    if (name.toLowerCase().startsWith('x-kobo-')) koboHeaders[name.toLowerCase()] = value;
  }
  return { status: response.status, headers: koboHeaders, body: await response.arrayBuffer() };
}
