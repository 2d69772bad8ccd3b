/**
 * Issue 10: `GET /komga/sse/v1/events` carries Longbox's entity events under Komga's names and fields
 * (Komga `infrastructure/sse`, komga-client `sse/KomgaEvent.kt`: LibraryAdded, SeriesAdded, BookAdded…
 * with camelCase ids), so Komelia refreshes when a scan adds books.
 */
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { setupAdmin } from '../support/factories';
import { authHeaders } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';

describe('Komga server-sent events', () => {
  it('maps library, series, book and cover events to Komga events', async () => {
    const { auth } = await setupAdmin();
    const response = await SELF.fetch('http://longbox.test/komga/sse/v1/events', { headers: authHeaders(auth) });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const pump = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    })().catch(() => {});
    const waitFor = async (event: string) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const frame = text.split('\n\n').find((f) => f.includes(`event: ${event}\n`));
        if (frame) return JSON.parse(frame.slice(frame.indexOf('data: ') + 6));
        if (Date.now() > deadline) throw new Error(`no ${event} event in:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
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
    expect(text).not.toMatch(/event: (book|series|library)_/);

    await reader.cancel().catch(() => {});
    await pump;
  });
});
