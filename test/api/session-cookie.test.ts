/**
 * DECISIONS.md §Web app, §Security: login sets an HttpOnly, SameSite=Strict session cookie (Secure over
 * https), the web app's only credential: it signs in reads (pages, thumbnails, files, event streams, JSON)
 * and, from the app's own pages only (Sec-Fetch-Site, else Origin), changes; explicit credentials win; a
 * browser's in-page request never gets a Basic challenge; `GET /auth/session` never hands out the token;
 * logout clears the cookie.
 */
import { SELF } from 'cloudflare:test';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { jpeg } from '../fixtures/images';
import { ADMIN, setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';
import { putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';

/** The `name=value` pair of a Set-Cookie header, and its attributes lower-cased. */
function parseSetCookie(header: string | null) {
  expect(header).not.toBeNull();
  const [pair = '', ...attributes] = header!.split(';').map((part) => part.trim());
  return { pair, attributes: attributes.map((attribute) => attribute.toLowerCase()) };
}

const withCookie = (path: string, cookie: string, init: RequestInit = {}) =>
  SELF.fetch(`http://longbox.test/api/v1${path}`, { ...init, headers: { ...init.headers, Cookie: cookie } });
const ORIGIN = 'http://longbox.test';

async function libraryWithOneBook() {
  const { auth } = await setupAdmin();
  const libraryId = await createLibrary(auth);
  await putObject('comics/Alpha/Alpha 001.cbz', zipSync({ '1.jpg': [jpeg(64, 96, { seed: 1 }), { level: 0 }] }));
  await scan(auth, libraryId);
  const books = await api('/books', { auth });
  return { auth, libraryId, bookId: books.body.data[0].id as string };
}

describe('the web session cookie (DECISIONS.md §Web app)', () => {
  it('is set by login as HttpOnly, SameSite=Strict for the whole site, living as long as the token; Secure over https', async () => {
    await setupAdmin();
    const login = (origin: string) =>
      SELF.fetch(`${origin}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
      });
    const overHttps = await login('https://longbox.test');
    expect(overHttps.status).toBe(200);
    const body = (await overHttps.json()) as { access_token: string; expires_in: number };
    const { pair, attributes } = parseSetCookie(overHttps.headers.get('Set-Cookie'));
    expect(pair).toBe(`longbox_session=${body.access_token}`);
    expect(attributes).toEqual(
      expect.arrayContaining(['httponly', 'secure', 'samesite=strict', 'path=/', `max-age=${body.expires_in}`]),
    );
    // Over plain http (a phone on the home network, `HOST=0.0.0.0 npm start`) a Secure cookie would be
    // dropped by the browser, and every image after the sign-in refused.
    const overHttp = await login('http://192.168.1.20:8787');
    expect(overHttp.status).toBe(200);
    const plain = parseSetCookie(overHttp.headers.get('Set-Cookie'));
    expect(plain.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
    expect(plain.attributes).not.toContain('secure');
  });

  it('is set by the first-run setup too, which signs the new admin in', async () => {
    const response = await api('/setup/initialize', { json: ADMIN });
    expect(response.status).toBe(201);
    expect(parseSetCookie(response.headers.get('Set-Cookie')).pair).toBe(
      `longbox_session=${response.body.access_token}`,
    );
  });

  it('opens page images, thumbnails, the file and the event stream without an Authorization header', async () => {
    const { auth, bookId } = await libraryWithOneBook();
    const cookie = `longbox_session=${(auth as { token: string }).token}`;
    for (const path of [
      `/books/${bookId}/pages/1`,
      `/books/${bookId}/thumbnail`,
      `/books/${bookId}/file`,
      `/books/${bookId}`,
    ]) {
      const response = await withCookie(path, cookie);
      expect(response.status, path).toBe(200);
      await response.arrayBuffer();
    }
    const controller = new AbortController();
    const stream = await withCookie('/events/stream', cookie, { signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
    controller.abort();
    await stream.body?.cancel().catch(() => {});
  });

  it('signs in changes made from the app’s own pages, and refuses them from anywhere else (no cross-site forgery)', async () => {
    const { auth, libraryId } = await libraryWithOneBook();
    const cookie = `longbox_session=${(auth as { token: string }).token}`;
    const remove = (headers: Record<string, string>) =>
      withCookie(`/libraries/${libraryId}`, cookie, { method: 'DELETE', headers });
    for (const [label, headers] of [
      ['another site (fetch metadata)', { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.test' }],
      ['a sibling site', { 'Sec-Fetch-Site': 'same-site', Origin: 'https://books.longbox.test' }],
      ['a typed address or bookmark', { 'Sec-Fetch-Site': 'none' }],
      ['another origin (no fetch metadata)', { Origin: 'https://evil.test' }],
      ['another port of the same host', { Origin: 'http://longbox.test:8080' }],
      ['nothing to tell where it came from', {}],
    ] as const) {
      const refused = await remove(headers);
      const body = (await refused.json()) as { error: string; message: string };
      expect(refused.status, label).toBe(403);
      expect(body.error, label).toBe('Forbidden');
      expect(body.message, label).toMatch(/session cookie must come from this server’s own pages/);
    }
    expect((await api(`/libraries/${libraryId}`, { auth })).status).toBe(200);

    // The app's own pages: fetch metadata in a secure context, the Origin header over plain http.
    const scan = await withCookie(`/libraries/${libraryId}/scan`, cookie, {
      method: 'POST',
      headers: { Origin: ORIGIN },
    });
    expect(scan.status).toBeLessThan(300);
    await scan.arrayBuffer();
    const removed = await remove({ 'Sec-Fetch-Site': 'same-origin', Origin: ORIGIN });
    expect(removed.status).toBe(204);
    expect((await api(`/libraries/${libraryId}`, { auth })).status).toBe(404);
  });

  it('loses to credentials sent in the request, and a forged or ended session is a 401', async () => {
    const { auth, bookId } = await libraryWithOneBook();
    const token = (auth as { token: string }).token;
    const wrongHeader = await SELF.fetch(`http://longbox.test/api/v1/books/${bookId}`, {
      headers: { Cookie: `longbox_session=${token}`, Authorization: 'Bearer not-a-token' },
    });
    expect(wrongHeader.status).toBe(401);
    await wrongHeader.arrayBuffer();
    const forged = await withCookie(`/books/${bookId}`, 'longbox_session=forged.token.value');
    expect(forged.status).toBe(401);
    await forged.arrayBuffer();

    const logout = await api('/auth/logout', { method: 'POST', auth });
    expect(logout.status).toBe(204);
    const { pair, attributes } = parseSetCookie(logout.headers.get('Set-Cookie'));
    expect(pair).toBe('longbox_session=');
    expect(attributes).toContain('max-age=0');
    const afterLogout = await withCookie(`/books/${bookId}`, `longbox_session=${token}`);
    expectError(
      { status: afterLogout.status, headers: afterLogout.headers, body: await afterLogout.json(), text: '' },
      401,
      'Unauthorized',
    );
  });

  it('never hands the token to a script: GET /auth/session answers who and until when', async () => {
    const { auth } = await libraryWithOneBook();
    const token = (auth as { token: string }).token;
    const response = await withCookie('/auth/session', `longbox_session=${token}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(token);
    const body = JSON.parse(text);
    expect(Object.keys(body).sort()).toEqual(['expires_in', 'user', 'via']);
    expect(body).toMatchObject({ via: 'cookie', user: { username: ADMIN.username } });
    expect(body.expires_in).toBeGreaterThan(0);
  });

  it('never answers a request from inside a page with a Basic challenge, over plain http too', async () => {
    const { bookId } = await libraryWithOneBook();
    const challenge = async (path: string, headers: Record<string, string>) => {
      const response = await SELF.fetch(`http://192.168.1.20:8787${path}`, { headers });
      await response.arrayBuffer();
      expect(response.status, path).toBe(401);
      return response.headers.get('WWW-Authenticate') ?? '';
    };
    const page = `/api/v1/books/${bookId}/pages/1`;
    // An <img> of the app over http on a home network: no fetch metadata, but the app's own Referer.
    const image = { Referer: 'http://192.168.1.20:8787/read/x', Accept: 'image/avif,image/webp,*/*' };
    expect(await challenge(page, image)).not.toMatch(/Basic/);
    expect(await challenge(`/opds/v1.2/books/${bookId}/pages/0`, image)).not.toMatch(/Basic/);
    // The same from a secure context says so with fetch metadata.
    expect(await challenge(page, { 'Sec-Fetch-Dest': 'image', 'Sec-Fetch-Site': 'same-origin' })).not.toMatch(/Basic/);
    // A reader app, or a person typing the address, still gets Basic.
    expect(await challenge(page, {})).toMatch(/^Basic /);
    expect(await challenge(`/opds/v1.2/books/${bookId}/pages/0`, {})).toMatch(/^Basic /);
    expect(await challenge(page, { Referer: 'https://elsewhere.test/', Accept: 'image/*' })).toMatch(/^Basic /);
    expect(await challenge(page, { Referer: 'http://192.168.1.20:8787/', Accept: 'text/html,*/*' })).toMatch(/^Basic /);
  });
});
