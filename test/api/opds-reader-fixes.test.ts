/**
 * Issue 22's OPDS fixes, each with the fixture that showed it (made here): an issue 2.5 between 2 and 3, a
 * book without a cover, a ComicInfo naming people in several roles, a library with more series than a
 * page; and the order of an OPDS 2 publication's links (the reading manifest first: clients open the
 * first link whose type is a manifest type).
 */
import { describe, expect, it } from 'vitest';
import { buildEpub } from '../fixtures/epub-writer';
import { setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { entries, entryTitled, feedHead, fetchAs, links, PSE_REL, streamUrl, textOf } from '../support/opds';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';
import { jpeg } from '../fixtures/images';
import { buildZip } from '../fixtures/zip-writer';
import { buildPdf } from '../fixtures/pdf-writer';
import { writeRar5 } from '../fixtures/rar-writer';
import { imageSize } from '../support/media';

const MANIFEST_TYPES = new Set([
  'application/opds-publication+json',
  'application/divina+json',
  'application/webpub+json',
  'application/epub+zip',
  'application/audiobook+json',
]);

async function json(path: string, auth: Credentials) {
  const res = await fetchAs(path, auth);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text);
}

async function seed() {
  const { auth } = await setupAdmin();
  const libraryId = await createLibrary(auth, { name: 'Shelf', path: 'shelf' });
  for (const n of ['2', '2.5', '3']) {
    await putObject(`shelf/Saga/Saga ${n}.cbz`, await makeCbz(1, { Series: 'Saga', Number: n, Title: `Issue ${n}` }));
  }
  await putObject(
    'shelf/Credits/Credits 1.cbz',
    await makeCbz(1, {
      Series: 'Credits',
      Number: '1',
      Title: 'Everyone',
      Writer: 'Wanda Writer',
      Penciller: 'Pete Penciller',
      Inker: 'Ingrid Inker',
      Colorist: 'Carl Colorist',
      Letterer: 'Lena Letterer',
      Editor: 'Ed Editor',
      CoverArtist: 'Cora Cover',
    }),
  );
  await putObject(
    'shelf/Plain/Plain Text.epub',
    buildEpub({
      spine: [{ kind: 'text', bytes: 2000 }],
      coverStyle: 'none',
      metadataXml: '<dc:title>Plain Text</dc:title>',
    }),
  );
  // Pages named .png that are not PNGs: a JPEG, and a PPM (P6) as some scanners write.
  const ppm = new Uint8Array([
    ...new TextEncoder().encode('P6\n# scanner\n7 5\n255\n'),
    ...new Uint8Array(7 * 5 * 3).fill(128),
  ]);
  await putObject(
    'shelf/Odd/Odd 1.cbz',
    buildZip([
      { name: '1.png', data: jpeg(30, 20, { seed: 5 }) },
      { name: '2.png', data: ppm },
    ]),
  );
  // A page box in fractional points (A4 as some tools write it): its rendered size must be the one listed.
  await putObject(
    'shelf/Reports/A4 Report.pdf',
    buildPdf([{ kind: 'text', text: 'Fractional box', box: [595.3, 841.9] }]),
  );
  const done = await scan(auth, libraryId);
  await waitForTasks(auth, libraryId, { since: done.completedAt ?? '' });
  const books = (await api(`/books?library_id=${libraryId}&pageSize=50`, { auth })).body.data as any[];
  return { auth, libraryId, books: Object.fromEntries(books.map((b) => [b.title, b])) };
}

describe('OPDS fixes of issue 22', () => {
  it('issue 2.5 sorts between 2 and 3 everywhere: series feeds, OPDS 2 position, /komga numberSort, the API', async () => {
    const { auth, books } = await seed();
    const seriesId = books['Issue 2.5'].seriesId;
    const v1 = await fetchAs(`/opds/v1.2/series/${seriesId}`, auth);
    expect(entries(v1.text).map((e) => textOf(e, 'title'))).toEqual(['Issue 2', 'Issue 2.5', 'Issue 3']);
    const v2 = await json(`/opds/v2.0/series/${seriesId}`, auth);
    expect(v2.publications.map((p: any) => [p.metadata.title, p.metadata.belongsTo.series[0].position])).toEqual([
      ['Issue 2', 2],
      ['Issue 2.5', 2.5],
      ['Issue 3', 3],
    ]);
    expect(books['Issue 2.5'].number).toBe(2);
    expect(books['Issue 2.5'].numberSort).toBe(2.5);
    const komga = await fetchAs(`/komga/api/v1/series/${seriesId}/books?sort=metadata.numberSort,asc`, auth);
    expect(JSON.parse(komga.text).content.map((b: any) => [b.metadata.number, b.metadata.numberSort])).toEqual([
      ['2', 2],
      ['2.5', 2.5],
      ['3', 3],
    ]);
  });

  it('OPDS 2 publications list their reading manifest before self; the first manifest-typed link reads the book', async () => {
    const { auth, books } = await seed();
    const feed = await json(`/opds/v2.0/libraries/${books['Issue 2'].libraryId}/books`, auth);
    for (const publication of feed.publications) {
      const firstManifest = publication.links.find((l: any) => MANIFEST_TYPES.has(l.type));
      const selfAt = publication.links.findIndex((l: any) => l.rel === 'self');
      expect(publication.links.indexOf(firstManifest)).toBeLessThan(selfAt);
      if (publication.metadata.title === 'Plain Text') {
        expect(firstManifest).toMatchObject({ rel: 'http://opds-spec.org/acquisition', type: 'application/epub+zip' });
      } else {
        expect(firstManifest).toMatchObject({ rel: 'alternate', type: 'application/divina+json' });
        const manifest = await json(firstManifest.href, auth);
        expect(manifest.readingOrder).toHaveLength(publication.metadata.numberOfPages);
        expect((await fetchAs(manifest.readingOrder[0].href, auth)).status).toBe(200);
      }
    }
  });

  it('people keep their roles: Atom author for the writer, contributors for the rest; OPDS 2 role keys', async () => {
    const { auth, books } = await seed();
    const credits = books.Everyone;
    const v2 = await json(`/opds/v2.0/books/${credits.id}`, auth);
    expect(v2.metadata).toMatchObject({
      author: [{ name: 'Wanda Writer' }],
      penciler: [{ name: 'Pete Penciller' }],
      inker: [{ name: 'Ingrid Inker' }],
      colorist: [{ name: 'Carl Colorist' }],
      letterer: [{ name: 'Lena Letterer' }],
      editor: [{ name: 'Ed Editor' }],
      contributor: [{ name: 'Cora Cover', role: 'cover' }],
    });
    const v1 = await fetchAs(`/opds/v1.2/series/${credits.seriesId}`, auth);
    const entry = entries(v1.text)[0] ?? '';
    const names = (element: string) =>
      [...entry.matchAll(new RegExp(`<${element}>\\s*<name>([^<]*)</name>`, 'g'))].map((m) => m[1]);
    expect(names('author')).toEqual(['Wanda Writer']);
    expect(names('contributor').sort()).toEqual(
      ['Carl Colorist', 'Cora Cover', 'Ed Editor', 'Ingrid Inker', 'Lena Letterer', 'Pete Penciller'].sort(),
    );
  });

  it('a book without a cover: no cover link in OPDS 1.2 (its URL answers 404), a generated PNG in OPDS 2.0', async () => {
    const { auth, books } = await seed();
    const plain = books['Plain Text'];
    expect((await fetchAs(`/opds/v2.0/books/${plain.id}/thumbnail`, auth)).status).toBe(404);
    // Issue 31 point 14: OPDS 2 parsers in use reject a publication without images.
    const publication = await json(`/opds/v2.0/books/${plain.id}`, auth);
    expect(publication.images).toEqual([
      { href: 'http://longbox.test/opds/v2.0/placeholders/epub', type: 'image/png', width: 400, height: 600 },
    ]);
    const placeholder = await fetchAs(publication.images[0].href, auth);
    expect([placeholder.status, placeholder.headers.get('Content-Type')]).toEqual([200, 'image/png']);
    expect(imageSize(placeholder.bytes)).toEqual({ width: 400, height: 600 });
    const etag = placeholder.headers.get('ETag') as string;
    const again = await fetchAs(publication.images[0].href, auth, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect((await fetchAs('/opds/v2.0/placeholders/mobi', auth)).status).toBe(404);
    const v1 = await fetchAs(`/opds/v1.2/series/${plain.seriesId}`, auth);
    expect(links(entries(v1.text)[0] ?? '').map((l) => l.rel)).not.toContain('http://opds-spec.org/image');
    const comic = await json(`/opds/v2.0/books/${books['Issue 2'].id}`, auth);
    expect(comic.images).toEqual([expect.objectContaining({ rel: 'cover', type: 'image/jpeg' })]);
    const cover = await fetchAs(comic.images[0].href, auth);
    expect(cover.status).toBe(200);
    expect(cover.headers.get('Content-Type')).toBe('image/jpeg');
  });

  it('a series without a cover has no cover link in any feed that lists it; a series with one keeps it', async () => {
    const { auth, libraryId, books } = await seed();
    const plain = books['Plain Text'].seriesId;
    const saga = books['Issue 2'].seriesId;
    const collection = await api('/collections', { auth, json: { name: 'Both', seriesIds: [plain, saga] } });
    expect(collection.status).toBe(201);
    expect((await api('/want-to-read', { auth, json: { seriesId: plain } })).status).toBe(201);
    expect((await api('/want-to-read', { auth, json: { seriesId: saga } })).status).toBe(201);
    expect((await fetchAs(`/opds/v1.2/series/${plain}/thumbnail`, auth)).status).toBe(404);
    const imageRels = (feed: string, title: string) =>
      links(entryTitled(feed, title))
        .filter((l) => l.rel.startsWith('http://opds-spec.org/image'))
        .map((l) => [l.rel, l.type]);
    const withCover = [
      ['http://opds-spec.org/image', 'image/jpeg'],
      ['http://opds-spec.org/image/thumbnail', 'image/jpeg'],
    ];
    for (const path of [
      `libraries/${libraryId}`,
      'series',
      'search/series?query=Plain',
      'search/series?query=Saga',
      `collections/${collection.body.id}`,
      'want-to-read',
    ]) {
      const feed = (await fetchAs(`/opds/v1.2/${path}`, auth)).text;
      if (!path.endsWith('Saga')) expect(imageRels(feed, 'Plain'), path).toEqual([]);
      if (!path.endsWith('Plain')) expect(imageRels(feed, 'Saga'), path).toEqual(withCover);
    }
    const cover = await fetchAs(`/opds/v1.2/series/${saga}/thumbnail`, auth);
    expect([cover.status, cover.headers.get('Content-Type')]).toEqual([200, 'image/jpeg']);
  });

  it('every image link of every feed (1.2 and 2.0) answers 200 with the media type it declares', async () => {
    const { auth, books } = await seed();
    const plain = books['Plain Text'];
    const comic = books['Issue 2'];
    expect(
      (await api('/collections', { auth, json: { name: 'Both', seriesIds: [plain.seriesId, comic.seriesId] } })).status,
    ).toBe(201);
    expect((await api('/readlists', { auth, json: { name: 'Order', bookIds: [plain.id, comic.id] } })).status).toBe(
      201,
    );
    expect((await api('/want-to-read', { auth, json: { seriesId: plain.seriesId } })).status).toBe(201);
    expect((await api('/want-to-read', { auth, json: { bookId: comic.id } })).status).toBe(201);
    const declared = new Map<string, string>();
    const visited = new Set<string>();
    const queue = ['http://longbox.test/opds/v1.2/catalog', 'http://longbox.test/opds/v2.0/catalog'];
    const follow = (href: string) => {
      if (!href.includes('{') && !visited.has(href) && href.includes('/opds/')) queue.push(href);
    };
    const declare = (href: string, type: string, where: string) => {
      expect(type, `${href} in ${where}`).toMatch(/^image\//);
      declared.set(href, type);
    };
    while (queue.length > 0 && visited.size < 80) {
      const url = queue.shift() as string;
      if (visited.has(url)) continue;
      visited.add(url);
      const res = await fetchAs(url, auth);
      expect(res.status, url).toBe(200);
      if (url.includes('/opds/v1.2/')) {
        for (const link of links(res.text)) {
          if (link.rel.startsWith('http://opds-spec.org/image')) declare(link.href, link.type ?? '', url);
          else if (link.type?.startsWith('application/atom+xml') && link.rel !== 'search') follow(link.href);
        }
      } else {
        const doc = JSON.parse(res.text);
        for (const link of [...(doc.links ?? []), ...(doc.navigation ?? [])]) {
          if (link.type === 'application/opds+json' && !link.templated) follow(link.href);
        }
        for (const publication of doc.publications ?? []) {
          for (const image of publication.images ?? []) declare(image.href, image.type, url);
          for (const link of publication.links) if (link.type === 'application/divina+json') follow(link.href);
        }
        for (const link of [...(doc.readingOrder ?? []), ...(doc.resources ?? [])]) declare(link.href, link.type, url);
      }
    }
    expect(queue, 'the walk ended before every feed was seen').toEqual([]);
    // The walk reached the lists and both kinds of series, and found covers and pages to check.
    for (const feed of ['collections/', 'readlists/', 'want-to-read', `series/${plain.seriesId}`]) {
      expect([...visited].some((u) => u.includes(`/opds/v1.2/${feed}`))).toBe(true);
      expect([...visited].some((u) => u.includes(`/opds/v2.0/${feed}`))).toBe(true);
    }
    expect([...declared.keys()].filter((href) => href.endsWith('/thumbnail')).length).toBeGreaterThan(6);
    expect([...declared.keys()].some((href) => href.includes(plain.seriesId) || href.includes(plain.id))).toBe(false);
    for (const [href, type] of declared) {
      const res = await fetchAs(href, auth);
      expect([res.status, res.headers.get('Content-Type')], href).toEqual([200, type]);
    }
  });

  it("a library feed's count matches what its pages hold, the 'All books' entry included", async () => {
    const { auth, libraryId } = await seed();
    const pages = [1, 2].map((page) => `/opds/v1.2/libraries/${libraryId}?pageSize=2&page=${page}`);
    const held: string[] = [];
    for (const path of pages) {
      const feed = await fetchAs(path, auth);
      const titles = entries(feed.text).map((e) => textOf(e, 'title') ?? '');
      expect(titles.length).toBeLessThanOrEqual(2);
      held.push(...titles);
      expect(textOf(feedHead(feed.text), 'opensearch:totalResults')).toBe('6');
    }
    expect(held).toEqual(['All books in Shelf', 'Credits', 'Odd', 'Plain']);
    const v2 = await json(`/opds/v2.0/libraries/${libraryId}?pageSize=2`, auth);
    expect(v2.metadata.numberOfItems).toBe(6);
    expect(v2.navigation).toHaveLength(2);
  });

  it('page media types come from the bytes: a JPEG named .png is a JPEG, a PPM named .png is a PPM', async () => {
    const { auth, books } = await seed();
    const odd = books['Odd 1'];
    const pages = await api(`/books/${odd.id}/pages`, { auth });
    expect(pages.body.map((p: any) => [p.fileName, p.mediaType, p.width, p.height])).toEqual([
      ['1.png', 'image/jpeg', 30, 20],
      ['2.png', 'image/x-portable-pixmap', 7, 5],
    ]);
    const first = await fetchAs(`/opds/v2.0/books/${odd.id}/pages/1`, auth);
    expect(first.headers.get('Content-Type')).toBe('image/jpeg');
    const second = await fetchAs(`/api/v1/books/${odd.id}/pages/2`, auth);
    expect(second.headers.get('Content-Type')).toBe('image/x-portable-pixmap');
    const manifest = await json(`/opds/v2.0/books/${odd.id}/manifest`, auth);
    // Not every page is a type OPDS readers decode: the links ask for JPEG and say so; the renderer
    // converts the PPM too (issue 31 point 16).
    expect(manifest.readingOrder.map((l: any) => l.type)).toEqual(['image/jpeg', 'image/jpeg']);
    for (const link of manifest.readingOrder) {
      expect(link.href).toContain('format=jpeg');
      const page = await fetchAs(link.href, auth);
      expect([page.status, page.headers.get('Content-Type')]).toEqual([200, 'image/jpeg']);
    }
  });

  it('a rendered PDF page is served at the size its page list, DiViNa manifest and OPDS 2 link declare', async () => {
    const { auth, books } = await seed();
    const report = books['A4 Report'];
    const [listed] = (await api(`/books/${report.id}/pages`, { auth })).body;
    // 595.3 × 841.9 pt at 2000 px on the long side: 1414.2… → 1414 (rounding the points first gave 1413).
    expect([listed.width, listed.height]).toEqual([1414, 2000]);
    const manifest = await json(`/opds/v2.0/books/${report.id}/manifest`, auth);
    expect([manifest.readingOrder[0].width, manifest.readingOrder[0].height]).toEqual([1414, 2000]);
    const served = await fetchAs(`/api/v1/books/${report.id}/pages/1`, auth);
    expect(served.status).toBe(200);
    expect(imageSize(served.bytes)).toEqual({ width: 1414, height: 2000 });
  });
});

describe('a comic of Netpbm pages (issue 31 point 16)', () => {
  /** A P6 page: the top half one colour, the bottom another. */
  const ppm = (width: number, height: number, top: number[], bottom: number[]) => {
    const head = new TextEncoder().encode(`P6\n# scanned\n${width} ${height}\n255\n`);
    const pixels = Array.from({ length: width * height }, (_, i) => (i < (width * height) / 2 ? top : bottom)).flat();
    return new Uint8Array([...head, ...pixels]);
  };

  it('streams through OPDS-PSE, the DiViNa manifest and the API as JPEG, and has a cover', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth, { name: 'Scans', path: 'scans' });
    // A CBR as an old scanning tool wrote it: PPM pages, one of them named .jpg.
    await putObject(
      'scans/Old Scans/Old Scans 1.cbr',
      writeRar5([
        { name: '01.ppm', data: ppm(40, 60, [200, 30, 30], [30, 30, 200]) },
        { name: '02.ppm', data: ppm(40, 60, [30, 200, 30], [250, 250, 250]) },
        { name: '03.jpg', data: ppm(60, 40, [10, 10, 10], [240, 240, 240]) },
      ]),
    );
    const done = await scan(auth, libraryId);
    await waitForTasks(auth, libraryId, { since: done.completedAt ?? '' });
    const [book] = (await api(`/books?library_id=${libraryId}`, { auth })).body.data as any[];
    expect(book).toMatchObject({ fileFormat: 'cbr', pageCount: 3, analysisError: null });
    const pages = (await api(`/books/${book.id}/pages`, { auth })).body;
    expect(pages.map((p: any) => [p.mediaType, p.width, p.height])).toEqual([
      ['image/x-portable-pixmap', 40, 60],
      ['image/x-portable-pixmap', 40, 60],
      ['image/x-portable-pixmap', 60, 40],
    ]);

    // OPDS 1.2: the stream link asks for JPEG and every page answers one, at the width asked for.
    const feed = await fetchAs(`/opds/v1.2/series/${book.seriesId}`, auth);
    const stream = links(entries(feed.text)[0]!).find((l) => l.rel === PSE_REL)!;
    expect(stream.type).toBe('image/jpeg');
    expect(stream.href).toContain('format=jpeg');
    for (const [index, size] of [
      [0, { width: 20, height: 30 }],
      [1, { width: 20, height: 30 }],
      [2, { width: 20, height: 13 }],
    ] as const) {
      const page = await fetchAs(streamUrl(stream.href, index, 20), auth);
      expect([index, page.status, page.headers.get('Content-Type')]).toEqual([index, 200, 'image/jpeg']);
      expect(imageSize(page.bytes)).toEqual(size);
    }
    // OPDS 2: every reading-order link answers the JPEG it declares.
    const manifest = await json(`/opds/v2.0/books/${book.id}/manifest`, auth);
    for (const link of manifest.readingOrder) {
      expect(link.type).toBe('image/jpeg');
      const page = await fetchAs(link.href, auth);
      expect([page.status, page.headers.get('Content-Type')]).toEqual([200, 'image/jpeg']);
    }
    // The web reader asks for a width: a JPEG it can draw. The cover is made from the first page.
    const sized = await fetchAs(`/api/v1/books/${book.id}/pages/1?width=20`, auth);
    expect([sized.status, sized.headers.get('Content-Type')]).toEqual([200, 'image/jpeg']);
    const cover = await fetchAs(`/api/v1/books/${book.id}/thumbnail`, auth);
    expect([cover.status, cover.headers.get('Content-Type')]).toEqual([200, 'image/jpeg']);
  });
});
