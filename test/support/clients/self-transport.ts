/**
 * The Transport of ./client-http.ts for the worker under test: requests go to SELF under `/komga` (the server
 * URL a user types into Komf, Komelia or Mihon), with a client's cookie jar when given.
 */
import { SELF } from 'cloudflare:test';
import { authHeaders, type Credentials } from '../http';
import { type CookieJar, KOMGA } from '../komga';
import type { Transport } from './client-http';

export function selfTransport(options: { auth?: Credentials; jar?: CookieJar; base?: string } = {}): Transport {
  const base = options.base ?? KOMGA;
  return async (request) => {
    const url = `${base}${request.path}`;
    const headers: Record<string, string> = { ...authHeaders(options.auth), ...request.headers };
    const cookie = options.jar?.header(url);
    if (cookie) headers.Cookie = cookie;
    const response = await SELF.fetch(url, { method: request.method, headers, body: request.body });
    options.jar?.store(response);
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
  };
}
