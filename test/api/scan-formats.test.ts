/**
 * Issue 3 through HTTP for every format: a library of generated CBZ (stored and deflated, ComicInfo),
 * CBR (RAR4 and RAR5), EPUB (fixed-layout and reflowable, calibre and EPUB 3 series) and PDF files is
 * scanned, then the background tasks complete what the scan deferred (hashes, page dimensions).
 */
import { env } from 'cloudflare:test';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { comicInfoXml } from '../fixtures/comic-info';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { buildPdf } from '../fixtures/pdf-writer';
import { writeRar4, writeRar5 } from '../fixtures/rar-writer';
import { setupAdmin } from '../support/factories';
import { hex, koreaderHash } from '../support/hashes';
import { api } from '../support/http';
import { pngPage } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

async function pages(n: number, size: [number, number]) {
  return Promise.all(Array.from({ length: n }, (_, i) => pngPage(size[0], size[1], [i * 50, 90, 160])));
}

/** Every generated file, keyed by its R2 key, with what the API must say about it. */
async function libraryFiles() {
  const [saga1Pages, saga2Pages, rarPages] = await Promise.all([
    pages(3, [60, 90]),
    pages(2, [80, 120]),
    pages(3, [64, 96]),
  ]);
  const stored = zipSync(
    {
      ...Object.fromEntries(saga1Pages.map((p, i) => [`${i + 1}.png`, p])),
      // A large page, so the KOReader samples reach deep into the file (offsets up to 1024·4^4).
      '4.jpg': jpeg(100, 150, { padding: 300_000 }),
      'ComicInfo.xml': comicInfoXml({
        Series: 'Saga',
        Title: 'Chapter One',
        Number: '1',
        Volume: '1',
        Manga: 'YesAndRightToLeft',
        Summary: 'Where it starts.',
      }),
    },
    { level: 0 },
  );
  const deflated = zipSync(
    {
      ...Object.fromEntries(saga2Pages.map((p, i) => [`page${i + 1}.png`, p])),
      'ComicInfo.xml': comicInfoXml({ Series: 'Saga', Number: '2.5', Volume: '1', Manga: 'No' }),
    },
    { level: 6 },
  );
  const rar4 = writeRar4([
    ...rarPages.map((data, i) => ({ name: `Berserk/${String(i + 1).padStart(3, '0')}.png`, data })),
    { name: 'ComicInfo.xml', data: comicInfoXml({ Series: 'Berserk', Volume: '1', Manga: 'YesAndRightToLeft' }) },
  ]);
  const rar5 = writeRar5(rarPages.slice(0, 2).map((data, i) => ({ name: `p${i + 1}.png`, data })));
  const pictureBook = buildEpub({
    fixedLayout: true,
    spine: [
      { kind: 'wrapper', image: jpeg(120, 180, { seed: 1 }) },
      { kind: 'wrapper', image: jpeg(120, 180, { seed: 2 }) },
      { kind: 'image', image: jpeg(120, 180, { seed: 3 }) },
    ],
    metadataXml:
      '<dc:title>Tale of the Fox</dc:title><dc:creator>Ann Author</dc:creator>' +
      '<meta name="calibre:series" content="Tales"/><meta name="calibre:series_index" content="2"/>',
  });
  const novel = buildEpub({
    spine: [
      { kind: 'text', bytes: 3000 },
      { kind: 'text', bytes: 5000 },
    ],
    metadataXml:
      '<dc:title>Tale of the Owl</dc:title>' +
      '<meta property="belongs-to-collection" id="c1">Tales</meta>' +
      '<meta refines="#c1" property="collection-type">series</meta>' +
      '<meta refines="#c1" property="group-position">1</meta>',
  });
  const pdf = buildPdf(
    [
      { kind: 'jpeg', image: jpeg(200, 300, { seed: 4 }), width: 200, height: 300 },
      { kind: 'jpeg', image: jpeg(200, 300, { seed: 5 }), width: 200, height: 300 },
    ],
    { info: { Title: 'Field Notes' } },
  );
  const oneshot = zipSync({ 'a.png': (await pages(1, [50, 50]))[0] as Uint8Array }, { level: 0 });
  return {
    'formats/Saga/Saga 001.cbz': stored,
    'formats/Saga/Saga 002.cbz': deflated,
    'formats/Berserk/Berserk v01.cbr': rar4,
    'formats/Berserk/Berserk v02.cbr': rar5,
    'formats/Tale of the Fox.epub': pictureBook,
    'formats/Tale of the Owl.epub': novel,
    'formats/notes.pdf': pdf,
    'formats/Oneshot.cbz': oneshot,
  };
}

/** What the API must show for each file after the scan (API.md §2 Book). */
const EXPECTED: Record<string, Record<string, unknown>> = {
  'formats/Saga/Saga 001.cbz': {
    fileFormat: 'cbz',
    pageCount: 4,
    title: 'Chapter One',
    summary: 'Where it starts.',
    seriesName: 'Saga',
    number: 1,
    volume: 1,
    chapter: 1,
    readingDirection: 'rtl',
  },
  'formats/Saga/Saga 002.cbz': {
    fileFormat: 'cbz',
    pageCount: 2,
    title: 'Saga 002',
    seriesName: 'Saga',
    number: 2,
    volume: 1,
    chapter: 2.5,
    readingDirection: 'ltr',
  },
  'formats/Berserk/Berserk v01.cbr': {
    fileFormat: 'cbr',
    pageCount: 3,
    seriesName: 'Berserk',
    volume: 1,
    readingDirection: 'rtl',
  },
  'formats/Berserk/Berserk v02.cbr': { fileFormat: 'cbr', pageCount: 2, seriesName: 'Berserk', volume: 2 },
  'formats/Tale of the Fox.epub': {
    fileFormat: 'epub',
    pageCount: 3,
    title: 'Tale of the Fox',
    seriesName: 'Tales',
    number: 2,
  },
  // Reflowable: Readium positions, ceil(3000/1024) + ceil(5000/1024).
  'formats/Tale of the Owl.epub': {
    fileFormat: 'epub',
    pageCount: 8,
    title: 'Tale of the Owl',
    seriesName: 'Tales',
    number: 1,
  },
  'formats/notes.pdf': { fileFormat: 'pdf', pageCount: 2, title: 'Field Notes', seriesName: 'Field Notes' },
  'formats/Oneshot.cbz': { fileFormat: 'cbz', pageCount: 1, title: 'Oneshot', seriesName: 'Oneshot' },
};

describe('scanning every format (API.md §2 Book, §4 Scanning; DECISIONS.md §Books)', () => {
  it('reads each format, groups series, and completes hashes and page sizes in the background', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth, { name: 'Formats', path: 'formats' });
    const files = await libraryFiles();
    for (const [key, bytes] of Object.entries(files)) await env.LIBRARY.put(key, bytes);

    const result = await scan(auth, libraryId);
    expect(result).toMatchObject({ status: 'completed', filesTotal: 8, booksAdded: 8, errors: 0 });

    // Right after the scan the deferred work is still to do; the follow-up tasks were queued for it.
    const tasks = await waitForTasks(auth, libraryId);
    for (const type of ['hash_files', 'generate_thumbnails']) {
      expect(tasks.find((t) => t.type === type)?.status, type).toBe('completed');
    }

    const listed = await api(`/books?library_id=${libraryId}&pageSize=50`, { auth });
    expect(listed.status).toBe(200);
    const books = new Map<string, Record<string, any>>(listed.body.data.map((b: { path: string }) => [b.path, b]));
    expect([...books.keys()].sort()).toEqual(Object.keys(files).sort());

    type PageEntry = { number: number; fileName: string; width: number | null; height: number | null };
    const pagesOf = async (key: string) =>
      (await api(`/books/${books.get(key)?.id}/pages`, { auth })).body as PageEntry[];
    for (const [key, bytes] of Object.entries(files)) {
      const book = books.get(key) as Record<string, any>;
      expect.soft(book, key).toMatchObject({ ...EXPECTED[key], analysisError: null, analyzed: true, deleted: false });
      expect.soft(book.fileSize, key).toBe(bytes.length);
      expect.soft(book.fileHash, key).toBe(hex(await crypto.subtle.digest('SHA-256', bytes)));
      expect.soft(book.readerHash, key).toBe(koreaderHash(bytes));
      // Page sizes come from the page images (a reflowable EPUB has none: it counts positions, not images).
      const pages = await pagesOf(key);
      expect.soft(pages.length, key).toBe(key.endsWith('Owl.epub') ? 0 : EXPECTED[key]?.pageCount);
      for (const page of pages)
        expect.soft([page.width, page.height], `${key} page ${page.number}`).not.toContain(null);
    }
    expect((await pagesOf('formats/Saga/Saga 001.cbz')).map((p) => [p.fileName, p.width, p.height])).toEqual([
      ['1.png', 60, 90],
      ['2.png', 60, 90],
      ['3.png', 60, 90],
      ['4.jpg', 100, 150],
    ]);

    // Series: one per folder; root books are their own series unless their metadata names one.
    const series = await api(`/series?library_id=${libraryId}&sort=name&order=asc`, { auth });
    expect(series.body.data.map((s: { title: string; bookCount: number }) => [s.title, s.bookCount])).toEqual([
      ['Berserk', 2],
      ['Field Notes', 1],
      ['Oneshot', 1],
      ['Saga', 2],
      ['Tales', 2],
    ]);
    const tales = series.body.data.find((s: { title: string }) => s.title === 'Tales');
    const talesBooks = await api(`/series/${tales.id}/books?sort=number&order=asc`, { auth });
    expect(talesBooks.body.data.map((b: { title: string }) => b.title)).toEqual(['Tale of the Owl', 'Tale of the Fox']);
  });
});
