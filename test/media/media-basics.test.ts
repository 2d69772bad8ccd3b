import { describe, expect, it } from 'vitest';
import { sniffFormat, formatFromExtension } from '../../src/media/detect';
import { parseImageHeader, readImageDimensions } from '../../src/media/image-header';
import { isPageEntry } from '../../src/media/image-types';
import { naturalCompare, naturalSort, naturalSortKey } from '../../src/media/natural-sort';
import { memoryRangeReader } from '../../src/media/range-reader';
import { avifHeader, bmpHeader, gifHeader, jpeg, png, webpHeader } from '../fixtures/images';
import { collect } from '../fixtures/r2-book';

describe('natural order of page and book names (DECISIONS.md §Books)', () => {
  const names = ['page10.jpg', 'Page2.jpg', 'page1.jpg', 'page02b.jpg', 'a.jpg', '1.jpg', 'page1.5.jpg'];

  it('orders numbers by value and letters case-insensitively', () => {
    // As file managers do: at the same position a digit sorts before a letter, so page1.5 comes before page1.jpg.
    expect([...names].sort(naturalCompare)).toEqual([
      '1.jpg',
      'a.jpg',
      'page1.5.jpg',
      'page1.jpg',
      'Page2.jpg',
      'page02b.jpg',
      'page10.jpg',
    ]);
  });

  it('gives sort keys whose plain string order is the same order (for the database)', () => {
    const byKey = [...names].sort((a, b) => (naturalSortKey(a) < naturalSortKey(b) ? -1 : 1));
    expect(byKey).toEqual([...names].sort(naturalCompare));
    expect(naturalSortKey('Vol 2') < naturalSortKey('vol 10')).toBe(true);
  });

  it('is stable and total for names that differ only in case', () => {
    const items = [
      { n: 'B.jpg', i: 1 },
      { n: 'b.jpg', i: 2 },
      { n: 'B.jpg', i: 3 },
    ];
    expect(naturalSort(items, (x) => x.n).map((x) => x.i)).toEqual([1, 3, 2]);
  });
});

describe('which archive entries are pages (DECISIONS.md §Books)', () => {
  it('accepts the page image types and skips __MACOSX, dot files and thumbnail folders', () => {
    for (const name of ['a.jpg', 'b.JPEG', 'c.png', 'd.webp', 'e.gif', 'f.avif', 'g.jxl', 'h.bmp', 'ch1/01.jpg'])
      expect(isPageEntry(name)).toBe(true);
    for (const name of [
      '__MACOSX/ch1/01.jpg',
      '.cover.jpg',
      'ch1/.x.jpg',
      'Thumbs/01.jpg',
      'x/thumbnails/1.png',
      'a.txt',
      'ComicInfo.xml',
      'dir/',
    ]) {
      expect(isPageEntry(name)).toBe(false);
    }
  });
});

describe('format sniffing and extension mapping', () => {
  it('recognises ZIP, EPUB, RAR, 7-Zip and PDF by their first bytes', () => {
    const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
    expect(sniffFormat(ascii('PK\x03\x04'))).toBe('zip');
    expect(sniffFormat(ascii(`PK\x03\x04${'\0'.repeat(26)}mimetypeapplication/epub+zip`))).toBe('epub');
    expect(sniffFormat(ascii('Rar!\x1a\x07\x00'))).toBe('rar');
    expect(sniffFormat(ascii("7z\xbc\xaf'\x1c"))).toBe('7z');
    expect(sniffFormat(ascii('junk\n%PDF-1.4'))).toBe('pdf');
    expect(sniffFormat(ascii('GIF89a'))).toBe('unknown');
    expect(['x.CBZ', 'x.zip', 'x.rar', 'x.epub', 'x.pdf', 'x.txt'].map(formatFromExtension)).toEqual([
      'cbz',
      'cbz',
      'cbr',
      'epub',
      'pdf',
      null,
    ]);
  });
});

describe('page dimensions from the first bytes (deferred dimensions pass)', () => {
  it('reads JPEG, PNG, GIF, BMP, WebP (VP8, VP8L, VP8X) and AVIF headers', () => {
    expect(parseImageHeader(jpeg(123, 45))).toEqual({ width: 123, height: 45, mediaType: 'image/jpeg' });
    expect(parseImageHeader(png(31, 17))).toEqual({ width: 31, height: 17, mediaType: 'image/png' });
    expect(parseImageHeader(gifHeader(300, 200))).toEqual({ width: 300, height: 200, mediaType: 'image/gif' });
    expect(parseImageHeader(bmpHeader(640, 480))).toEqual({ width: 640, height: 480, mediaType: 'image/bmp' });
    for (const kind of ['VP8 ', 'VP8L', 'VP8X'] as const)
      expect(parseImageHeader(webpHeader(kind, 1000, 1500))).toEqual({
        width: 1000,
        height: 1500,
        mediaType: 'image/webp',
      });
    expect(parseImageHeader(avifHeader(1600, 2400))).toEqual({ width: 1600, height: 2400, mediaType: 'image/avif' });
    expect(parseImageHeader(new TextEncoder().encode('not an image at all'))).toBeNull();
  });

  it('finds a JPEG frame header behind large metadata segments, reading only as far as needed', async () => {
    const image = jpeg(800, 1200, { padding: 200_000 });
    const reader = memoryRangeReader(image);
    expect(await readImageDimensions(await reader.stream(0, image.length))).toEqual({
      width: 800,
      height: 1200,
      mediaType: 'image/jpeg',
    });
    expect(await readImageDimensions(await reader.stream(0, 10_000))).toBeNull();
    expect(await collect(await reader.stream(5, 10))).toEqual(image.subarray(5, 15));
  });
});
