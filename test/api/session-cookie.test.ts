/**
 * DECISIONS.md §Web app: login also sets an HttpOnly, Secure, SameSite=Strict session cookie, accepted
 * only on GET routes (pages, thumbnails, files, event streams), so `<img>` and `EventSource` work in the
 * browser; logout clears it.
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

async function libraryWithOneBook() {
  const { auth } = await setupAdmin();
  const libraryId = await createLibrary(auth);
  await putObject('comics/Alpha/Alpha 001.cbz', zipSync({ '1.jpg': [jpeg(64, 96, { seed: 1 }), { level: 0 }] }));
  await scan(auth, libraryId);
  const books = await api('/books', { auth });
  return { auth, libraryId, bookId: books.body.data[0].id as string };
}

describe('the web session cookie (DECISIONS.md §Web app)', () => {
  it('is set by login as HttpOnly, Secure, SameSite=Strict for the whole site, living as long as the token', async () => {
    await setupAdmin();
    const response = await api('/auth/login', { json: { username: ADMIN.username, password: ADMIN.password } });
    expect(response.status).toBe(200);
    const { pair, attributes } = parseSetCookie(response.headers.get('Set-Cookie'));
    expect(pair).toBe(`longbox_session=${response.body.access_token}`);
    expect(attributes).toEqual(
      expect.arrayContaining([
        'httponly',
        'secure',
        'samesite=strict',
        'path=/',
        `max-age=${response.body.expires_in}`,
      ]),
    );
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

  it('is ignored by state-changing requests, which must carry the header (no cross-site forgery)', async () => {
    const { auth, libraryId } = await libraryWithOneBook();
    const cookie = `longbox_session=${(auth as { token: string }).token}`;
    const scanByCookie = await withCookie(`/libraries/${libraryId}/scan`, cookie, { method: 'POST' });
    expect(scanByCookie.status).toBe(401);
    const deleteByCookie = await withCookie(`/libraries/${libraryId}`, cookie, { method: 'DELETE' });
    expect(deleteByCookie.status).toBe(401);
    expect((await api(`/libraries/${libraryId}`, { auth })).status).toBe(200);
  });

  it('opens nothing that changes state under the reader-app prefixes either (/komga, /koreader)', async () => {
    const { auth, bookId } = await libraryWithOneBook();
    const cookie = `longbox_session=${(auth as { token: string }).token}`;
    const byCookie = (path: string, method: string, body?: unknown) =>
      SELF.fetch(`http://longbox.test${path}`, {
        method,
        // KOReader's own Accept header, so only the missing credentials can refuse the request.
        headers: { Cookie: cookie, 'Content-Type': 'application/json', Accept: 'application/vnd.koreader.v1+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const komga = await byCookie(`/komga/api/v1/books/${bookId}/read-progress`, 'PATCH', { page: 1 });
    expect(komga.status).toBe(401);
    const koreader = await byCookie('/koreader/syncs/progress', 'PUT', {
      document: '0123456789abcdef0123456789abcdef',
      progress: '1',
      percentage: 0.5,
      device: 'forged',
      device_id: 'forged',
    });
    expect(koreader.status).toBe(401);
    // Nothing was recorded: the book is still unread for its owner.
    const book = await api(`/books/${bookId}`, { auth });
    expect(book.body.readProgress ?? null).toBeNull();
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
});
