/**
 * Direct API calls for arranging browser tests (an admin, a library, books) without clicking through
 * screens that other tests already cover, and signing a browser context in as the web app does.
 */
import type { BrowserContext } from 'playwright-core';

export const ADMIN = { username: 'admin', email: 'admin@example.test', password: 'correct horse battery' };

export interface Session {
  token: string;
  user: { id: string; username: string; email: string; role: string };
}

export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; body?: BodyInit; query?: Record<string, string> } = {},
): Promise<T> {
  const url = new URL(`/api/v1${path}`, baseUrl);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text.slice(0, 400)}`);
  return (text && response.headers.get('Content-Type')?.includes('json') ? JSON.parse(text) : text) as T;
}

/** First-run setup through the API, then a login: the admin's session. */
export async function setupAdmin(baseUrl: string): Promise<Session> {
  await call(baseUrl, 'POST', '/setup/initialize', { json: ADMIN });
  return login(baseUrl, ADMIN.username, ADMIN.password);
}

export async function login(baseUrl: string, username: string, password: string): Promise<Session> {
  const response = await call(baseUrl, 'POST', '/auth/login', { json: { username, password } });
  return { token: response.access_token, user: response.user };
}

export async function createLibrary(
  baseUrl: string,
  token: string,
  name: string,
  root = name.toLowerCase().replace(/\W+/g, '-'),
): Promise<{ id: string; name: string }> {
  return call(baseUrl, 'POST', '/libraries', { token, json: { name, path: root } });
}

/** One book file into the library's bucket prefix (the single-request upload route). */
export async function uploadBook(
  baseUrl: string,
  token: string,
  libraryId: string,
  filePath: string,
  bytes: Uint8Array,
) {
  const encoded = filePath.split('/').map(encodeURIComponent).join('/');
  return call(baseUrl, 'PUT', `/libraries/${libraryId}/files/${encoded}`, { token, body: bytes as BodyInit });
}

/** Starts a scan and waits until the library has no running scan. */
export async function scanAndWait(baseUrl: string, token: string, libraryId: string, timeoutMs = 60_000) {
  await call(baseUrl, 'POST', `/libraries/${libraryId}/scan`, { token });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await call(baseUrl, 'GET', `/libraries/${libraryId}/scan-status`, { token });
    if (status.status !== 'running') return status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`scan of ${libraryId} did not finish within ${timeoutMs} ms`);
}

/**
 * Signs a browser context in the way the web app's login does, without clicking the form: the login sets
 * the HttpOnly session cookie in the context (its request context shares the browser's cookies), and the
 * app's stored session says who is signed in — never the token (DECISIONS.md §Security). The token is
 * returned for the test's own API calls.
 */
export async function signInContext(context: BrowserContext, baseUrl: string, username: string, password: string) {
  const response = await context.request.post(`${baseUrl}/api/v1/auth/login`, { data: { username, password } });
  if (!response.ok()) throw new Error(`login failed: ${response.status()} ${await response.text()}`);
  const body = await response.json();
  const stored = { user: body.user, expiresAt: Date.now() + body.expires_in * 1000, via: 'password' };
  await context.addInitScript((value) => {
    if (!localStorage.getItem('longbox.session')) localStorage.setItem('longbox.session', value);
  }, JSON.stringify(stored));
  return { token: body.access_token as string, user: body.user };
}
