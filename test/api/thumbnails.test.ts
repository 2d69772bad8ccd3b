/**
 * API.md §4 (GET /books|/series|/libraries/{id}/thumbnail) and DECISIONS.md §Books (thumbnails: longest
 * side `thumbnails.max_size`, cached, ETag + 304): covers made by the scan's generate_thumbnails task,
 * generated on demand when missing (announcing cover_updated, API.md §6), EPUB cover images, the
 * placeholder for anything without an image, and 401/403/404.
 */
import { env } from 'cloudflare:test';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { PublishedEvent } from '../../src/events/events';
import { EVENT_HUB_NAME } from '../../src/events/publisher';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { createApiKey, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';
import { putObject } from '../support/library-files';
import { booksByFileName, fetchRaw, imageKind, imageSize, sameBytes } from '../support/media';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const cbzOf = (...pages: Uint8Array[]) =>
  zipSync(Object.fromEntries(pages.map((page, i) => [`${i + 1}.jpg`, [page, { level: 0 }]])));

async function seriesByTitle(auth: Credentials, libraryId: string): Promise<Record<string, any>> {
  const listed = await api(`/series?library_id=${libraryId}&pageSize=500`, { auth });
  return Object.fromEntries(listed.body.data.map((s: { title: string }) => [s.title, s]));
}

/** Series "Alpha" (a 400×600 and a 500×500 book) and "Beta" (one 300×300 book), covers made by the scan's task. */
async function scannedLibrary() {
  const { auth } = await setupAdmin();
  const libraryId = await createLibrary(auth);
  await putObject('comics/Alpha/Alpha 001.cbz', cbzOf(jpeg(400, 600, { seed: 1 }), jpeg(400, 600, { seed: 2 })));
  await putObject('comics/Alpha/Alpha 002.cbz', cbzOf(jpeg(500, 500, { seed: 3 })));
  await putObject('comics/Beta/Beta 001.cbz', cbzOf(jpeg(300, 300, { seed: 4 })));
  const scanned = await scan(auth, libraryId);
  await waitForTasks(auth, libraryId, { since: scanned.completedAt });
  return {
    auth,
    libraryId,
    books: await booksByFileName(auth, libraryId),
    series: await seriesByTitle(auth, libraryId),
  };
}

async function coverEvents(): Promise<PublishedEvent[]> {
  const hub = env.EVENT_HUB.get(env.EVENT_HUB.idFromName(EVENT_HUB_NAME));
  return (await hub.since(0)).map((buffered) => buffered.event).filter((event) => event.type === 'cover_updated');
}

describe('stored thumbnails (API.md §4, DECISIONS.md §Books)', () => {
  it('serves the cover the scan rendered (longest side 400 px) with its ETag, and 304 for a current copy', async () => {
    const { auth, books } = await scannedLibrary();
    const book = books['Alpha 001.cbz'];
    const stored = await env.CACHE.head(`thumbnails/books/${book.id}`);
    expect(stored).not.toBeNull();
    const cover = await fetchRaw(`/books/${book.id}/thumbnail`, { auth });
    expect(cover.status).toBe(200);
    expect(cover.headers.get('Content-Type')).toBe('image/jpeg');
    expect(imageKind(cover.bytes)).toBe('jpeg');
    expect(imageSize(cover.bytes)).toEqual({ width: 267, height: 400 });
    expect(cover.headers.get('ETag')).toBe(stored!.httpEtag);
    expect(cover.headers.get('Cache-Control')).toBe('private, max-age=3600');
    expect(imageSize((await fetchRaw(`/books/${books['Beta 001.cbz'].id}/thumbnail`, { auth })).bytes)).toEqual({
      width: 300,
      height: 300,
    });
    for (const tag of [stored!.httpEtag, `W/${stored!.httpEtag}`]) {
      const again = await fetchRaw(`/books/${book.id}/thumbnail`, { auth, headers: { 'If-None-Match': tag } });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
    }
  });

  it('shows a series its first book’s cover and a library its first series’', async () => {
    const { auth, libraryId, books, series } = await scannedLibrary();
    const first = await fetchRaw(`/books/${books['Alpha 001.cbz'].id}/thumbnail`, { auth });
    const second = await fetchRaw(`/books/${books['Alpha 002.cbz'].id}/thumbnail`, { auth });
    expect(imageSize(second.bytes)).toEqual({ width: 400, height: 400 });
    const alpha = await fetchRaw(`/series/${series.Alpha.id}/thumbnail`, { auth });
    expect(alpha.status).toBe(200);
    expect(sameBytes(alpha.bytes, first.bytes)).toBe(true);
    expect(alpha.headers.get('ETag')).toBe(first.headers.get('ETag'));
    const beta = await fetchRaw(`/series/${series.Beta.id}/thumbnail`, { auth });
    expect(imageSize(beta.bytes)).toEqual({ width: 300, height: 300 });
    const library = await fetchRaw(`/libraries/${libraryId}/thumbnail`, { auth });
    expect(library.status).toBe(200);
    expect(sameBytes(library.bytes, first.bytes)).toBe(true);
    const cached = await fetchRaw(`/libraries/${libraryId}/thumbnail`, {
      auth,
      headers: { 'If-None-Match': library.headers.get('ETag')! },
    });
    expect(cached.status).toBe(304);
  });
});

describe('a series’ cover is its first book in reading order (issue 23: one definition of "first book")', () => {
  it('shows the number-1 book’s cover when the file names sort the other way', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    // File-name order puts issue 2 first; reading order (the number) puts issue 1 first.
    await putObject('comics/Gamma/A - Gamma 2.cbz', cbzOf(jpeg(500, 500, { seed: 5 })));
    await putObject('comics/Gamma/B - Gamma 1.cbz', cbzOf(jpeg(400, 600, { seed: 6 })));
    const scanned = await scan(auth, libraryId);
    await waitForTasks(auth, libraryId, { since: scanned.completedAt });
    const books = await booksByFileName(auth, libraryId);
    const gamma = (await seriesByTitle(auth, libraryId)).Gamma;
    const ordered = await api(`/series/${gamma.id}/books`, { auth });
    expect(ordered.body.data.map((b: { number: number }) => b.number)).toEqual([1, 2]);

    const issueOne = await fetchRaw(`/books/${books['B - Gamma 1.cbz'].id}/thumbnail`, { auth });
    const issueTwo = await fetchRaw(`/books/${books['A - Gamma 2.cbz'].id}/thumbnail`, { auth });
    expect(imageSize(issueOne.bytes)).toEqual({ width: 267, height: 400 });
    expect(imageSize(issueTwo.bytes)).toEqual({ width: 400, height: 400 });
    const cover = await fetchRaw(`/series/${gamma.id}/thumbnail`, { auth });
    expect(cover.status).toBe(200);
    expect(sameBytes(cover.bytes, issueOne.bytes)).toBe(true);
    expect(cover.headers.get('ETag')).toBe(issueOne.headers.get('ETag'));
  });
});

describe('thumbnails generated on demand (API.md §6 cover_updated)', () => {
  it('renders a missing cover at the current thumbnails.max_size, stores it and announces it', async () => {
    const { auth, books, series } = await scannedLibrary();
    const book = books['Alpha 001.cbz'];
    const key = `thumbnails/books/${book.id}`;
    // The stored cover is lost (e.g. the cache bucket was emptied) and the size setting changed since.
    await env.CACHE.delete(key);
    const setting = await api('/admin/settings/thumbnails.max_size', { method: 'PUT', auth, json: { value: 200 } });
    expect(setting.status).toBe(200);
    const before = (await coverEvents()).length;

    const cover = await fetchRaw(`/books/${book.id}/thumbnail`, { auth });
    expect(cover.status).toBe(200);
    expect(imageSize(cover.bytes)).toEqual({ width: 133, height: 200 });
    const stored = await env.CACHE.get(key);
    expect(sameBytes(new Uint8Array(await stored!.arrayBuffer()), cover.bytes)).toBe(true);
    expect(cover.headers.get('ETag')).toBe(stored!.httpEtag);
    // Served from the bucket from now on: the same ETag, a 304 for the copy just received.
    const again = await fetchRaw(`/books/${book.id}/thumbnail`, {
      auth,
      headers: { 'If-None-Match': cover.headers.get('ETag')! },
    });
    expect(again.status).toBe(304);

    // The series shows the new cover too.
    const seriesCover = await fetchRaw(`/series/${series.Alpha.id}/thumbnail`, { auth });
    expect(sameBytes(seriesCover.bytes, cover.bytes)).toBe(true);

    for (let i = 0; i < 100 && (await coverEvents()).length < before + 2; i++)
      await new Promise((r) => setTimeout(r, 25));
    const announced = (await coverEvents()).slice(before);
    expect(announced).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ entity_type: 'book', entity_id: book.id, library_id: book.libraryId }),
        expect.objectContaining({ entity_type: 'series', entity_id: series.Alpha.id, library_id: book.libraryId }),
      ]),
    );
  });
});

describe('EPUB covers and the placeholder (DECISIONS.md §Books)', () => {
  it('uses an EPUB’s cover image, and a placeholder when there is no image to show', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    await putObject(
      'comics/Novels/with cover.epub',
      buildEpub({ spine: [{ kind: 'text', bytes: 4000 }], coverStyle: 'epub3' }),
    );
    await putObject('comics/Novels/without cover.epub', buildEpub({ spine: [{ kind: 'text', bytes: 4000 }] }));
    await putObject('comics/Broken/broken.cbz', 'not a zip file');
    const scanned = await scan(auth, libraryId);
    await waitForTasks(auth, libraryId, { since: scanned.completedAt });
    const books = await booksByFileName(auth, libraryId);
    const series = await seriesByTitle(auth, libraryId);

    // The reflowable EPUB has no pages, but its package document names a 60×90 cover image.
    const withCover = await fetchRaw(`/books/${books['with cover.epub'].id}/thumbnail`, { auth });
    expect(imageKind(withCover.bytes)).toBe('jpeg');
    expect(imageSize(withCover.bytes)).toEqual({ width: 60, height: 90 });

    for (const path of [
      `/books/${books['without cover.epub'].id}/thumbnail`,
      `/books/${books['broken.cbz'].id}/thumbnail`,
      `/series/${series.Broken.id}/thumbnail`,
    ]) {
      const placeholder = await fetchRaw(path, { auth });
      expect(placeholder.status, path).toBe(200);
      expect(placeholder.headers.get('Content-Type'), path).toBe('image/svg+xml');
      expect(imageKind(placeholder.bytes), path).toBe('svg');
      expect(placeholder.headers.get('Cache-Control'), path).toBe('private, no-cache');
      const etag = placeholder.headers.get('ETag')!;
      expect((await fetchRaw(path, { auth, headers: { 'If-None-Match': etag } })).status, path).toBe(304);
    }

    const empty = await createLibrary(auth, { name: 'Empty', path: 'empty' });
    const emptyCover = await fetchRaw(`/libraries/${empty}/thumbnail`, { auth });
    expect(emptyCover.headers.get('Content-Type')).toBe('image/svg+xml');
  });
});

describe('who may see covers (API.md §5, §7)', () => {
  it('needs credentials (401) and the resource’s read permission (403); unknown or removed → 404', async () => {
    const { auth, libraryId, books, series } = await scannedLibrary();
    const paths: Array<[string, string]> = [
      [`/books/${books['Beta 001.cbz'].id}/thumbnail`, 'BooksRead'],
      [`/series/${series.Beta.id}/thumbnail`, 'SeriesRead'],
      [`/libraries/${libraryId}/thumbnail`, 'LibrariesRead'],
    ];
    const pagesOnly = await createApiKey(auth, { name: 'pages only', permissions: ['PagesRead'] });
    for (const [path, permission] of paths) {
      expectError(await api(path), 401, 'Unauthorized');
      const forbidden = expectError(await api(path, { auth: { apiKey: pagesOnly.key } }), 403, 'Forbidden');
      expect(forbidden.message).toContain(permission);
      const allowed = await createApiKey(auth, { name: permission, permissions: [permission] });
      expect((await fetchRaw(path, { auth: { apiKey: allowed.key } })).status, path).toBe(200);
      const unknown = path.replace(/[0-9a-f-]{36}/, crypto.randomUUID());
      expectError(await api(unknown, { auth }), 404, 'NotFound');
      expectError(await api(path.replace(/[0-9a-f-]{36}/, 'abc'), { auth }), 400, 'BadRequest');
    }

    await env.LIBRARY.delete('comics/Beta/Beta 001.cbz');
    await scan(auth, libraryId);
    expectError(await api(`/books/${books['Beta 001.cbz'].id}/thumbnail`, { auth }), 404, 'NotFound');
  });
});
