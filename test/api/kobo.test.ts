/**
 * Kobo e-readers (issue 34; DECISIONS.md §Kobo e-readers): a simulated device (test/support/kobo-device.ts)
 * calls what the firmware calls — initialization, sign-in, library sync page by page, metadata, the download,
 * a reading-state PUT, sync again — against the real worker, with books scanned from generated files.
 */
import { describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { writeRar4 } from '../fixtures/rar-writer';
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
