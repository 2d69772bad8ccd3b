/** Real HTTP into the worker under test (SELF.fetch), with the three credential kinds of API.md §5. */
import { SELF } from 'cloudflare:test';

export type Credentials =
  | { token: string }
  | { apiKey: string; via?: 'x-api-key' | 'bearer' | 'basic' }
  | { basic: { username: string; password: string } }
  | undefined;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  auth?: Credentials;
}

export function authHeaders(auth: Credentials): Record<string, string> {
  if (!auth) return {};
  if ('token' in auth) return { Authorization: `Bearer ${auth.token}` };
  if ('apiKey' in auth) {
    if (auth.via === 'bearer') return { Authorization: `Bearer ${auth.apiKey}` };
    if (auth.via === 'basic') return { Authorization: `Basic ${btoa(`api:${auth.apiKey}`)}` };
    return { 'X-API-Key': auth.apiKey };
  }
  return { Authorization: `Basic ${btoa(`${auth.basic.username}:${auth.basic.password}`)}` };
}

export async function api<T = any>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...authHeaders(options.auth), ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['Content-Type'] ??= 'application/json';
  }
  const url = path.startsWith('http')
    ? path
    : `http://longbox.test${path.startsWith('/api/') || path.startsWith('/docs') || path.startsWith('/opds') ? '' : '/api/v1'}${path}`;
  const response = await SELF.fetch(url, { method: options.method ?? (body ? 'POST' : 'GET'), headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if (response.headers.get('Content-Type')?.includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Asserts the error envelope of API.md §7 and returns it. */
export function expectError(response: ApiResponse, status: number, kind: string) {
  if (response.status !== status || response.body?.error !== kind) {
    throw new Error(`expected ${status} ${kind}, got ${response.status}: ${response.text.slice(0, 500)}`);
  }
  const keys = Object.keys(response.body).sort();
  if (keys.join(',') !== 'details,error,message') throw new Error(`envelope keys were ${keys.join(',')}`);
  if (typeof response.body.message !== 'string' || response.body.message.length === 0) throw new Error('empty message');
  return response.body as { error: string; message: string; details: Array<{ path: string; message: string }> | null };
}
