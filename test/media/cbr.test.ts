import { describe, expect, it } from 'vitest';
import { cbrContainer as cbr } from '../../src/media/cbr';
import { BookAnalysisError } from '../../src/media/errors';
import { chainWindow } from '../../src/media/rar/rar-extract';
import type { RarEntry } from '../../src/media/rar/rar-entry';
import { readRarIndex } from '../../src/media/rar/rar-index';
import { assertDecodable, planDecompression } from '../../src/media/rar/solid-plan';
import { unrarStats } from '../../src/media/rar/unrar-engine';
import { comicInfoXml } from '../fixtures/comic-info';
import { jpeg, noise, png } from '../fixtures/images';
import { collect, r2Book } from '../fixtures/r2-book';
import { type RarFixtureEntry, writeRar4, writeRar5 } from '../fixtures/rar-writer';

const WRITERS = { RAR4: writeRar4, RAR5: writeRar5 } as const;

async function analysisError(bytes: Uint8Array, key = 'books/bad.cbr'): Promise<BookAnalysisError> {
  const error = await cbr.analyze(await r2Book(bytes, key)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BookAnalysisError);
  return error as BookAnalysisError;
}

/** Byte offset of `needle` in `haystack` (to damage a fixture at a known place). */
function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

describe.each(Object.entries(WRITERS))(
  '%s stored CBR pages (DECISIONS.md §Books: image entries in natural order)',
  (format, write) => {
    const names = [
      '10.jpg',
      '2.jpg',
      'Cover.PNG',
      '1.jpg',
      '__MACOSX/._1.jpg',
      '.DS_Store',
      'ch/.hidden.jpg',
      'Thumbs/1.jpg',
      'notes.txt',
    ];
    const files: RarFixtureEntry[] = [
      ...names.map((name, i) => ({ name, data: name.endsWith('PNG') ? png(40, 30, i) : jpeg(16, 24, { seed: i }) })),
      { name: 'ch', directory: true },
    ];
    const key = `books/${format}.cbr`;

    it('lists image entries in natural order, skipping __MACOSX, dot files, thumbnails, directories and non-images', async () => {
      const analysis = await cbr.analyze(await r2Book(write(files), key));
      expect(analysis.format).toBe('cbr');
      expect(analysis.pages.map((p) => p.fileName)).toEqual(['1.jpg', '2.jpg', '10.jpg', 'Cover.PNG']);
      expect(analysis.pages.map((p) => p.number)).toEqual([1, 2, 3, 4]);
      expect(analysis.pages.map((p) => p.mediaType)).toEqual(['image/jpeg', 'image/jpeg', 'image/jpeg', 'image/png']);
      expect(analysis.pageCount).toBe(4);
      expect(analysis.containerIndex).toBeNull();
    });

    it('serves each page byte-identical with one range read and no header read', async () => {
      const reader = await r2Book(write(files), key);
      const analysis = await cbr.analyze(reader);
      for (const page of analysis.pages) {
        const original = files.find((f) => f.name === page.fileName)!.data!;
        const reads = reader.stats.reads;
        const content = await cbr.openPage(reader, page.locator, analysis.containerIndex);
        expect(await collect(content.stream)).toEqual(original);
        expect(content.size).toBe(original.length);
        expect(page.size).toBe(original.length);
        expect(reader.stats.reads - reads).toBe(1);
      }
      expect(await cbr.readPageHeader(reader, analysis.pages[0]!.locator, null)).toEqual({
        width: 16,
        height: 24,
        mediaType: 'image/jpeg',
      });
    });

    it('reads title, series, number and cover from ComicInfo.xml, and ignores a damaged one', async () => {
      const info = comicInfoXml({ Title: 'Night', Series: 'Watch', Number: '4.5', Writer: 'Ann' }, 1);
      const book = write([
        { name: 'b.jpg', data: jpeg(8, 8) },
        { name: 'ComicInfo.xml', data: info },
        { name: 'a.jpg', data: jpeg(8, 8, { seed: 1 }) },
      ]);
      const analysis = await cbr.analyze(await r2Book(book, key));
      expect(analysis.metadata).toMatchObject({ title: 'Night', series: 'Watch', number: 4, chapter: 4.5 });
      expect(analysis.metadata.authors).toEqual([{ name: 'Ann', role: 'writer' }]);
      expect(analysis.coverPage).toBe(2);

      // One flipped byte inside ComicInfo.xml: its CRC-32 no longer matches, so it is not trusted.
      const damaged = book.slice();
      damaged[indexOf(damaged, new TextEncoder().encode('<Title>Night')) + 8]! ^= 0x20;
      const fallback = await cbr.analyze(await r2Book(damaged, key));
      expect(fallback.pageCount).toBe(2);
      expect(fallback.metadata.title).toBeNull();
    });

    it('fails the page stream when a stored page no longer matches its CRC-32', async () => {
      const page = jpeg(32, 32, { seed: 5, padding: 100_000 });
      const book = write([{ name: '1.jpg', data: page }]);
      book[indexOf(book, page) + 50_000]! ^= 0xff;
      const reader = await r2Book(book, key);
      const analysis = await cbr.analyze(reader);
      const content = await cbr.openPage(reader, analysis.pages[0]!.locator, analysis.containerIndex);
      const error = await collect(content.stream).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BookAnalysisError);
      expect((error as BookAnalysisError).code).toBe('crc_mismatch');
      expect((error as BookAnalysisError).message).toBe('The entry 1.jpg is damaged (checksum mismatch)');
    });

    it('reports damaged headers, truncation, encryption, volumes and image-less archives in plain words', async () => {
      const book = write([
        { name: '1.jpg', data: jpeg(16, 16) },
        { name: '2.jpg', data: jpeg(16, 16, { seed: 2 }) },
      ]);
      const damaged = book.slice();
      damaged[indexOf(damaged, new TextEncoder().encode('2.jpg'))]! ^= 0x01;
      expect((await analysisError(damaged)).code).toBe('corrupt');
      expect((await analysisError(damaged)).message).toContain('headers are damaged');

      const truncated = await analysisError(book.subarray(0, book.length - 400));
      expect(truncated.code).toBe('truncated');
      expect(truncated.message).toBe('The RAR archive is truncated: it ends before the data its headers describe');

      const locked = await analysisError(write([{ name: '1.jpg', data: jpeg(8, 8), encrypted: true }]));
      expect(locked.code).toBe('encrypted');
      expect(locked.message).toBe('The RAR archive is password-protected; Longbox cannot read encrypted files');

      const volume = await analysisError(write([{ name: '1.jpg', data: jpeg(8, 8) }], { volume: true }));
      expect(volume.code).toBe('multi_volume');

      const empty = await analysisError(
        write([
          { name: 'readme.txt', data: noise(100, 1) },
          { name: 'd', directory: true },
        ]),
      );
      expect([empty.code, empty.message]).toEqual(['no_pages', 'The RAR archive has no image pages']);
    });

    it('finds the archive behind a self-extractor stub that itself contains the signature bytes', async () => {
      const stub = new Uint8Array(70_000);
      stub.set(new TextEncoder().encode('MZ fake exe ... Rar!\x1a\x07\x00 in a string table'), 100);
      const page = jpeg(8, 8, { seed: 3 });
      const reader = await r2Book(write([{ name: 'p.jpg', data: page }], { stub }), key);
      const analysis = await cbr.analyze(reader);
      expect(await collect((await cbr.openPage(reader, analysis.pages[0]!.locator, null)).stream)).toEqual(page);
    });
  },
);

describe('CBR header index (issue 3: RAR5 quick-open record, header walk)', () => {
  const pages = Array.from({ length: 20 }, (_, i) => ({
    name: `p${i + 1}.jpg`,
    data: jpeg(64, 64, { seed: i, padding: 40_000 }),
  }));

  it('lists a RAR5 archive from its quick-open record in three reads instead of one per header', async () => {
    const quick = await r2Book(writeRar5(pages, { quickOpen: true }), 'books/qo.cbr');
    const quickIndex = await readRarIndex(quick);
    expect(quickIndex.source).toBe('quick-open');
    expect(quick.stats.reads).toBeLessThanOrEqual(3);

    const walked = await r2Book(writeRar5(pages), 'books/walk.cbr');
    const walkedIndex = await readRarIndex(walked);
    expect(walkedIndex.source).toBe('header-walk');
    // One read for the signature, main and first file header, then one per further header and the end.
    expect(walked.stats.reads).toBe(pages.length + 1);

    // Same listing either way (the quick-open archive's main header is longer, so compare sizes, not offsets).
    const listing = (index: typeof quickIndex) => index.entries.map((e) => [e.name, e.packedSize, e.crc32]);
    expect(listing(quickIndex)).toEqual(listing(walkedIndex));
    expect(listing(quickIndex).map(([name]) => name)).toEqual(pages.map((p) => p.name));
    const analysis = await cbr.analyze(quick);
    const served = await collect((await cbr.openPage(quick, analysis.pages[9]!.locator, null)).stream);
    expect(served).toEqual(pages.find((p) => p.name === analysis.pages[9]!.fileName)!.data);
  });

  it('decodes RAR4 unicode file names', async () => {
    const book = writeRar4([{ name: 'Übermensch/第1話.jpg', data: jpeg(8, 8) }]);
    const analysis = await cbr.analyze(await r2Book(book, 'books/unicode.cbr'));
    expect(analysis.pages[0]!.fileName).toBe('Übermensch/第1話.jpg');
  });

  it('says which format a misnamed file really is', async () => {
    const error = await analysisError(new TextEncoder().encode('PK\x03\x04 this is a zip'));
    expect(error.code).toBe('format_mismatch');
    expect(error.message).toContain('it is a ZIP archive; rename it to .cbz');
  });

  it('refuses a locator that is not a RAR locator', async () => {
    const reader = await r2Book(writeRar5(pages.slice(0, 1)), 'books/one.cbr');
    const error = await cbr.openPage(reader, { kind: 'zip', offset: 0 }, null).catch((e: unknown) => e);
    expect((error as BookAnalysisError).code).toBe('page_not_found');
  });
});

describe('CBR compressed pages through unrar inside workerd (issue 3: synthetic single-entry archive)', () => {
  const a = jpeg(48, 40, { seed: 1, padding: 30_000 });
  const b = png(20, 10, 4);
  const c = jpeg(8, 8, { seed: 3 });

  it('decompresses non-solid entries with one range read of the packed data and no header read', async () => {
    const reader = await r2Book(
      writeRar5([
        { name: '1.jpg', data: a, literal: true },
        { name: '2.png', data: b, literal: true },
      ]),
      'books/packed.cbr',
    );
    const analysis = await cbr.analyze(reader);
    expect(analysis.containerIndex).toBeNull();
    for (const [page, original] of [
      [analysis.pages[0]!, a],
      [analysis.pages[1]!, b],
    ] as const) {
      const reads = reader.stats.reads;
      const content = await cbr.openPage(reader, page.locator, null);
      expect(await collect(content.stream)).toEqual(original);
      expect(content.size).toBe(original.length);
      expect(reader.stats.reads - reads).toBe(1);
    }
    expect(await cbr.readPageHeader(reader, analysis.pages[0]!.locator, null)).toEqual({
      width: 48,
      height: 40,
      mediaType: 'image/jpeg',
    });
  });

  it('decompresses a solid chain from the container index, reading each earlier packed entry once', async () => {
    const book = writeRar5(
      [
        { name: '1.jpg', data: a, literal: true },
        { name: 'ComicInfo.xml', data: comicInfoXml({ Title: 'Solid' }), literal: true, solid: true },
        { name: '2.png', data: b, literal: true, solid: true },
        { name: '3.jpg', data: c, literal: true, solid: true },
      ],
      { solid: true },
    );
    const reader = await r2Book(book, 'books/solid.cbr');
    const analysis = await cbr.analyze(reader);
    expect(analysis.metadata.title).toBe('Solid');
    expect(analysis.containerIndex).not.toBeNull();
    const reads = reader.stats.reads;
    const third = await cbr.openPage(reader, analysis.pages[2]!.locator, analysis.containerIndex);
    expect(await collect(third.stream)).toEqual(c);
    expect(reader.stats.reads - reads).toBe(4);
    const first = await cbr.openPage(reader, analysis.pages[0]!.locator, analysis.containerIndex);
    expect(await collect(first.stream)).toEqual(a);
    const stats = await unrarStats();
    expect(stats.instancesCreated).toBeGreaterThanOrEqual(1);
    expect(stats.peakHeapBytes).toBeLessThanOrEqual(48 * 1024 * 1024);
  });

  it('reports damaged packed data as a checksum error and recovers for the next page', async () => {
    const book = writeRar5([
      { name: '1.jpg', data: a, literal: true },
      { name: '2.png', data: b, literal: true },
    ]);
    book[indexOf(book, a.subarray(0, 64)) + 2000]! ^= 0x55;
    const reader = await r2Book(book, 'books/bad-packed.cbr');
    const analysis = await cbr.analyze(reader);
    const error = await cbr.openPage(reader, analysis.pages[0]!.locator, null).catch((e: unknown) => e);
    expect((error as BookAnalysisError).code).toBe('crc_mismatch');
    expect(await collect((await cbr.openPage(reader, analysis.pages[1]!.locator, null)).stream)).toEqual(b);
  });
});

describe('CBR memory limits (edge-feasibility §3: unrar allocates the whole declared dictionary)', () => {
  const MiB = 1024 * 1024;
  const solidBook = (pages: number, dictionary: number) =>
    writeRar5(
      Array.from({ length: pages }, (_, i) => ({
        name: `p${String(i + 1).padStart(2, '0')}.jpg`,
        data: noise(1.25 * MiB, i + 1),
        literal: true,
        solid: i > 0,
        dictionary,
      })),
      { solid: true },
    );

  it('declares to unrar only the window the output so far can reach', () => {
    const entry = { dataOffset: 0, packedSize: 1, crc32: null, method: 3, unpackVersion: 0, solid: false, hostOs: 0 };
    expect(chainWindow(5, [{ ...entry, unpackedSize: 3 * MiB, dictionarySize: 32 * MiB }])).toBe(4 * MiB);
    expect(chainWindow(5, [{ ...entry, unpackedSize: 100, dictionarySize: 32 * MiB }])).toBe(128 * 1024);
    const chain = Array.from({ length: 30 }, () => ({ ...entry, unpackedSize: 2 * MiB, dictionarySize: 32 * MiB }));
    expect(chainWindow(5, chain)).toBe(32 * MiB);
  });

  it('refuses entries the bundled unrar cannot decode, too large to hold, or behind too long a solid chain', () => {
    const entry = (name: string, over: Partial<RarEntry> = {}): RarEntry => ({
      name,
      headerOffset: 0,
      dataOffset: 0,
      packedSize: MiB,
      unpackedSize: MiB,
      crc32: 0,
      method: 3,
      unpackVersion: 0,
      dictionarySize: 4 * MiB,
      solid: false,
      directory: false,
      encrypted: false,
      split: false,
      redirect: false,
      hostOs: 0,
      ...over,
    });
    const reason = (entries: RarEntry[]) => {
      const plan = planDecompression({ format: 5, signatureOffset: 0, solid: true, entries, source: 'header-walk' });
      try {
        assertDecodable(plan, entries[entries.length - 1]!);
        return null;
      } catch (error) {
        return (error as BookAnalysisError).code;
      }
    };
    expect(reason([entry('ok.jpg')])).toBeNull();
    expect(reason([entry('rar7.jpg', { unpackVersion: 1 })])).toBe('unsupported_compression');
    expect(reason([entry('v1.jpg', { unpackVersion: 1 }), entry('next.jpg', { solid: true })])).toBe(
      'unsupported_compression',
    );
    expect(reason([entry('huge.jpg', { unpackedSize: 40 * MiB, dictionarySize: 64 * MiB })])).toBe('too_large');
    const long = Array.from({ length: 210 }, (_, i) => entry(`${i}.jpg`, { solid: i > 0, dictionarySize: 128 * 1024 }));
    expect(reason(long)).toBe('too_large');
    expect(reason(long.slice(0, 150))).toBeNull();
  });

  it('reads the last page of a 30 MiB solid RAR5 with a 32 MiB dictionary within a 48 MiB wasm heap', async () => {
    const reader = await r2Book(solidBook(24, 32 * MiB), 'books/solid-32m.cbr');
    const analysis = await cbr.analyze(reader);
    expect(analysis.pageCount).toBe(24);
    const last = await cbr.openPage(reader, analysis.pages[23]!.locator, analysis.containerIndex);
    expect(await collect(last.stream)).toEqual(noise(1.25 * MiB, 24));
    const { peakHeapBytes } = await unrarStats();
    expect(peakHeapBytes).toBeGreaterThan(32 * MiB);
    expect(peakHeapBytes).toBeLessThanOrEqual(48 * MiB);
  });

  it('refuses at analysis a solid RAR5 whose dictionary would not fit, and says to repack it as a CBZ', async () => {
    const error = await analysisError(solidBook(28, 64 * MiB), 'books/solid-64m.cbr');
    expect(error.code).toBe('dictionary_too_large');
    expect(error.message).toBe('This solid RAR needs more memory than the server has; repack the book as a CBZ');
  });
});
