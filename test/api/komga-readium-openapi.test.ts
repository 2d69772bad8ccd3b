/**
 * Issue 31 point 15: Komga's own OpenAPI document (its Readium operations, vendored in test/vendor/komga/)
 * applied to `/komga`'s answers for real books — an EPUB, an image-only EPUB and a comic — so a client
 * decoding Komga's wire (Komelia's kotlinx, a generated client) never meets a missing key or a null where
 * Komga writes none (test/support/komga-openapi.ts states Komga's inclusion rules, DECISIONS.md §Reader apps).
 */
import { describe, expect, it } from 'vitest';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { setupAdmin } from '../support/factories';
import { api } from '../support/http';
import { komga } from '../support/komga';
import { komgaDepartures, responseSchemaOf } from '../support/komga-openapi';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

async function library() {
  const admin = await setupAdmin();
  const libraryId = await createLibrary(admin.auth, { name: 'Books', path: 'books' });
  await putObject(
    'books/Novel/Novel.epub',
    buildEpub({
      spine: [
        { kind: 'text', bytes: 3000 },
        { kind: 'text', bytes: 1500 },
      ],
      metadataXml: '<dc:title>Novel</dc:title><dc:creator>Jeanne Auteur</dc:creator>',
    }),
  );
  await putObject(
    'books/Pictures/Pictures.epub',
    buildEpub({
      spine: [1, 2].map((seed) => ({ kind: 'wrapper' as const, image: jpeg(40, 60, { seed }) })),
      metadataXml: '<dc:title>Pictures</dc:title>',
    }),
  );
  await putObject('books/Comics/Comic 001.cbz', await makeCbz(2));
  const done = await scan(admin.auth, libraryId);
  await waitForTasks(admin.auth, libraryId, { since: done.completedAt ?? '' });
  const listed = (await api('/books?pageSize=50', { auth: admin.auth })).body.data as { id: string; title: string }[];
  const id = (title: string) => listed.find((b) => b.title === title)?.id as string;
  return { admin, novel: id('Novel'), pictures: id('Pictures'), comic: id('Comic 001') };
}

describe("/komga's Readium answers against Komga's OpenAPI document", () => {
  it('manifests, positions and progressions carry every key Komga writes, and no null', async () => {
    const { admin, novel, pictures, comic } = await library();
    const checked: string[] = [];
    const expectKomgaShape = async (operation: string, bookId: string) => {
      const response = await komga(operation.replace('{bookId}', bookId), { auth: admin.auth });
      expect([operation, response.status]).toEqual([operation, 200]);
      expect(komgaDepartures(responseSchemaOf(operation), response.body), `${operation} of ${bookId}`).toEqual([]);
      checked.push(operation);
      return response.body;
    };

    const epub = await expectKomgaShape('/api/v1/books/{bookId}/manifest', novel);
    // Komga writes every list of its WPPublicationDto, empty ones too.
    expect(epub).toMatchObject({ images: [], toc: [], landmarks: [], pageList: [] });
    await expectKomgaShape('/api/v1/books/{bookId}/manifest/epub', novel);
    for (const book of [comic, pictures]) {
      const divina = await expectKomgaShape('/api/v1/books/{bookId}/manifest/divina', book);
      expect(divina).toMatchObject({ images: [], resources: [], toc: [], landmarks: [], pageList: [] });
    }
    await expectKomgaShape('/api/v1/books/{bookId}/manifest', comic);
    const positions = await expectKomgaShape('/api/v1/books/{bookId}/positions', novel);
    await expectKomgaShape('/api/v1/books/{bookId}/positions', comic);

    // A reader's progression with the nulls some readers send: they are not written back.
    const second = positions.positions.find((p: { locations: { position: number } }) => p.locations.position === 2);
    const put = await komga(`/api/v1/books/${novel}/progression`, {
      method: 'PUT',
      auth: admin.auth,
      json: {
        modified: '2026-03-01T10:00:00Z',
        device: { id: 'tablet', name: 'Komelia' },
        locator: {
          href: second.href,
          type: second.type,
          title: null,
          locations: { progression: second.locations.progression, position: 2, fragments: [] },
          text: { before: 'Words of the story.', highlight: null },
          koboSpan: null,
        },
      },
    });
    expect(put.status).toBe(204);
    const progression = await expectKomgaShape('/api/v1/books/{bookId}/progression', novel);
    expect(progression.locator.text).toEqual({ before: 'Words of the story.' });
    expect('title' in progression.locator).toBe(false);

    // Progress made elsewhere (the API's page) reads back as the page's position, koboSpan and all.
    expect(
      (await api(`/books/${novel}/progress`, { method: 'PUT', auth: admin.auth, json: { current_page: 1 } })).status,
    ).toBe(200);
    const fromPage = await expectKomgaShape('/api/v1/books/{bookId}/progression', novel);
    expect(fromPage.locator).toMatchObject({ href: positions.positions[0].href, koboSpan: 'kobo.1.1' });
    expect(
      (await api(`/books/${comic}/progress`, { method: 'PUT', auth: admin.auth, json: { current_page: 2 } })).status,
    ).toBe(200);
    await expectKomgaShape('/api/v1/books/{bookId}/progression', comic);

    expect(new Set(checked).size).toBe(5);
  });

  it('the check can fail: a missing list, a null, a missing required string', () => {
    expect(komgaDepartures('WPPublicationDto', { metadata: { title: 'x' }, links: [] })).toEqual(
      expect.arrayContaining(['$.images: missing', '$.readingOrder: missing', '$.toc: missing']),
    );
    expect(
      komgaDepartures('R2Progression', {
        modified: 'x',
        device: { id: 'a', name: 'b' },
        locator: { href: 'a', type: 't', koboSpan: null },
      }),
    ).toEqual(['$.locator.koboSpan: null (Komga never writes null here)']);
    expect(komgaDepartures('R2Positions', { total: 1, positions: [{ type: 't' }] })).toEqual([
      '$.positions[0].href: missing',
    ]);
  });
});
