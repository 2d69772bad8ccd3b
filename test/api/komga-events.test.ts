/**
 * Issue 10: `GET /komga/sse/v1/events` carries Longbox's entity events under Komga's names and fields
 * (Komga `infrastructure/sse`, komga-client `sse/KomgaEvent.kt`: LibraryAdded, SeriesAdded, BookAdded…
 * with camelCase ids), so Komelia refreshes when a scan adds books.
 */
import { describe, expect, it } from 'vitest';
import { createUser, login, setupAdmin } from '../support/factories';
import type { Credentials } from '../support/http';
import { komga, komgaEventStream } from '../support/komga';
import { openStream } from '../support/open-stream';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';

describe('Komga server-sent events', () => {
  it('maps library, series, book and cover events to Komga events', async () => {
    const { auth } = await setupAdmin();
    const events = await komgaEventStream(auth);
    expect(events.response.status).toBe(200);
    expect(events.response.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
    const waitFor = events.waitFor;

    const libraryId = await createLibrary(auth, { name: 'Events', path: 'events' });
    expect(await waitFor('LibraryAdded')).toEqual({ libraryId });
    await putObject('events/Monster/Monster 01.cbz', await makeCbz(2, { Series: 'Monster', Number: '1' }));
    await scan(auth, libraryId);
    const series = await waitFor('SeriesAdded');
    expect(series).toEqual({ seriesId: expect.any(String), libraryId });
    expect(await waitFor('BookAdded')).toEqual({ bookId: expect.any(String), seriesId: series.seriesId, libraryId });
    const book = await waitFor('BookAdded');
    // The scan's thumbnail task announces the new covers.
    expect(await waitFor('ThumbnailBookAdded')).toEqual({ bookId: book.bookId, selected: true });
    expect(await waitFor('ThumbnailSeriesAdded')).toEqual({ seriesId: series.seriesId, selected: true });
    // A metadata PATCH that changes only the age rating (Komf's) is announced too, as on /api/v1.
    const seriesChanged = () => events.text().split('event: SeriesChanged\n').length - 1;
    const before = seriesChanged();
    const rated = await komga(`/api/v1/series/${series.seriesId}/metadata`, {
      method: 'PATCH',
      auth,
      json: { ageRating: 16 },
    });
    expect(rated.status).toBe(204);
    await expect.poll(seriesChanged, { timeout: 5_000 }).toBeGreaterThan(before);
    // Longbox's snake_case event names never leak through.
    expect(events.text()).not.toMatch(/event: (book|series|library)_/);

    await events.close();
  });

  it('sends SessionExpired to a user’s own streams when someone else ends their sessions, as Komga does', async () => {
    const { auth: admin } = await setupAdmin();
    const reader = await createUser(admin);
    const leaving = await createUser(admin);
    const session: Credentials = { token: (await login(reader.username, reader.password)).token };
    const readerEvents = await komgaEventStream(session);
    const leavingEvents = await komgaEventStream({ basic: { username: leaving.username, password: leaving.password } });
    const leavingApiEvents = await openStream(
      '/api/v1/events/stream',
      (await login(leaving.username, leaving.password)).auth,
    );
    const adminEvents = await openStream('/komga/sse/v1/events', admin);
    const expiredFrames = (text: string) => text.split('event: SessionExpired\n').length - 1;

    // Changing one's own password keeps the session used, and Komga sends nothing then.
    const own = await komga('/api/v2/users/me/password', {
      method: 'PATCH',
      auth: session,
      json: { password: 'a brand new secret 42' },
    });
    expect(own.status).toBe(204);
    const marker = await createLibrary(admin, { name: 'Marker', path: 'marker' });
    expect(await readerEvents.waitFor('LibraryAdded')).toEqual({ libraryId: marker });
    expect(expiredFrames(readerEvents.text())).toBe(0);

    // An admin setting the reader's password ends all their sessions: their stream is told, with Komga's payload.
    const set = await komga(`/api/v2/users/${reader.id}/password`, {
      method: 'PATCH',
      auth: admin,
      json: { password: 'another new secret 43' },
    });
    expect(set.status).toBe(204);
    expect(await readerEvents.waitFor('SessionExpired')).toEqual({ userId: reader.id });

    // Deleting a user tells theirs, on /komga as SessionExpired and on /api/v1 as session_expired.
    expect((await komga(`/api/v2/users/${leaving.id}`, { method: 'DELETE', auth: admin })).status).toBe(204);
    expect(await leavingEvents.waitFor('SessionExpired')).toEqual({ userId: leaving.id });
    await leavingApiEvents.waitFor('event: session_expired\n');
    expect(leavingApiEvents.text()).toContain(`"user_id":"${leaving.id}"`);

    // Nobody else hears of it: not the admin who did it, not the other user.
    const after = await createLibrary(admin, { name: 'After', path: 'after' });
    await adminEvents.waitFor(`"libraryId":"${after}"`);
    expect(expiredFrames(adminEvents.text())).toBe(0);
    expect(readerEvents.text()).not.toContain(leaving.id);
    expect(expiredFrames(readerEvents.text())).toBe(1);

    for (const events of [readerEvents, leavingEvents, leavingApiEvents, adminEvents]) await events.close();
  });
});
