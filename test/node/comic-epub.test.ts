/**
 * The comic → fixed-layout EPUB writer (src/media/comic-epub/; DECISIONS.md §Kobo e-readers, comics) over
 * generated archives, without a server: the length worked out before any byte equals what is streamed, every
 * byte range equals that slice of the whole, the images are the archive's own bytes, and EPUBCheck finds no
 * error in a book made hard on purpose (right to left, 120 pages of three image types stored and deflated, a
 * title with markup and control characters, a language tag that is not one).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { analyzeBook } from '../../src/media';
import { comicEpubImages, type IndexedPage } from '../../src/media/comic-epub/comic-epub';
import { archiveImageReader } from '../../src/media/comic-epub/archive-reader';
import { checksumOf } from '../../src/media/comic-epub/image-sources';
import { type ComicEpubImage, comicEpubLayout, comicEpubSize } from '../../src/media/comic-epub/layout';
import type { EpubBookInfo } from '../../src/media/comic-epub/package-files';
import { comicEpubStream } from '../../src/media/comic-epub/stream';
import type { BookFormat } from '../../src/media/container';
import { memoryRangeReader } from '../../src/media/range-reader';
import { jpeg, png } from '../fixtures/images';
import { writeRar5 } from '../fixtures/rar-writer';
import { buildZip } from '../fixtures/zip-writer';
import { epubcheck, epubcheckErrors, HAS_EPUBCHECK, MISSING_EPUBCHECK } from '../support/epubcheck';

const collect = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());

/** The classic 43-byte 1×1 GIF: a whole, decodable image (the page's size is stated beside it). */
const GIF = Uint8Array.from([
  0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0xff, 0xff, 0xff, 0, 0, 0, 0x21, 0xf9, 4, 1, 0, 0, 0, 0,
  0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b,
]);

async function epubOf(format: BookFormat, archive: Uint8Array, info: Partial<EpubBookInfo> = {}) {
  const reader = memoryRangeReader(archive);
  const analysis = await analyzeBook(format, reader);
  const pages: IndexedPage[] = analysis.pages.map((page) => ({ ...page, width: 60, height: 90 }));
  const images: ComicEpubImage[] = [];
  for (const image of comicEpubImages(format, pages)) {
    const crc32 = image.form.crc32 ?? (await checksumOf(reader, image.source, analysis.containerIndex));
    images.push({ ...image, form: { ...image.form, crc32 } });
  }
  const book: EpubBookInfo = {
    id: '0d4c2b7e-5a41-4c1b-9f4e-2f4f1f0a9b11',
    title: 'Test',
    language: 'en',
    authors: [],
    modified: new Date('2026-03-04T05:06:07.890Z'),
    rightToLeft: false,
    ...info,
  };
  const layout = comicEpubLayout(book, images);
  const open = () => archiveImageReader(reader, analysis.containerIndex);
  const sized = pages.map((page, i) => ({
    number: i + 1,
    mediaType: page.mediaType as 'image/jpeg',
    width: 60,
    height: 90,
    dataSize: images[i]!.form.compressedSize,
  }));
  const before = reader.stats.reads;
  const bytes = await collect(comicEpubStream(layout, { offset: 0, length: layout.size }, open()));
  return {
    layout,
    predicted: comicEpubSize(book, sized),
    bytes,
    /** Range reads of the archive the whole EPUB took. */
    reads: reader.stats.reads - before,
    range: (offset: number, length: number) => collect(comicEpubStream(layout, { offset, length }, open())),
  };
}

describe('a comic as a fixed-layout EPUB', () => {
  it('has the length worked out in advance, ranges that are slices of the whole, and the archive’s own image bytes', async () => {
    const pages = Array.from({ length: 7 }, (_, i) => ({
      name: `p${i + 1}.jpg`,
      data: jpeg(60, 90, { seed: i, padding: 5000 * i }),
      method: i % 2 ? ('deflate' as const) : ('store' as const),
    }));
    const epub = await epubOf('cbz', buildZip(pages));
    expect(epub.bytes.length).toBe(epub.layout.size);
    expect(epub.predicted).toBe(epub.layout.size);
    // Pages that follow one another in the archive come in one read.
    expect(epub.reads).toBe(1);
    const files = unzipSync(epub.bytes);
    expect(Object.keys(files)[0]).toBe('mimetype');
    expect(pages.map((_, i) => files[`OEBPS/images/page-000${i + 1}.jpg`])).toEqual(pages.map((page) => page.data));
    const size = epub.bytes.length;
    for (const [offset, length] of [
      [0, 1],
      [0, 60],
      [37, 400],
      [size - 1, 1],
      [Math.floor(size / 3), Math.floor(size / 3)],
      [100, size - 100],
    ] as const) {
      expect(await epub.range(offset, length)).toEqual(epub.bytes.subarray(offset, offset + length));
    }
  });

  it('copies a RAR’s stored pages and unpacks its compressed ones; a RAR5 page without a CRC-32 gets one', async () => {
    const data = [png(60, 90, 1), png(60, 90, 2), png(60, 90, 3)];
    const rar = writeRar5([
      { name: '1.png', data: data[0] },
      { name: '2.png', data: data[1], literal: true },
      { name: '3.png', data: data[2], literal: true, solid: true },
    ]);
    const epub = await epubOf('cbr', rar);
    const files = unzipSync(epub.bytes);
    expect([1, 2, 3].map((n) => files[`OEBPS/images/page-000${n}.png`])).toEqual(data);
  });

  if (!HAS_EPUBCHECK) console.warn(MISSING_EPUBCHECK);
  it.skipIf(!HAS_EPUBCHECK)(
    'passes EPUBCheck made hard: right to left, 120 pages of JPEG, PNG and GIF, an odd title',
    async () => {
      const pages = Array.from({ length: 120 }, (_, i) => {
        const kind = i % 3;
        const data = kind === 0 ? jpeg(60, 90, { seed: i }) : kind === 1 ? png(60, 90, i) : GIF;
        return {
          name: `${i + 1}.${['jpg', 'png', 'gif'][kind]}`,
          data,
          method: i % 4 ? ('deflate' as const) : ('store' as const),
        };
      });
      const epub = await epubOf('cbz', buildZip(pages), {
        title: 'Ｏｎｅ <Piece> & "Friends"\u0001\u0007 — 第1巻',
        authors: ['尾田 栄一郎', 'A & B <C>'],
        language: 'not a language',
        rightToLeft: true,
      });
      const work = mkdtempSync(path.join(tmpdir(), 'longbox-comic-epub-'));
      try {
        const file = path.join(work, 'hard.epub');
        writeFileSync(file, epub.bytes);
        expect(epubcheckErrors(epubcheck(file))).toEqual([]);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
  );
});
