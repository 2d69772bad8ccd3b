/**
 * komga-client's search bodies (Komf's book and library walks, Komelia's home rows) as they go on the wire:
 * kotlinx writes each condition's `"type"` discriminator beside its one real key (docs/clients.md, "Every
 * komga-client caller"). Komga ignores it; so must /komga — and only it.
 */
import { describe, expect, it } from 'vitest';
import { jsonBody } from '../support/clients/client-http';
import { booksOfSeriesSearch, seriesOfLibrarySearch } from '../support/clients/komf-metadata';
import { selfTransport } from '../support/clients/self-transport';
import { expectParses, KomeliaBook, KomeliaPage, KomeliaSeries } from '../support/komga-client-dtos';
import { komga, komgaLibrary } from '../support/komga';

const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

describe('komga-client search conditions with their type discriminator', () => {
  it("answers Komf's and Komelia's bodies as Komga does, and still refuses a second real key", async () => {
    const { admin, libraryId } = await komgaLibrary();
    const send = selfTransport({ auth: admin.auth });
    const post = async (path: string, body: unknown) => {
      const { headers, body: text } = jsonBody(body);
      const response = await send({ method: 'POST', path, headers, body: text });
      return { status: response.status, body: response.status === 200 ? decode(response.bytes) : undefined };
    };

    // Komf's library walk, then a series' books (komf-metadata.ts).
    const series = await post('/api/v1/series/list?size=500&page=0&unpaged=false', seriesOfLibrarySearch(libraryId));
    expect(series.status).toBe(200);
    expectParses(KomeliaPage(KomeliaSeries), series.body, 'series/list with type');
    const names = series.body.content.map((s: { name: string }) => s.name);
    expect(names).toEqual(['Berserk', 'Saga']);
    const berserk = series.body.content[0].id;
    const books = await post('/api/v1/books/list?unpaged=true', booksOfSeriesSearch(berserk));
    expect(books.status).toBe(200);
    expectParses(KomeliaPage(KomeliaBook), books.body, 'books/list with type');
    expect(books.body.content.map((b: { name: string }) => b.name)).toEqual(['Black Swordsman', 'Brand', 'Guardians']);

    // Komelia's "Keep reading" row: AllOfBook > ReadStatus, sorted by read date.
    await komga(`/api/v1/books/${books.body.content[1].id}/read-progress`, {
      method: 'PATCH',
      auth: admin.auth,
      json: { page: 1 },
    });
    const keepReading = await post(
      '/api/v1/books/list?sort=readProgress.readDate%2Cdesc&page=0&size=20&unpaged=false',
      {
        condition: {
          type: 'AllOfBook',
          allOf: [{ type: 'ReadStatus', readStatus: { operator: 'is', value: 'IN_PROGRESS' } }],
        },
      },
    );
    expect(keepReading.body.content.map((b: { name: string }) => b.name)).toEqual(['Brand']);

    // Only `type` is set aside: two real keys in one condition are still ambiguous.
    const twoKeys = await komga('/api/v1/books/list', {
      auth: admin.auth,
      json: { condition: { type: 'SeriesId', seriesId: { operator: 'is', value: berserk }, title: {} } },
    });
    expect(twoKeys.status).toBe(400);
    expect(twoKeys.body.message).toContain('exactly one key besides type');
  });
});
