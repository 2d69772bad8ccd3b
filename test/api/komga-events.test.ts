/**
 * Issue 10: `GET /komga/sse/v1/events` carries Longbox's entity events under Komga's names and fields
 * (Komga `infrastructure/sse`, komga-client `sse/KomgaEvent.kt`: LibraryAdded, SeriesAdded, BookAdded…
 * with camelCase ids), so Komelia refreshes when a scan adds books.
 */
import { describe, expect, it } from 'vitest';
import { setupAdmin } from '../support/factories';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { openStream } from '../support/sse';

describe('Komga server-sent events', () => {
  it('maps library, series, book and cover events to Komga events', async () => {
    const { auth } = await setupAdmin();
    const stream = await openStream('/komga/sse/v1/events', auth);
    const waitFor = async (event: string) => {
      await stream.waitFor(`event: ${event}\n`, 15_000);
      const frame = stream
        .text()
        .split('\n\n')
        .find((f) => f.includes(`event: ${event}\n`)) as string;
      return JSON.parse(frame.slice(frame.indexOf('data: ') + 6));
    };

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
    // Longbox's snake_case event names never leak through.
    expect(stream.text()).not.toMatch(/event: (book|series|library)_/);
    await stream.close();
  });
});
