/**
 * Issue 18 point 4: Komf pointed at /komga updates Longbox. Komf's exact identify-and-write sequence
 * (test/support/clients/komf-metadata.ts, transcribed from Komf's source) is replayed request for request:
 * it must change the series' summary, genres, tags and links, every book's title, authors, tags and links,
 * and the covers; Komga's lock and null rules hold.
 */
import { describe, expect, it } from 'vitest';
import { png } from '../fixtures/images';
import { komgaClientThumbnailUpload } from '../support/clients/client-http';
import { type KomfBookT, replayKomfIdentify } from '../support/clients/komf-metadata';
import { selfTransport } from '../support/clients/self-transport';
import { ADMIN } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { komga, komgaLibrary } from '../support/komga';
import { imageSize } from '../support/media';

const PROVIDER_SERIES = {
  status: 'ENDED' as const,
  summary: 'A mercenary named Guts, from the provider.',
  publisher: 'Dark Horse',
  genres: ['Action', 'Horror'],
  tags: ['Mercenary', 'Demons'],
  totalBookCount: 41,
  links: [{ label: 'AniList', url: 'https://anilist.co/manga/30002' }],
};

const bookMetadata = (book: KomfBookT) => ({
  title: `Provider volume ${book.number}`,
  summary: `Volume ${book.number}, as the provider tells it.`,
  number: { start: book.number, end: book.number },
  authors: [
    { name: 'Kentaro Miura', role: 'WRITER' as const },
    { name: 'Studio Gaga', role: 'PENCILLER' as const },
  ],
  tags: ['Violence'],
  links: [{ label: 'MangaUpdates', url: `https://www.mangaupdates.com/series/${book.number}` }],
});

async function berserk(auth: Credentials) {
  const series = await komga('/api/v1/series?unpaged=true', { auth });
  return series.body.content.find((s: { name: string }) => s.name === 'Berserk') as { id: string };
}

describe('Komf writing metadata and covers through /komga (issue 18; docs/clients.md)', () => {
  it("replays Komf's identify sequence: title, summary, authors, tags, links and covers change", async () => {
    const { admin } = await komgaLibrary();
    const { id: seriesId } = await berserk(admin.auth);
    const before = await komga(`/api/v1/series/${seriesId}/thumbnail`, { auth: admin.auth });
    const seriesCover = png(300, 450, 7);
    const bookCover = png(200, 320, 9);
    const transport = selfTransport();
    const run = await replayKomfIdentify(transport, {
      seriesId,
      username: ADMIN.username,
      password: ADMIN.password,
      series: PROVIDER_SERIES,
      bookMetadata,
      seriesCover,
      bookCover: (book) => (book.number === 1 ? bookCover : undefined),
      trigger: 'match',
    });
    expect(run.calls.map((call) => call.status).every((s) => s < 300)).toBe(true);
    // Komga answers 200 [] for a series without uploaded thumbnails (Komf stops on a 404).
    expect(run.calls.find((call) => call.step === 'series-thumbnails')?.status).toBe(200);

    const series = (await komga(`/api/v1/series/${seriesId}`, { auth: admin.auth })).body;
    expect(series.metadata).toMatchObject({
      status: 'ENDED',
      summary: PROVIDER_SERIES.summary,
      publisher: 'Dark Horse',
      totalBookCount: 41,
      links: PROVIDER_SERIES.links,
      // Komf sends no locks, and Komga stores none by itself.
      summaryLock: false,
      genresLock: false,
    });
    expect([...series.metadata.genres].sort()).toEqual(['action', 'horror']);
    expect([...series.metadata.tags].sort()).toEqual(['demons', 'mercenary']);

    const books = (
      await komga(`/api/v1/series/${seriesId}/books?unpaged=true&sort=metadata.numberSort,asc`, { auth: admin.auth })
    ).body.content;
    expect(books.map((b: { metadata: { title: string } }) => b.metadata.title)).toEqual([
      'Provider volume 1',
      'Provider volume 2',
      'Provider volume 3',
    ]);
    for (const book of books) {
      expect(book.metadata.authors).toEqual([
        { name: 'Kentaro Miura', role: 'writer' },
        { name: 'Studio Gaga', role: 'penciller' },
      ]);
      expect(book.metadata.tags).toEqual(['violence']);
      expect(book.metadata.links[0].label).toBe('MangaUpdates');
      // Komf locks the number it wrote (numberSortLock only when the provider gave a numberSort).
      expect(book.metadata).toMatchObject({ numberLock: true, numberSortLock: false, titleLock: false });
    }
    // Longbox's own API shows the same, and the series' credits follow its books.
    const own = (await api(`/series/${seriesId}/metadata`, { auth: admin.auth })).body;
    expect(own.summary).toBe(PROVIDER_SERIES.summary);
    expect(own.authors).toContainEqual({ name: 'Studio Gaga', role: 'penciller' });

    // The uploaded covers are what the thumbnails show now.
    const after = await komga(`/api/v1/series/${seriesId}/thumbnail`, { auth: admin.auth });
    expect(after.status).toBe(200);
    expect(after.headers.get('ETag')).not.toBe(before.headers.get('ETag'));
    const { width, height } = imageSize(after.bytes);
    expect(width / height).toBeCloseTo(300 / 450, 1);
    const listed = (await komga(`/api/v1/series/${seriesId}/thumbnails`, { auth: admin.auth })).body;
    expect(listed).toEqual([
      expect.objectContaining({
        id: run.uploadedSeriesThumbnail?.id,
        type: 'USER_UPLOADED',
        selected: true,
        width: 300,
        height: 450,
      }),
    ]);
    expect((await api(`/series/${seriesId}`, { auth: admin.auth })).body.hasCustomCover).toBe(true);
    const first = books[0].id as string;
    const bookThumb = await komga(`/api/v1/books/${first}/thumbnail`, { auth: admin.auth });
    const size = imageSize(bookThumb.bytes);
    expect(size.width / size.height).toBeCloseTo(200 / 320, 1);

    // Komf's next run replaces its own covers: the previous ones are deleted.
    await replayKomfIdentify(transport, {
      seriesId,
      username: ADMIN.username,
      password: ADMIN.password,
      series: PROVIDER_SERIES,
      bookMetadata,
      seriesCover: png(310, 450, 8),
      previous: { seriesThumbnailId: run.uploadedSeriesThumbnail?.id },
    });
    const relisted = (await komga(`/api/v1/series/${seriesId}/thumbnails`, { auth: admin.auth })).body;
    expect(relisted).toHaveLength(1);
    expect(relisted[0]).toMatchObject({ width: 310, selected: true });
  });

  it("keeps Komga's rules: locks as sent, null clears only what Komga clears, lock-only bodies change nothing", async () => {
    const { admin } = await komgaLibrary();
    const auth = admin.auth;
    const { id: seriesId } = await berserk(auth);
    const patch = (path: string, json: unknown) => komga(path, { auth, method: 'PATCH', json });
    expect(
      (await patch(`/api/v1/series/${seriesId}/metadata`, { summary: 'Mine', summaryLock: true, genres: ['Drama'] }))
        .status,
    ).toBe(204);
    let series = (await komga(`/api/v1/series/${seriesId}`, { auth })).body;
    expect(series.metadata).toMatchObject({ summary: 'Mine', summaryLock: true, genres: ['drama'], genresLock: false });
    // null: "unchanged" for summary, "clear" for genres.
    expect((await patch(`/api/v1/series/${seriesId}/metadata`, { summary: null, genres: null })).status).toBe(204);
    series = (await komga(`/api/v1/series/${seriesId}`, { auth })).body;
    expect(series.metadata).toMatchObject({ summary: 'Mine', genres: [] });

    const book = (await komga(`/api/v1/series/${seriesId}/books?unpaged=true`, { auth })).body.content[0];
    const noOp = await patch(`/api/v1/books/${book.id}/metadata`, { numberLock: false, numberSortLock: false });
    expect(noOp.status).toBe(204);
    const same = (await komga(`/api/v1/books/${book.id}`, { auth })).body;
    expect(same.metadata).toMatchObject({
      title: book.metadata.title,
      numberLock: false,
      lastModified: book.metadata.lastModified,
    });
    // The bulk PATCH of Komga: {bookId: dto}.
    expect((await patch('/api/v1/books/metadata', { [book.id]: { title: 'Bulk title', isbn: '' } })).status).toBe(204);
    expect((await komga(`/api/v1/books/${book.id}`, { auth })).body.metadata).toMatchObject({
      title: 'Bulk title',
      isbn: '',
    });
    // A bad value is a 400, and changes nothing.
    expect((await patch(`/api/v1/series/${seriesId}/metadata`, { status: 'FINISHED', summary: 'x' })).status).toBe(400);
    expect((await komga(`/api/v1/series/${seriesId}`, { auth })).body.metadata.summary).toBe('Mine');
  });

  it('sniffs uploads, refuses what is not an image, and selects the generated cover back', async () => {
    const { admin } = await komgaLibrary();
    const auth = admin.auth;
    const { id: seriesId } = await berserk(auth);
    const book = (await komga(`/api/v1/series/${seriesId}/books?unpaged=true`, { auth })).body.content[0];
    const upload = (bytes: Uint8Array, selected = true) => {
      const body = komgaClientThumbnailUpload(bytes, selected);
      return komga(`/api/v1/books/${book.id}/thumbnails`, {
        auth,
        method: 'POST',
        headers: { 'Content-Type': body.contentType },
        body: body.body,
      });
    };
    const notImage = await upload(new TextEncoder().encode('<html>not an image</html>'));
    expect(notImage.status).toBe(400);
    const generated = await komga(`/api/v1/books/${book.id}/thumbnail`, { auth });
    const added = await upload(png(120, 400, 3));
    expect(added.status, new TextDecoder().decode(added.bytes)).toBe(200);
    expect(added.body).toMatchObject({
      bookId: book.id,
      type: 'USER_UPLOADED',
      selected: true,
      mediaType: 'image/png',
    });
    let list = (await komga(`/api/v1/books/${book.id}/thumbnails`, { auth })).body;
    expect(list.map((t: { type: string; selected: boolean }) => [t.type, t.selected])).toEqual([
      ['GENERATED', false],
      ['USER_UPLOADED', true],
    ]);
    expect(imageSize((await komga(`/api/v1/books/${book.id}/thumbnail`, { auth })).bytes).height).toBeGreaterThan(
      imageSize((await komga(`/api/v1/books/${book.id}/thumbnail`, { auth })).bytes).width * 2,
    );
    // Selecting the generated thumbnail resets the book's cover.
    expect(
      (await komga(`/api/v1/books/${book.id}/thumbnails/${book.id}/selected`, { auth, method: 'PUT' })).status,
    ).toBe(202);
    const reset = await komga(`/api/v1/books/${book.id}/thumbnail`, { auth });
    expect(reset.headers.get('ETag')).toBe(generated.headers.get('ETag'));
    list = (await komga(`/api/v1/books/${book.id}/thumbnails`, { auth })).body;
    expect(list[0]).toMatchObject({ type: 'GENERATED', selected: true });
    expect((await komga(`/api/v1/books/${book.id}/thumbnails/${book.id}`, { auth, method: 'DELETE' })).status).toBe(
      400,
    );
    expect(
      (await komga(`/api/v1/books/${book.id}/thumbnails/${added.body.id}`, { auth, method: 'DELETE' })).status,
    ).toBe(202);
    expect((await komga(`/api/v1/books/${book.id}/thumbnails`, { auth })).body).toHaveLength(1);
  });
});
