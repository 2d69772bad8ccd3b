/**
 * Live events respect access (issue 17, "Done when" 2; docs/DECISIONS.md §Organise and share,
 * "Enforcement"): a hidden series' or book's events never reach a restricted caller's stream —
 * `/api/v1/events/stream`, its `Last-Event-ID` replay, `/komga/sse/v1/events` — scan progress, which counts
 * whole libraries, reaches only callers without content restrictions, and a restriction changed while a
 * stream is open applies to it. The catalog is test/support/access-fixture.ts.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { userLibraryAccess, userSharingLabels } from '../../src/db/schema';
import { type AccessFixture, addFixtureBook, buildAccessFixture, tracesOf } from '../support/access-fixture';
import { db } from '../support/catalog-factory';
import { ADMIN } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { komga } from '../support/komga';
import { scan } from '../support/scans';
import { openStream } from '../support/open-stream';

/** The ids of the books named by book events in a stream's text. */
const bookIdsIn = (text: string) => [...text.matchAll(/"book_?[iI]d":"([0-9a-f-]{36})"/g)].map((m) => m[1]);

describe('events and access (issue 17)', () => {
  it('a restricted stream, its replay and its Komga twin carry no event of a hidden series; scan progress only to the unrestricted', async () => {
    const f = await buildAccessFixture();
    const user: Credentials = { apiKey: f.userKey };
    const admin = await openStream('/api/v1/events/stream', f.admin);
    const restricted = await openStream('/api/v1/events/stream', user);
    const narrowed = await openStream('/api/v1/events/stream', { apiKey: f.narrowKey });
    const komga = await openStream('/komga/sse/v1/events', user);
    const adminScans = await openStream('/api/v1/scans/stream', f.admin);
    const restrictedScans = await openStream('/api/v1/scans/stream', user);

    await addFixtureBook('alpha', 'xadult', 'Adults Only 18+', 3);
    await addFixtureBook('alpha', 'xsecret', 'Teen', 3);
    await addFixtureBook('alpha', 'xteen', 'Teen', 3);
    await addFixtureBook('beta', 'xbeta', 'Everyone', 3);
    await addFixtureBook('gamma', 'xgamma', 'Everyone', 3);
    for (const library of [f.libraries.alpha, f.libraries.beta, f.libraries.gamma]) await scan(f.admin, library);
    // The last event, which every stream gets: once it arrives, every earlier event has been decided.
    expect(
      (await api(`/libraries/${f.libraries.alpha}`, { method: 'PUT', auth: f.admin, json: { name: 'Alpha Two' } }))
        .status,
    ).toBe(200);
    const sentinel = `"library_id":"${f.libraries.alpha}"`;
    for (const stream of [admin, restricted, narrowed]) await stream.waitFor('library_updated');
    await komga.waitFor('LibraryChanged');
    await adminScans.waitFor(`"library_id":"${f.libraries.gamma}"`);

    const newBooks = async (marker: string) =>
      (await api(`/series/${f.series[marker as 'xteen'].seriesId}/books`, { auth: f.admin })).body.data.map(
        (b: { id: string }) => b.id,
      );
    const hiddenFromUser = [
      ...tracesOf(f, ['xadult', 'xsecret', 'xbeta']),
      ...(await newBooks('xadult')),
      ...(await newBooks('xsecret')),
      ...(await newBooks('xbeta')),
      f.libraries.beta,
    ];
    const hiddenFromKey = [
      ...hiddenFromUser,
      ...tracesOf(f, ['xgamma']),
      ...(await newBooks('xgamma')),
      f.libraries.gamma,
    ];
    const leaks = (text: string, hidden: string[]) => hidden.filter((trace) => text.includes(trace));

    // The admin's stream has the hidden books' events: the restricted ones have none of them.
    expect(leaks(admin.text(), hiddenFromUser).length).toBeGreaterThan(5);
    expect(leaks(restricted.text(), hiddenFromUser)).toEqual([]);
    expect(leaks(komga.text(), hiddenFromUser)).toEqual([]);
    expect(leaks(narrowed.text(), hiddenFromKey)).toEqual([]);
    // …and they do have the visible ones: Xteen's new book, and Xgamma's for the user's full key.
    const xteenNew = (await newBooks('xteen')).at(-1);
    const xgammaNew = (await newBooks('xgamma')).at(-1);
    expect(bookIdsIn(restricted.text())).toEqual(expect.arrayContaining([xteenNew, xgammaNew]));
    expect(bookIdsIn(narrowed.text())).toContain(xteenNew);
    expect(komga.text()).toContain(`"bookId":"${xteenNew}"`);
    expect(restricted.text()).toContain(sentinel);

    // Scan progress counts whole libraries: the content-restricted user gets none of it.
    expect(adminScans.text()).toContain('scan_progress');
    expect(restrictedScans.text()).not.toContain('scan_progress');

    // Resuming after Last-Event-ID 0 replays the buffer through the same filter.
    const replay = await openStream('/api/v1/events/stream', user, { 'Last-Event-ID': '0' });
    await replay.waitFor(sentinel);
    expect(leaks(replay.text(), hiddenFromUser)).toEqual([]);
    expect(bookIdsIn(replay.text())).toContain(xteenNew);

    for (const stream of [admin, restricted, narrowed, komga, adminScans, restrictedScans, replay])
      await stream.close();
  }, 120_000);

  it('a restriction changed while a stream is open applies to it', async () => {
    const f = await buildAccessFixture();
    const restricted = await openStream('/api/v1/events/stream', { apiKey: f.userKey });
    // Xsecret's label is no longer denied; Xgamma Library is no longer shared.
    await db.batch([
      db.delete(userSharingLabels).where(eq(userSharingLabels.userId, f.user.id)),
      db.delete(userLibraryAccess).where(eq(userLibraryAccess.libraryId, f.libraries.gamma)),
    ]);
    // The stream reads the caller's access again at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await addFixtureBook('alpha', 'xsecret', 'Teen', 3);
    await addFixtureBook('gamma', 'xgamma', 'Everyone', 3);
    await scan(f.admin, f.libraries.gamma);
    await scan(f.admin, f.libraries.alpha);
    await api(`/libraries/${f.libraries.alpha}`, { method: 'PUT', auth: f.admin, json: { name: 'Alpha Two' } });
    await restricted.waitFor('library_updated');

    const books = async (marker: 'xsecret' | 'xgamma') =>
      (await api(`/series/${f.series[marker].seriesId}/books`, { auth: f.admin })).body.data.map(
        (b: { id: string }) => b.id,
      );
    const seen = bookIdsIn(restricted.text());
    expect(seen).toContain((await books('xsecret')).at(-1));
    expect(seen).not.toContain((await books('xgamma')).at(-1));
    expect(restricted.text()).not.toContain(f.libraries.gamma);
    await restricted.close();
  }, 120_000);
  it('a series hidden while a stream is open (a denied tag put on it, its rating raised) stops sending events within a second', async () => {
    const f = await buildAccessFixture();
    const restricted = await openStream('/api/v1/events/stream', { apiKey: f.userKey });
    const books = async (marker: 'xteen' | 'xunrated') =>
      (await api(`/series/${f.series[marker].seriesId}/books`, { auth: f.admin })).body.data.map(
        (b: { id: string }) => b.id,
      ) as string[];
    // A library event, which every stream gets: once it arrives, every earlier event has been decided.
    const updates = () => restricted.text().split('library_updated').length;
    const rename = async (name: string) => {
      const before = updates();
      const renamed = await api(`/libraries/${f.libraries.alpha}`, { method: 'PUT', auth: f.admin, json: { name } });
      expect(renamed.status).toBe(200);
      for (let waited = 0; updates() === before; waited += 20) {
        if (waited > 20_000) throw new Error('no library_updated event');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // Both series are visible to the stream, which has decided so for their events.
    await addFixtureBook('alpha', 'xteen', 'Teen', 3);
    await addFixtureBook('alpha', 'xunrated', undefined, 2);
    await scan(f.admin, f.libraries.alpha);
    await rename('Alpha Seen');
    expect(bookIdsIn(restricted.text())).toEqual(
      expect.arrayContaining([(await books('xteen')).at(-1), (await books('xunrated')).at(-1)]),
    );

    // Xteen gets the tag the user is denied; Xunrated an admin's rating of 18 (the user excludes 18).
    const tagged = await api(`/series/${f.series.xteen.seriesId}/sharing-tags`, {
      method: 'POST',
      auth: f.admin,
      json: { sharingTagId: f.labels.xsecret },
    });
    expect(tagged.status).toBe(200);
    const rated = await komga(`/api/v1/series/${f.series.xunrated.seriesId}/metadata`, {
      method: 'PATCH',
      auth: { basic: { username: ADMIN.username, password: ADMIN.password } },
      json: { ageRating: 18, ageRatingLock: true },
    });
    expect(rated.status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await addFixtureBook('alpha', 'xteen', 'Teen', 4);
    await addFixtureBook('alpha', 'xunrated', undefined, 3);
    await scan(f.admin, f.libraries.alpha);
    await rename('Alpha Hidden');

    const hidden = [...(await books('xteen')).slice(-1), ...(await books('xunrated')).slice(-1)];
    expect(hidden).toHaveLength(2);
    expect(hidden.filter((id) => restricted.text().includes(id))).toEqual([]);
    await restricted.close();
  }, 120_000);
  // A collection names series, a read list books; the mixed one's event names Xadult (or its book), which the
  // restricted user may not see: it never arrives.
  it.each([
    {
      kind: 'collection',
      path: '/collections',
      field: 'seriesIds',
      members: (f: AccessFixture) => ({ visible: f.series.xteen.seriesId, hidden: f.series.xadult.seriesId }),
    },
    {
      kind: 'read-list',
      path: '/readlists',
      field: 'bookIds',
      members: (f: AccessFixture) => ({
        visible: f.series.xteen.bookIds[0] as string,
        hidden: f.series.xadult.bookIds[0] as string,
      }),
    },
  ])(
    'a $kind event reaches a restricted stream only when it sees every member the event names',
    async ({ path, field, members }) => {
      const f = await buildAccessFixture();
      const { visible: shown, hidden } = members(f);
      const admin = await openStream('/api/v1/events/stream', f.admin);
      const restricted = await openStream('/api/v1/events/stream', { apiKey: f.userKey });
      const create = async (name: string, ids: string[]) => {
        const response = await api(path, { method: 'POST', auth: f.admin, json: { name, [field]: ids } });
        expect(response.status).toBe(201);
        return response.body.id as string;
      };
      const mixed = await create('Mixed', [shown, hidden]);
      const visible = await create('Visible', [shown]);
      for (const stream of [admin, restricted]) await stream.waitFor(visible);
      expect(admin.text()).toContain(mixed);
      expect(restricted.text()).not.toContain(mixed);
      expect(restricted.text()).not.toContain(hidden);
      await Promise.all([admin.close(), restricted.close()]);
    },
    120_000,
  );
});
