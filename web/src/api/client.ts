/**
 * The one way screens talk to the API: JSON over fetch, every failure thrown as an `ApiError` carrying
 * the API's error envelope (DECISIONS.md §Errors). A 401 on a signed-in session means it expired: the
 * session is dropped and the app goes to the login screen, which brings the user back to where they were
 * (`?next=`).
 *
 * Every request — these, images, file downloads, event streams, uploads — is signed in by the HttpOnly
 * session cookie that login sets, which no script can read (DECISIONS.md §Security); the browser adds the
 * `Origin` and `Sec-Fetch-Site` headers by which the server knows a change comes from the app itself.
 */
import { takeStartedRequest } from './started-requests';
import type { ErrorBody } from './types';

export const API_BASE = '/api/v1';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The envelope's `error` kind (NotFound, Conflict…), or `NetworkError` when no answer came. */
    readonly kind: string,
    message: string,
    readonly details: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ClientHooks {
  /** Whether a session is believed to exist (the cookie itself is out of the app's reach). */
  signedIn(): boolean;
  /** Called once per 401 on an authenticated request: the session is gone. */
  onUnauthorized(): void;
}

let hooks: ClientHooks = { signedIn: () => false, onUnauthorized: () => {} };

/** Wired once by the session module (state/session.ts), which owns the session. */
export function configureClient(next: ClientHooks): void {
  hooks = next;
}

/** Turns a non-2xx answer's body text into the ApiError `request` would have thrown. */
export function apiErrorFrom(status: number, bodyText: string): ApiError {
  try {
    const body = JSON.parse(bodyText) as ErrorBody;
    if (body && typeof body.error === 'string') return new ApiError(status, body.error, body.message, body.details);
  } catch {
    // not the envelope
  }
  return new ApiError(status, 'HttpError', `HTTP ${status}`);
}

/** Called by uploads on a 401, as `request` does. */
export function reportUnauthorized(): void {
  hooks.onUnauthorized();
}

export type Query = Record<string, string | number | boolean | undefined | null | readonly string[]>;

/** `/api/v1` + path + query string; array values repeat the parameter. */
export function apiUrl(path: string, query?: Query): string {
  const url = new URL(API_BASE + path, location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, item);
    else url.searchParams.set(key, String(value));
  }
  return url.pathname + url.search;
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Raw body (file parts) instead of JSON. */
  raw?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The request outlives the page (sent while the tab closes). */
  keepalive?: boolean;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const signedIn = hooks.signedIn();
  let body: BodyInit | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  const url = apiUrl(path, options.query);
  const started = method === 'GET' && signedIn && !options.signal ? takeStartedRequest(url) : undefined;
  let response: Response;
  try {
    response = await (started ??
      fetch(url, {
        method,
        headers,
        body,
        signal: options.signal,
        credentials: 'same-origin',
        keepalive: options.keepalive,
      }));
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'NetworkError', (error as Error).message || 'Network error');
  }
  if (response.status === 401 && signedIn) hooks.onUnauthorized();
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('Content-Type') ?? '';
  return (type.includes('json') ? await response.json() : await response.text()) as T;
}

async function toApiError(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as ErrorBody;
    if (body && typeof body.error === 'string') {
      return new ApiError(response.status, body.error, body.message, body.details);
    }
  } catch {
    // not the envelope (a proxy's HTML page, say): fall through to the status line
  }
  return new ApiError(response.status, 'HttpError', `${response.status} ${response.statusText}`.trim());
}

export const get = <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options);
export const post = <T>(path: string, body?: unknown, options?: RequestOptions) =>
  request<T>('POST', path, { ...options, body });
export const put = <T>(path: string, body?: unknown, options?: RequestOptions) =>
  request<T>('PUT', path, { ...options, body });
export const patch = <T>(path: string, body?: unknown, options?: RequestOptions) =>
  request<T>('PATCH', path, { ...options, body });
export const del = <T = void>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options);
