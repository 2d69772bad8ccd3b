/**
 * Talking to the Komga-compatible API (/komga) as its clients do: requests with an OkHttp/Ktor-like
 * cookie jar, and a scanned library of ComicInfo-tagged CBZs generated in code.
 */
import { SELF } from 'cloudflare:test';
import { setupAdmin } from './factories';
import { authHeaders, type Credentials } from './http';
import { makeCbz, putObject } from './library-files';
import { openStream } from './open-stream';
import { createLibrary, scan } from './scans';

export const KOMGA = 'http://longbox.test/komga';

/** Cookies as a client keeps them: by name, sent back when their Path covers the request path. */
export class CookieJar {
  readonly cookies = new Map<string, { value: string; path: string; attributes: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const maxAge = attributes.find((a) => a.toLowerCase().startsWith('max-age='));
      if (value === '' || maxAge?.toLowerCase() === 'max-age=0') this.cookies.delete(name);
      else this.cookies.set(name, { value, path, attributes: attributes.join('; ') });
    }
  }

  header(url: string): string | undefined {
    const path = new URL(url).pathname;
    const sent = [...this.cookies]
      .filter(([, c]) => path === c.path || path.startsWith(`${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`);
    return sent.length > 0 ? sent.join('; ') : undefined;
  }
}

export interface KomgaResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  bytes: Uint8Array;
}

export interface KomgaRequest {
  method?: string;
  json?: unknown;
  /** A raw body (multipart uploads); `json` wins when both are given. */
  body?: BodyInit;
  headers?: Record<string, string>;
  auth?: Credentials;
  jar?: CookieJar;
}

export async function komga<T = any>(path: string, options: KomgaRequest = {}): Promise<KomgaResponse<T>> {
  const url = `${KOMGA}${path}`;
  const headers: Record<string, string> = { ...authHeaders(options.auth), ...options.headers };
  const cookie = options.jar?.header(url);
  if (cookie) headers.Cookie = cookie;
  let body: BodyInit | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await SELF.fetch(url, { method: options.method ?? (body ? 'POST' : 'GET'), headers, body });
  options.jar?.store(response);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const isJson = response.headers.get('Content-Type')?.includes('json');
  const parsed = isJson && bytes.length > 0 ? JSON.parse(new TextDecoder().decode(bytes)) : undefined;
  return { status: response.status, headers: response.headers, body: parsed as T, bytes };
}

/** Three Berserk books (ComicInfo numbers 1–3, 3 + 2 + 2 pages) and one Saga book, scanned. */
export async function komgaLibrary() {
  const admin = await setupAdmin();
  const libraryId = await createLibrary(admin.auth, { name: 'Manga', path: 'comics' });
  const berserk = {
    Series: 'Berserk',
    Writer: 'Kentaro Miura',
    Genre: 'Dark Fantasy',
    Tags: 'Seinen',
    Publisher: 'Hakusensha',
    Year: 1990,
    Manga: 'YesAndRightToLeft',
  };
  await putObject(
    'comics/Berserk/Berserk 001.cbz',
    await makeCbz(3, { ...berserk, Number: '1', Title: 'Black Swordsman', Summary: 'Guts arrives.' }),
  );
  await putObject('comics/Berserk/Berserk 002.cbz', await makeCbz(2, { ...berserk, Number: '2', Title: 'Brand' }));
  await putObject('comics/Berserk/Berserk 003.cbz', await makeCbz(2, { ...berserk, Number: '3', Title: 'Guardians' }));
  await putObject(
    'comics/Saga/Saga 001.cbz',
    await makeCbz(2, { Series: 'Saga', Number: '1', Writer: 'Brian K. Vaughan', Genre: 'Space Opera' }),
  );
  await scan(admin.auth, libraryId);
  return { admin, libraryId };
}

/**
 * `GET /komga/sse/v1/events` read as Komelia reads it: `waitFor(name)` returns the `data` of the first frame of
 * that event (polling the text received so far); `close()` ends the stream.
 */
export async function komgaEventStream(auth: Credentials) {
  const stream = await openStream('/komga/sse/v1/events', auth);
  return {
    ...stream,
    async waitFor(event: string) {
      await stream.waitFor(`event: ${event}\n`, 15_000);
      const frame = stream
        .text()
        .split('\n\n')
        .find((f) => f.includes(`event: ${event}\n`)) as string;
      return JSON.parse(frame.slice(frame.indexOf('data: ') + 6));
    },
  };
}
