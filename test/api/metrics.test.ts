/** API.md §4 Health and metrics; DECISIONS.md §Health and metrics. */
import { describe, expect, it } from 'vitest';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';

describe('GET /health (no auth)', () => {
  it('reports database and storage checks', async () => {
    const res = await api('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      version: expect.any(String),
      checks: { database: { status: 'ok' }, storage: { status: 'ok' } },
    });
  });
});

describe('GET /metrics (SystemHealth)', () => {
  it('counts the catalog, users and tasks as JSON and as Prometheus text', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    await putObject('comics/A/one.cbz', await makeCbz(3));
    await putObject('comics/A/two.cbz', await makeCbz(2));
    await putObject('comics/B/broken.cbz', 'not a zip');
    await scan(auth, libraryId);

    const json = await api('/metrics', { auth });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ libraries: 1, series: 2, books: 3, booksWithErrors: 1, pages: 5, users: 1 });
    expect(json.body.bytes).toBeGreaterThan(0);
    expect(json.body.tasks.completed).toBeGreaterThanOrEqual(1);

    const text = await api('/metrics', { auth, headers: { Accept: 'text/plain' } });
    expect(text.headers.get('Content-Type')).toMatch(/^text\/plain/);
    expect(text.text).toContain('# TYPE longbox_books gauge');
    expect(text.text).toMatch(/^longbox_books 3$/m);
    expect(text.text).toMatch(/^longbox_tasks\{status="completed"\} \d+$/m);
  });

  it('needs credentials and SystemHealth', async () => {
    const { auth } = await setupAdmin();
    expectError(await api('/metrics'), 401, 'Unauthorized');
    const reader = await createUser(auth, { role: 'reader' });
    // Readers hold SystemHealth (DECISIONS.md §Roles); a key without it is refused.
    const { auth: readerAuth } = await login(reader.username, reader.password);
    expect((await api('/metrics', { auth: readerAuth })).status).toBe(200);
    const key = await api('/api-keys', { auth: readerAuth, json: { name: 'no health', permissions: ['BooksRead'] } });
    expectError(await api('/metrics', { auth: { apiKey: key.body.key } }), 403, 'Forbidden');
  });
});
