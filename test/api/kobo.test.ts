/**
 * Kobo e-readers (issue 34; DECISIONS.md §Kobo e-readers): a simulated device (test/support/kobo-device.ts)
 * calls what the firmware calls — initialization, sign-in, library sync page by page, metadata, the download,
 * a reading-state PUT, sync again — against the real worker, with books scanned from generated files.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { readingStatistics } from '../../src/db/schema';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg, png, webpHeader } from '../fixtures/images';
import { writeRar4, writeRar5 } from '../fixtures/rar-writer';
import { db } from '../support/catalog-factory';
import { buildZip } from '../fixtures/zip-writer';
import { createApiKey, createUser, setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { KoboDevice } from '../support/kobo-device';
import { putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const comicPages = (count: number, seed: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: `${String(i + 1).padStart(3, '0')}.jpg`,
    data: jpeg(64, 96, { seed: seed + i }),
  }));

/** A library of one EPUB, one CBZ (stored and deflated pages) and one CBR, scanned, with a reader and their Kobo key. */
async function seed() {
  const { auth: admin } = await setupAdmin();
  const libraryId = await createLibrary(admin);
  await putObject(
    'comics/Novels/Dune.epub',
    buildEpub({
      spine: [
        { kind: 'text', bytes: 4000 },
        { kind: 'text', bytes: 4000 },
      ],
      metadataXml: '<dc:title>Dune</dc:title><dc:creator>Frank Herbert</dc:creator><dc:language>en</dc:language>',
    }),
  );
  const cbz = comicPages(5, 1).map((page, i) => ({
    ...page,
    method: i % 2 ? ('deflate' as const) : ('store' as const),
  }));
  await putObject('comics/Saga/Saga 001.cbz', buildZip(cbz));
  await putObject('comics/Monstress/Monstress 001.cbr', writeRar4(comicPages(4, 20)));
  const done = await scan(admin, libraryId);
  await waitForTasks(admin, libraryId, { since: done.completedAt ?? '' });
  const listed = await api(`/books?library_id=${libraryId}&pageSize=100`, { auth: admin });
  const books = Object.fromEntries(listed.body.data.map((b: { title: string }) => [b.title, b])) as Record<
    string,
    { id: string; pageCount: number; fileFormat: string }
  >;
  const user = await createUser(admin, { role: 'reader' });
  const reader: Credentials = { basic: user };
  const key = await createApiKey(reader, { name: 'Kobo Libra Colour' });
  return { admin, libraryId, books, user, reader, key };
}

describe('a Kobo syncs the library (issue 34)', () => {
  it('connects, syncs every book, downloads an EPUB and a comic as an EPUB, and trades reading states', async () => {
    const { books, reader, key } = await seed();
    const device = new KoboDevice(key.key);
    await device.connect();
    expect(device.resources.image_url_template).toBe(
      `http://longbox.test/kobo/${key.key}/v1/books/{ImageId}/thumbnail/{Width}/{Height}/false/image.jpg`,
    );
    // Kobo's annotation service stays Kobo's: Longbox never answers a device's highlights.
    expect(device.resources.reading_services_host).toBe('https://readingservices.kobo.com');

    const first = await device.sync();
    expect(first.sent.sort()).toEqual(
      Object.values(books)
        .map((b) => b.id)
        .sort(),
    );
    const dune = device.books.get(books.Dune!.id)!;
    expect(dune.metadata).toMatchObject({ Title: 'Dune', Contributors: ['Frank Herbert'], Language: 'en' });
    expect(dune.metadata.DownloadUrls[0]).toMatchObject({ Format: 'EPUB3' });
    expect(dune.state?.StatusInfo.Status).toBe('ReadyToRead');
    const saga = device.books.get(books['Saga 001']!.id)!;
    expect(saga.metadata.DownloadUrls[0]).toMatchObject({ Format: 'EPUB3FL' });

    // The comic downloads as a fixed-layout EPUB of exactly the announced size, its pages the archive's own bytes.
    const download = await device.download(books['Saga 001']!.id);
    expect(download.response.status).toBe(200);
    expect(download.response.headers.get('Content-Type')).toBe('application/epub+zip');
    expect(download.bytes.length).toBe(saga.metadata.DownloadUrls[0]!.Size);
    expect(Number(download.response.headers.get('Content-Length'))).toBe(download.bytes.length);
    const files = unzipSync(download.bytes);
    expect(Object.keys(files)[0]).toBe('mimetype');
    expect(new TextDecoder().decode(files['OEBPS/content.opf'])).toContain('rendition:layout">pre-paginated');
    expect(files['OEBPS/images/page-0003.jpg']).toEqual(comicPages(5, 1)[2]!.data);

    const epub = await device.download(books.Dune!.id);
    expect(epub.response.status).toBe(200);
    expect(epub.bytes.length).toBe(dune.metadata.DownloadUrls[0]!.Size);

    // The device reads page 4 of the comic: the API shows it.
    const put = await device.putState(books['Saga 001']!.id, {
      status: 'Reading',
      progressPercent: 80,
      contentSourceProgressPercent: 0,
      location: { Value: null, Type: 'KoboSpan', Source: 'OEBPS/page-0004.xhtml' },
      spentReadingMinutes: 12,
    });
    expect(put.status).toBe(200);
    expect(put.body.RequestResult).toBe('Success');
    const progress = await api(`/books/${books['Saga 001']!.id}/progress`, { auth: reader });
    expect(progress.body).toMatchObject({ currentPage: 4, completed: false });

    // Progress made through the API reaches the device on its next sync, and only that.
    await api(`/books/${books.Dune!.id}/progress`, {
      method: 'PUT',
      auth: reader,
      json: { current_page: 1, is_completed: false, progress_percentage: 0.25 },
    });
    const second = await device.sync();
    expect(second.sent).toEqual([]);
    expect(second.states).toEqual([books.Dune!.id]);
    expect(device.books.get(books.Dune!.id)?.state?.CurrentBookmark.ProgressPercent).toBe(25);
    expect(device.books.get(books.Dune!.id)?.state?.StatusInfo.Status).toBe('Reading');
  });
});

describe('a Kobo and the books it is sent', () => {
  it('gets a comic’s EPUB as ranges that join into the whole, a 304 for the copy it has, and HEAD without a body', async () => {
    const { books, key } = await seed();
    const device = new KoboDevice(key.key);
    await device.sync();
    const id = books['Monstress 001']!.id;
    const whole = await device.download(id);
    expect(whole.response.status).toBe(200);
    const etag = whole.response.headers.get('ETag') as string;
    const size = whole.bytes.length;
    // The RAR's stored pages, copied as they are.
    expect(unzipSync(whole.bytes)['OEBPS/images/page-0002.jpg']).toEqual(comicPages(4, 20)[1]!.data);
    const cuts = [0, 37, 1000, Math.floor(size / 2), size - 23, size];
    const parts: Uint8Array[] = [];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const part = await device.download(id, { Range: `bytes=${cuts[i]}-${(cuts[i + 1] as number) - 1}` });
      expect(part.response.status).toBe(206);
      expect(part.response.headers.get('Content-Range')).toBe(
        `bytes ${cuts[i]}-${(cuts[i + 1] as number) - 1}/${size}`,
      );
      parts.push(part.bytes);
    }
    expect(Buffer.concat(parts)).toEqual(Buffer.from(whole.bytes));
    const resumed = await device.download(id, { Range: `bytes=${size - 10}-`, 'If-Range': etag });
    expect(resumed.bytes).toEqual(whole.bytes.subarray(size - 10));
    expect((await device.download(id, { 'If-None-Match': etag })).response.status).toBe(304);
    expect((await device.download(id, { Range: `bytes=${size}-` })).response.status).toBe(416);
    const head = await device.call('HEAD', device.books.get(id)!.metadata.DownloadUrls[0]!.Url);
    expect(head.status).toBe(200);
    expect(head.headers.get('Content-Length')).toBe(String(size));
    expect(await head.text()).toBe('');
  });

  it('unpacks a compressed, solid RAR’s pages into the EPUB, and the pages read back as they were', async () => {
    const { auth: admin } = await setupAdmin();
    const libraryId = await createLibrary(admin);
    const pages = [png(40, 60, 1), png(40, 60, 2), png(40, 60, 3)];
    await putObject(
      'comics/Solid/Solid 001.cbr',
      writeRar5(
        pages.map((data, i) => ({ name: `${i + 1}.png`, data, literal: true, solid: i > 0 })),
        { solid: true },
      ),
    );
    const done = await scan(admin, libraryId);
    await waitForTasks(admin, libraryId, { since: done.completedAt ?? '' });
    const key = await createApiKey(admin, { name: 'Kobo' });
    const device = new KoboDevice(key.key);
    await device.sync();
    const [id] = [...device.books.keys()];
    const { response, bytes } = await device.download(id as string);
    expect(response.status).toBe(200);
    expect(bytes.length).toBe(device.books.get(id as string)!.metadata.DownloadUrls[0]!.Size);
    const files = unzipSync(bytes);
    expect([1, 2, 3].map((n) => files[`OEBPS/images/page-000${n}.png`])).toEqual(pages);
  });

  it('leaves out a damaged comic (its analysisError says why) and one whose pages an EPUB cannot hold', async () => {
    const { auth: admin } = await setupAdmin();
    const libraryId = await createLibrary(admin);
    const good = buildZip(comicPages(2, 1));
    await putObject('comics/Good/Good 001.cbz', good);
    await putObject('comics/Broken/Broken 001.cbz', good.subarray(0, good.length - 30));
    await putObject(
      'comics/Modern/Modern 001.cbz',
      buildZip([
        { name: '1.webp', data: webpHeader('VP8X', 40, 60) },
        { name: '2.webp', data: webpHeader('VP8X', 40, 60) },
      ]),
    );
    const done = await scan(admin, libraryId);
    await waitForTasks(admin, libraryId, { since: done.completedAt ?? '' });
    const listed = (await api(`/books?library_id=${libraryId}`, { auth: admin })).body.data as Array<{
      id: string;
      title: string;
      analysisError: string | null;
    }>;
    const byTitle = Object.fromEntries(listed.map((b) => [b.title, b]));
    expect(byTitle['Broken 001']?.analysisError).toBeTruthy();
    // Read without error: only its WebP pages keep it from a Kobo.
    expect(byTitle['Modern 001']?.analysisError).toBeNull();
    const key = await createApiKey(admin, { name: 'Kobo' });
    const device = new KoboDevice(key.key);
    const run = await device.sync();
    expect(run.sent).toEqual([byTitle['Good 001']?.id]);
    for (const title of ['Broken 001', 'Modern 001']) {
      const id = byTitle[title]?.id as string;
      expect((await device.json('GET', `/v1/library/${id}/metadata`)).status).toBe(404);
      expect((await device.call('GET', `/v1/books/${id}/file/epub`)).status).toBe(404);
    }
    // Nothing is sent again for them: an unchanged library stays empty.
    expect((await device.sync()).pages).toEqual([[]]);
  });

  it('reads and writes reading states: finished, unread, time spent; a state it cannot read is a 400', async () => {
    const { books, reader, key, user } = await seed();
    const device = new KoboDevice(key.key);
    await device.sync();
    const comic = books['Saga 001']!;
    const finished = await device.putState(comic.id, {
      status: 'Finished',
      spentReadingMinutes: 31,
      remainingTimeMinutes: 0,
    });
    expect(finished.body).toEqual({
      RequestResult: 'Success',
      UpdateResults: [
        {
          EntitlementId: comic.id,
          CurrentBookmarkResult: { Result: 'Success' },
          StatisticsResult: { Result: 'Success' },
          StatusInfoResult: { Result: 'Success' },
        },
      ],
    });
    expect((await api(`/books/${comic.id}/progress`, { auth: reader })).body).toMatchObject({
      currentPage: comic.pageCount,
      completed: true,
    });
    const state = await device.json('GET', `/v1/library/${comic.id}/state`);
    expect(state.status).toBe(200);
    expect(state.body[0].StatusInfo.Status).toBe('Finished');
    expect(
      await db
        .select({ minutes: readingStatistics.spentReadingMinutes, device: readingStatistics.deviceName })
        .from(readingStatistics)
        .where(eq(readingStatistics.userId, user.id)),
    ).toEqual([{ minutes: 31, device: 'Kobo Libra Colour' }]);

    // Marked unread on the device: the progress is gone.
    expect((await device.putState(comic.id, { status: 'ReadyToRead', progressPercent: 0 })).status).toBe(200);
    expect((await api(`/books/${comic.id}/progress`, { auth: reader })).status).toBe(404);

    for (const body of [
      {},
      { ReadingStates: [] },
      { ReadingStates: [{ CurrentBookmark: { ProgressPercent: 'half' } }] },
    ]) {
      const refused = await device.json('PUT', `/v1/library/${comic.id}/state`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('BadRequest');
    }
    const notJson = await device.call('PUT', `/v1/library/${comic.id}/state`, { headers: {}, body: undefined });
    expect(notJson.status).toBe(400);
  });

  it('answers covers at the sizes the device asks, and everything else it calls with an empty object', async () => {
    const { books, key } = await seed();
    const device = new KoboDevice(key.key);
    await device.connect();
    await device.sync();
    const saga = device.books.get(books['Saga 001']!.id)!;
    const url = device.resources
      .image_url_quality_template!.replace('{ImageId}', saga.metadata.CoverImageId)
      .replace('{Width}', '40')
      .replace('{Height}', '50')
      .replace('{Quality}', '85')
      .replace('{IsGreyscale}', 'true');
    const cover = await device.call('GET', url);
    expect(cover.status).toBe(200);
    expect(cover.headers.get('Content-Type')).toBe('image/jpeg');
    const bytes = new Uint8Array(await cover.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    const again = await device.call('GET', url, { headers: { 'If-None-Match': cover.headers.get('ETag') as string } });
    expect(again.status).toBe(304);
    // Asked again without its copy: the sized cover made the first time, the same bytes under the same ETag.
    const kept = await device.call('GET', url);
    expect(kept.status).toBe(200);
    expect(kept.headers.get('ETag')).toBe(cover.headers.get('ETag'));
    expect(new Uint8Array(await kept.arrayBuffer())).toEqual(bytes);

    for (const [method, path] of [
      ['GET', '/v1/user/profile'],
      ['GET', '/v1/user/loyalty/benefits'],
      ['POST', '/v1/analytics/gettests'],
      ['GET', '/v1/assets?DiffRequests=[%7BKey:EPD-KoboPlus-ReadOnly-NeverSubscribed,ETag:%7D]'],
      ['POST', '/v1/library/tags'],
      ['DELETE', `/v1/library/${books.Dune!.id}`],
    ] as const) {
      const answer = await device.json(method, path, method === 'GET' ? undefined : {});
      expect(answer.status, path).toBe(200);
      expect(answer.body, path).toEqual({});
    }
    // The device's library is untouched by its own delete: Longbox never deletes a book for a device.
    expect((await api(`/books/${books.Dune!.id}`, { auth: { apiKey: key.key } })).status).toBe(200);
  });
});
