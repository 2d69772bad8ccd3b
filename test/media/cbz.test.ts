import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { analyzeBook, containerFor } from '../../src/media';
import { BookAnalysisError } from '../../src/media/errors';
import { comicInfoXml } from '../fixtures/comic-info';
import { jpeg, noise, png } from '../fixtures/images';
import { collect, r2Book } from '../fixtures/r2-book';
import { buildZip, type ZipFileSpec } from '../fixtures/zip-writer';

const cbz = containerFor('cbz');

async function analysisError(bytes: Uint8Array, key = 'books/bad.cbz'): Promise<BookAnalysisError> {
  const error = await analyzeBook('cbz', await r2Book(bytes, key)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BookAnalysisError);
  return error as BookAnalysisError;
}

describe('CBZ pages (DECISIONS.md §Books: image entries in natural order)', () => {
  it('lists image entries in natural order, skipping __MACOSX, dot files, thumbnails and non-images', async () => {
    const names = [
      '10.jpg',
      '2.jpg',
      'Cover.PNG',
      '1.jpg',
      '__MACOSX/._1.jpg',
      '.DS_Store',
      'ch1/.hidden.jpg',
      'Thumbs/1.jpg',
      'notes.txt',
      'sub/',
    ];
    const files: ZipFileSpec[] = names.map((name, i) => ({
      name,
      data: name.endsWith('/') ? new Uint8Array(0) : jpeg(8, 8, { seed: i }),
    }));
    const analysis = await analyzeBook('cbz', await r2Book(buildZip(files)));
    expect(analysis.pages.map((p) => p.fileName)).toEqual(['1.jpg', '2.jpg', '10.jpg', 'Cover.PNG']);
    expect(analysis.pages.map((p) => p.number)).toEqual([1, 2, 3, 4]);
    expect(analysis.pages[3]!.mediaType).toBe('image/png');
    expect(analysis.pageCount).toBe(4);
  });

  it('serves stored and deflated pages byte-identical to the original entries', async () => {
    const pages = [jpeg(64, 96, { seed: 1, padding: 200_000 }), png(40, 30), noise(150_000, 7)];
    const bytes = buildZip([
      { name: 'p1.jpg', data: pages[0]!, method: 'deflate' },
      { name: 'p2.png', data: pages[1]!, method: 'store' },
      { name: 'p3.webp', data: pages[2]!, method: 'deflate', dataDescriptor: true },
    ]);
    const reader = await r2Book(bytes);
    const analysis = await cbz.analyze(reader);
    const fromFflate = unzipSync(bytes);
    for (const [i, page] of analysis.pages.entries()) {
      const content = await cbz.openPage(reader, page.locator);
      const served = await collect(content.stream);
      expect(served).toEqual(pages[i]);
      expect(served).toEqual(fromFflate[page.fileName]);
      expect(content.size).toBe(pages[i]!.length);
    }
    // The frame header of p1 sits behind 200 KB of deflated metadata: found by inflating a window, not the page.
    expect(await cbz.readPageHeader(reader, analysis.pages[0]!.locator)).toEqual({
      width: 64,
      height: 96,
      mediaType: 'image/jpeg',
    });
    expect(await cbz.readPageHeader(reader, analysis.pages[1]!.locator)).toEqual({
      width: 40,
      height: 30,
      mediaType: 'image/png',
    });
  });

  it('reads the directory and one page with a small fraction of a large stored CBZ', async () => {
    const files = Array.from({ length: 40 }, (_, i) => ({
      name: `page${i + 1}.jpg`,
      data: jpeg(800, 1200, { seed: i, padding: 250_000 }),
    }));
    const bytes = buildZip(files);
    const reader = await r2Book(bytes);
    const analysis = await cbz.analyze(reader);
    expect(analysis.pageCount).toBe(40);
    expect(reader.stats.reads).toBeLessThanOrEqual(3);
    expect(reader.stats.bytes).toBeLessThan(bytes.length / 50);
    const before = reader.stats.bytes;
    const served = await collect((await cbz.openPage(reader, analysis.pages[20]!.locator)).stream);
    expect(served).toEqual(files[20]!.data);
    expect(reader.stats.bytes - before).toBeLessThan(files[20]!.data.length + 1024);
    expect(await cbz.readPageHeader(reader, analysis.pages[20]!.locator)).toEqual({
      width: 800,
      height: 1200,
      mediaType: 'image/jpeg',
    });
  });

  it('finds a local header longer than the central directory says and still serves the page', async () => {
    const data = jpeg(16, 16, { seed: 3 });
    const bytes = buildZip([{ name: 'a.jpg', data, localExtra: new Uint8Array(1000) }]);
    const reader = await r2Book(bytes);
    const [page] = (await cbz.analyze(reader)).pages;
    expect(await collect((await cbz.openPage(reader, page!.locator)).stream)).toEqual(data);
  });

  it('reads ZIP64 archives, archives with a self-extractor prefix, and CP437 names', async () => {
    const data = jpeg(24, 32, { seed: 9 });
    for (const options of [{ zip64: true }, { prefix: noise(5000, 1) }, { comment: 'scanned by someone' }]) {
      const bytes = buildZip(
        [
          { name: '2.jpg', data },
          { name: '1.jpg', data: png(4, 4), method: 'deflate' },
        ],
        options,
      );
      const reader = await r2Book(bytes);
      const analysis = await cbz.analyze(reader);
      expect(analysis.pages.map((p) => p.fileName)).toEqual(['1.jpg', '2.jpg']);
      expect(await collect((await cbz.openPage(reader, analysis.pages[1]!.locator)).stream)).toEqual(data);
    }
    const cp437 = buildZip([
      { name: '', rawName: Uint8Array.from([0x81, 0x62, 0x65, 0x72, 0x2e, 0x6a, 0x70, 0x67]), data },
    ]);
    expect((await cbz.analyze(await r2Book(cp437))).pages[0]!.fileName).toBe('über.jpg');
  });
});

describe('CBZ metadata from ComicInfo.xml (DECISIONS.md §Books)', () => {
  it('maps series, numbers, people, genres, tags, language, cover and manga direction', async () => {
    const info = comicInfoXml(
      {
        Title: 'The Long Night',
        Series: 'Night Watch',
        SeriesGroup: 'Watchers',
        Number: '12.5',
        Volume: '3',
        Summary: 'A & B go <out>.',
        Publisher: 'Longbox Press',
        Year: '2021',
        Writer: 'Ann Writer, Bob Writer',
        Penciller: 'Cy Pencil',
        CoverArtist: 'Dee Cover',
        Genre: 'Action, Drama',
        Tags: 'night,city',
        LanguageISO: 'ja',
        Manga: 'YesAndRightToLeft',
      },
      1,
    );
    const files = [
      { name: 'Night Watch/ComicInfo.xml', data: info, method: 'deflate' as const },
      { name: 'a.jpg', data: jpeg(8, 8) },
      { name: 'b.jpg', data: jpeg(8, 8, { seed: 2 }) },
    ];
    const { metadata, coverPage } = await analyzeBook('cbz', await r2Book(buildZip(files)));
    expect(metadata).toMatchObject({
      title: 'The Long Night',
      series: 'Night Watch',
      seriesGroup: 'Watchers',
      number: 12,
      chapter: 12.5,
      volume: 3,
      summary: 'A & B go <out>.',
      publisher: 'Longbox Press',
      year: 2021,
      genres: ['Action', 'Drama'],
      tags: ['night', 'city'],
      language: 'ja',
      readingDirection: 'rtl',
    });
    expect(metadata.authors).toEqual([
      { name: 'Ann Writer', role: 'writer' },
      { name: 'Bob Writer', role: 'writer' },
      { name: 'Cy Pencil', role: 'penciller' },
      { name: 'Dee Cover', role: 'cover' },
    ]);
    expect(coverPage).toBe(2);
  });

  it('reads every other ComicInfo field readers browse by (issue 18): people lists, release date, ISBN, links, format, imprint, count', async () => {
    const info = comicInfoXml({
      Series: 'Night Watch',
      Number: '4',
      Year: '2021',
      Month: '3',
      Day: '17',
      Imprint: 'Midnight Line',
      Characters: 'Ann Lantern, The Owl, Ann Lantern',
      Teams: 'Night Watch',
      Locations: 'Old Town, Harbour',
      // A hyphenated ISBN-13 with a valid check digit.
      GTIN: '978-0-306-40615-7',
      Format: 'TPB',
      Count: '12',
      Web: 'https://www.example.com/night-watch/4 https://wiki.example.org/Night_Watch not-a-url',
      Notes: 'Scanned by nobody',
    });
    const files = [
      { name: 'ComicInfo.xml', data: info },
      { name: 'a.jpg', data: jpeg(8, 8) },
    ];
    const { metadata } = await analyzeBook('cbz', await r2Book(buildZip(files)));
    expect(metadata).toMatchObject({
      year: 2021,
      month: 3,
      day: 17,
      imprint: 'Midnight Line',
      characters: ['Ann Lantern', 'The Owl'],
      teams: ['Night Watch'],
      locations: ['Old Town', 'Harbour'],
      isbn: '9780306406157',
      format: 'TPB',
      count: 12,
      links: [
        { label: 'example.com', url: 'https://www.example.com/night-watch/4' },
        { label: 'wiki.example.org', url: 'https://wiki.example.org/Night_Watch' },
      ],
    });
  });

  it('drops values that do not mean what the field says: a UPC is no ISBN, a month without a year, a negative count', async () => {
    const info = comicInfoXml({ GTIN: '075960614847', Month: '5', Day: '2', Count: '-3', Web: 'ftp://example.com/x' });
    const { metadata } = await analyzeBook(
      'cbz',
      await r2Book(
        buildZip([
          { name: 'ComicInfo.xml', data: info },
          { name: 'a.jpg', data: jpeg(8, 8) },
        ]),
      ),
    );
    expect([metadata.isbn, metadata.year, metadata.month, metadata.day, metadata.count, metadata.links]).toEqual([
      null,
      null,
      null,
      null,
      null,
      [],
    ]);
  });

  it('keeps the book readable when ComicInfo.xml is malformed, damaged or absent', async () => {
    const broken = new TextEncoder().encode('<ComicInfo><Title>Unclosed');
    for (const info of [broken, new Uint8Array([0xff, 0xfe, 0x00]), null]) {
      const files: ZipFileSpec[] = [{ name: 'a.jpg', data: jpeg(8, 8) }];
      if (info) files.push({ name: 'ComicInfo.xml', data: info });
      const analysis = await analyzeBook('cbz', await r2Book(buildZip(files)));
      expect(analysis.pageCount).toBe(1);
      expect(analysis.metadata.title).toBeNull();
    }
    // A whole-number Number gives the same chapter; nonsense gives neither.
    const plain = buildZip([
      { name: 'ComicInfo.xml', data: comicInfoXml({ Number: '7', Manga: 'Yes' }) },
      { name: 'a.jpg', data: jpeg(8, 8) },
    ]);
    const { metadata } = await analyzeBook('cbz', await r2Book(plain));
    expect([metadata.number, metadata.chapter, metadata.readingDirection]).toEqual([7, 7, null]);
  });
});

describe('CBZ analysis errors are plain words, not crashes (DECISIONS.md §Books)', () => {
  const page = jpeg(8, 8);

  it('reports an encrypted archive', async () => {
    const error = await analysisError(buildZip([{ name: 'a.jpg', data: page, encrypted: true }]));
    expect([error.code, error.message]).toEqual([
      'encrypted',
      'The archive is encrypted; Longbox cannot read password-protected files',
    ]);
  });

  it('reports unsupported compression methods by name', async () => {
    const error = await analysisError(buildZip([{ name: 'a.jpg', data: page, method: 12 }]));
    expect(error.code).toBe('unsupported_compression');
    expect(error.message).toBe(
      'Compression method bzip2 is not supported; repack the book as a standard CBZ (deflate)',
    );
    expect((await analysisError(buildZip([{ name: 'a.jpg', data: page, method: 98 }]))).message).toContain('PPMd');
  });

  it('reports a truncated archive', async () => {
    const bytes = buildZip([{ name: 'a.jpg', data: jpeg(64, 64, { padding: 5000 }) }]);
    const error = await analysisError(bytes.subarray(0, bytes.length - 40));
    expect(error.code).toBe('truncated');
    expect(error.message).toMatch(/^The file is truncated/);
  });

  it('reports a file that is not a ZIP, and names the real format when it knows it', async () => {
    const text = await analysisError(new TextEncoder().encode('<html>not a comic</html>'));
    expect([text.code, text.message]).toEqual([
      'format_mismatch',
      'The file is not a ZIP archive although it is named .cbz',
    ]);
    // The CBZ reader itself names the real format; analyzeBook reads such a file by content (below).
    const rarBytes = Uint8Array.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00, 0, 0, 0]);
    const rar = (await cbz
      .analyze(await r2Book(rarBytes, 'books/rar.cbz'))
      .catch((e: unknown) => e)) as BookAnalysisError;
    expect(rar.message).toBe(
      'The file is not a ZIP archive although it is named .cbz: it is a RAR archive; rename it to .cbr',
    );
    expect(rar.detectedFormat).toBe('cbr');
    expect((await analysisError(rarBytes)).message).toMatch(/^The RAR archive/);
    expect((await analysisError(new Uint8Array(0))).message).toBe('The file is empty');
  });

  it('reports an archive without image pages', async () => {
    const error = await analysisError(buildZip([{ name: 'readme.txt', data: new TextEncoder().encode('hi') }]));
    expect([error.code, error.message]).toEqual(['no_pages', 'The archive has no image pages']);
  });
});
