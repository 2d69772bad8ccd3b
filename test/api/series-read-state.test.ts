/**
 * A series' read state (`readStatus` read / in_progress / unread, DECISIONS.md §Lists) follows every change it
 * depends on: progress written, completed, cleared or streamed page by page; books added, removed and back by
 * a scan; Komga's tracker; progress imported by a migration; a user or library deleted. The filter reads per-series counts the app keeps beside
 * the progress rows (docs/ARCHITECTURE.md §Series read state); after each step the series a reader sees in
 * each state are checked through `POST /series/list`, and the counts against a recount from the rows.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createUser, setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { faultyWorker } from '../support/faults';

type State = 'read' | 'in_progress' | 'unread';

/** The series titles the reader sees in each read state. */
async function seriesByState(auth: Credentials): Promise<Record<State, string[]>> {
  const result = {} as Record<State, string[]>;
  for (const state of ['read', 'in_progress', 'unread'] as const) {
    const res = await api('/series/list?pageSize=50&sort=name,asc', {
      auth,
      json: { condition: { readStatus: { operator: 'is', value: state } } },
    });
    expect(res.status).toBe(200);
    result[state] = res.body.data.map((s: { title: string }) => s.title);
  }
  return result;
}

/** The stored counts differ from a recount of the progress rows on live books: none may. */
async function countsOutOfStep(): Promise<unknown[]> {
  const { results } = await env.DB.prepare(
    `WITH truth AS (
       SELECT rp.user_id, b.series_id, sum(rp.completed) AS read_count, count(*) - sum(rp.completed) AS in_progress_count
       FROM read_progress rp JOIN books b ON b.id = rp.book_id WHERE b.deleted_at IS NULL
       GROUP BY rp.user_id, b.series_id)
     SELECT * FROM (SELECT * FROM truth EXCEPT SELECT * FROM series_read_progress)
     UNION ALL SELECT * FROM (SELECT * FROM series_read_progress EXCEPT SELECT * FROM truth)`,
  ).all();
  return results;
}

/** The series' book ids in reading order. */
async function bookIdsOf(auth: Credentials, seriesId: string): Promise<string[]> {
  const res = await api(`/series/${seriesId}/books?pageSize=50`, { auth });
  expect(res.status).toBe(200);
  return res.body.data.map((b: { id: string }) => b.id);
}

const responseOf = async (res: Response) => ({ status: res.status, text: await res.text() });

/** The response has this status; else the failure shows what the server said. */
function expectStatus(res: { status: number; text: string }, status: number) {
  expect(res.status, res.text).toBe(status);
}

describe('series read state (DECISIONS.md §Lists: readStatus)', () => {
  it('follows progress, page streaming, Komga’s tracker, scans that add and remove books, and deletions', async () => {
    const admin = await setupAdmin();
    const libraryId = await createLibrary(admin.auth, { name: 'Comics', path: 'comics' });
    const info = (series: string, number: number) => ({ Series: series, Number: String(number) });
    for (const n of [1, 2]) await putObject(`comics/Alpha/Alpha ${n}.cbz`, await makeCbz(2, info('Alpha', n)));
    for (const n of [1, 2]) await putObject(`comics/Beta/Beta ${n}.cbz`, await makeCbz(2, info('Beta', n)));
    await scan(admin.auth, libraryId);
    const reader = await createUser(admin.auth);
    const auth: Credentials = { basic: { username: reader.username, password: reader.password } };
    const series = await api('/series?pageSize=50&sort=name', { auth });
    const ids = Object.fromEntries(series.body.data.map((s: { title: string; id: string }) => [s.title, s.id]));
    const alpha = await bookIdsOf(auth, ids.Alpha);
    const beta = await bookIdsOf(auth, ids.Beta);
    expect(alpha).toHaveLength(2);
    expect(beta).toHaveLength(2);
    const expectStates = async (states: Record<State, string[]>) => {
      expect(await seriesByState(auth)).toEqual(states);
      expect(await countsOutOfStep()).toEqual([]);
    };
    await expectStates({ read: [], in_progress: [], unread: ['Alpha', 'Beta'] });

    // One book completed through the API: in progress; both: read; one cleared again: in progress.
    const complete = (id: string) =>
      api(`/books/${id}/progress`, { method: 'PUT', auth, json: { current_page: 2, is_completed: true } });
    expectStatus(await complete(alpha[0] as string), 200);
    await expectStates({ read: [], in_progress: ['Alpha'], unread: ['Beta'] });
    expectStatus(await complete(alpha[1] as string), 200);
    await expectStates({ read: ['Alpha'], in_progress: [], unread: ['Beta'] });
    expectStatus(await api(`/books/${alpha[1]}/progress`, { method: 'DELETE', auth }), 204);
    await expectStates({ read: [], in_progress: ['Alpha'], unread: ['Beta'] });

    // Marking the series read and unread.
    expectStatus(await api(`/series/${ids.Alpha}/read`, { method: 'POST', auth }), 204);
    await expectStates({ read: ['Alpha'], in_progress: [], unread: ['Beta'] });
    expectStatus(await api(`/series/${ids.Alpha}/unread`, { method: 'POST', auth }), 204);
    await expectStates({ read: [], in_progress: [], unread: ['Alpha', 'Beta'] });

    // A page streamed through OPDS-PSE (0-indexed) starts the book and its series; the next changes nothing.
    // Streamed progress is written after the page (DECISIONS.md §Reader apps): each step waits for it.
    const app = faultyWorker({});
    const stream = async (index: number) => {
      expectStatus(await responseOf(await app.fetch(`/opds/v1.2/books/${beta[0]}/pages/${index}`, { auth })), 200);
      await app.settle();
    };
    await stream(0);
    await expectStates({ read: [], in_progress: ['Beta'], unread: ['Alpha'] });
    await stream(1);
    await expectStates({ read: [], in_progress: ['Beta'], unread: ['Alpha'] });

    // Komga's tracker (Mihon) catches up to book 2 of Alpha: read.
    const tracker = await api(`http://longbox.test/komga/api/v2/series/${ids.Alpha}/read-progress/tachiyomi`, {
      method: 'PUT',
      auth,
      json: { lastBookNumberSortRead: 2 },
    });
    expect(tracker.status).toBe(204);
    await expectStates({ read: ['Alpha'], in_progress: ['Beta'], unread: [] });

    // A migration from Komga (the admin import API) brings Beta's second book completed: Beta read too; the
    // same batch again changes nothing.
    const imported = {
      source: 'komga:series-read-state',
      entries: [
        {
          userId: reader.id,
          bookId: beta[1],
          page: 2,
          completed: true,
          startedAt: '2030-01-01T00:00:00Z',
          updatedAt: '2030-01-01T00:00:00Z',
          completedAt: '2030-01-01T00:00:00Z',
          percentage: null,
          locator: null,
          epubSpineIndex: null,
          device: null,
        },
      ],
    };
    const importAuth = admin.auth;
    expect((await api('/admin/import/progress', { auth: importAuth, json: imported })).body.written).toBe(1);
    await expectStates({ read: ['Alpha'], in_progress: ['Beta'], unread: [] });
    expect((await api('/admin/import/progress', { auth: importAuth, json: imported })).body.written).toBe(0);
    await expectStates({ read: ['Alpha'], in_progress: ['Beta'], unread: [] });

    // A scan finds a third Alpha book: the series is no longer read; the file goes again: read again.
    await putObject('comics/Alpha/Alpha 3.cbz', await makeCbz(2, info('Alpha', 3)));
    await scan(admin.auth, libraryId);
    await expectStates({ read: [], in_progress: ['Alpha', 'Beta'], unread: [] });
    await env.LIBRARY.delete('comics/Alpha/Alpha 3.cbz');
    await scan(admin.auth, libraryId);
    await expectStates({ read: ['Alpha'], in_progress: ['Beta'], unread: [] });
    // A read book removed by a scan leaves the series read (its live books are all read).
    await env.LIBRARY.delete('comics/Alpha/Alpha 2.cbz');
    await scan(admin.auth, libraryId);
    await expectStates({ read: ['Alpha'], in_progress: ['Beta'], unread: [] });

    // The user's counts go with the user; a library's with the library.
    const rows = (where: string, ...bind: string[]) =>
      env.DB.prepare(`SELECT count(*) AS n FROM series_read_progress WHERE ${where}`)
        .bind(...bind)
        .first<{ n: number }>();
    expect((await rows('user_id = ?', reader.id))?.n).toBe(2);
    expectStatus(await api(`/users/${reader.id}`, { method: 'DELETE', auth: admin.auth }), 204);
    expect((await rows('user_id = ?', reader.id))?.n).toBe(0);
    const adminProgress = { method: 'PUT', auth: admin.auth, json: { current_page: 1 } };
    expectStatus(await api(`/books/${beta[1]}/progress`, adminProgress), 200);
    expect((await rows('series_id = ?', ids.Beta))?.n).toBe(1);
    expectStatus(await api(`/libraries/${libraryId}`, { method: 'DELETE', auth: admin.auth }), 204);
    expect((await rows('1 = 1'))?.n).toBe(0);
  }, 120_000);
});
