import { describe, expect, it } from 'vitest';
import { analyzeBook } from '../../src/media';
import { cachedRangeReader } from '../../src/scanning/cached-range-reader';
import { comicInfoXml } from '../fixtures/comic-info';
import { jpeg } from '../fixtures/images';
import { collect, r2Book } from '../fixtures/r2-book';
import { buildZip } from '../fixtures/zip-writer';

function book(comicInfoFirst: boolean): Uint8Array {
  const info = { name: 'ComicInfo.xml', data: comicInfoXml({ Series: 'Saga', Number: '3' }) };
  const pages = Array.from({ length: 40 }, (_, i) => ({
    name: `${String(i + 1).padStart(3, '0')}.jpg`,
    data: jpeg(64, 96, { seed: i, padding: 4000 }),
  }));
  return buildZip(comicInfoFirst ? [info, ...pages] : [...pages, info]);
}

describe('scan analysis reads each region of a book from R2 once (issue 3: bytes read per book)', () => {
  for (const comicInfoFirst of [true, false]) {
    it(`analyses a CBZ with ComicInfo.xml ${comicInfoFirst ? 'first' : 'last'} in two ranged gets, same result`, async () => {
      const bytes = book(comicInfoFirst);
      const plain = await r2Book(bytes, 'books/plain.cbz');
      const expected = await analyzeBook('cbz', plain);
      const counted = await r2Book(bytes, 'books/cached.cbz');
      const analysis = await analyzeBook('cbz', cachedRangeReader(counted));
      expect(analysis).toEqual(expected);
      expect(analysis.metadata.series).toBe('Saga');
      expect(plain.stats.reads).toBe(3);
      expect(counted.stats.reads).toBe(2);
    });
  }

  it('serves only ranges inside what it read, and the same bytes R2 holds', async () => {
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) & 0xff);
    const inner = await r2Book(bytes, 'books/ranges.cbz');
    const reader = cachedRangeReader(inner, 100_000);
    expect(await reader.read(1000, 50_000)).toEqual(bytes.slice(1000, 51_000));
    expect(await reader.read(2000, 100)).toEqual(bytes.slice(2000, 2100));
    expect(await collect(await reader.stream(40_000, 11_000))).toEqual(bytes.slice(40_000, 51_000));
    expect(inner.stats.reads).toBe(1);
    expect(await reader.read(50_000, 2000)).toEqual(bytes.slice(50_000, 52_000)); // crosses the end
    expect(await reader.read(200_000, 60_000)).toEqual(bytes.slice(200_000, 260_000)); // over the bound: not kept
    expect(await reader.read(200_000, 10)).toEqual(bytes.slice(200_000, 200_010));
    expect(inner.stats.reads).toBe(4);
  });
});
