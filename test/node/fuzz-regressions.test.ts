/**
 * Defects the reader fuzzing found (test/node/fuzz-readers.test.ts, docs/RELIABILITY.md), each kept
 * as the smallest file that showed it.
 */
import { describe, expect, it } from 'vitest';
import { cbzContainer } from '../../src/media/cbz';
import { BookAnalysisError } from '../../src/media/errors';
import { png } from '../fixtures/images';
import { buildZip } from '../fixtures/zip-writer';
import { drain, guardedReader } from '../support/fuzz';

const page = png(12, 16, 1);

async function servedPageError(bytes: Uint8Array): Promise<unknown> {
  const reader = guardedReader(bytes);
  const analysis = await cbzContainer.analyze(reader);
  const content = await cbzContainer.openPage(reader, analysis.pages[0]!.locator, analysis.containerIndex);
  return drain(content.stream).then(
    () => null,
    (error: unknown) => error,
  );
}

describe('defects found by fuzzing (issue 13)', () => {
  it('a deflated page whose data is damaged fails with a BookAnalysisError, not a bare TypeError', async () => {
    const bytes = buildZip([{ name: '1.png', data: page, method: 'deflate' }]);
    const text = new TextDecoder('latin1').decode(bytes);
    const data = text.indexOf('1.png') + '1.png'.length;
    bytes.fill(0xff, data, data + 8); // invalid deflate block headers
    const error = await servedPageError(bytes);
    expect(error).toBeInstanceOf(BookAnalysisError);
    expect((error as BookAnalysisError).message).toBe('1.png cannot be decompressed; the archive is damaged');
  });

  it('a deflated page that inflates past its declared size is cut off with a BookAnalysisError', async () => {
    const big = new Uint8Array(200_000); // zeros: a few hundred bytes deflated
    big.set(page);
    const bytes = buildZip([{ name: '1.png', data: big, method: 'deflate' }]);
    // Declare 1,000 bytes in both headers (the CRC is only checked on whole small entries).
    const view = new DataView(bytes.buffer);
    for (let i = 0; i + 4 <= bytes.length; i++) {
      const sig = view.getUint32(i, true);
      if (sig === 0x04034b50) view.setUint32(i + 22, 1000, true);
      if (sig === 0x02014b50) view.setUint32(i + 24, 1000, true);
    }
    const error = await servedPageError(bytes);
    expect(error).toBeInstanceOf(BookAnalysisError);
    expect((error as BookAnalysisError).message).toBe('1.png is larger than the archive says');
  });

  it('a ZIP64 locator pointing past the end is reported without reading outside the file', async () => {
    const bytes = buildZip([{ name: '1.png', data: page }], { zip64: true });
    const view = new DataView(bytes.buffer);
    const locator = bytes.length - 22 - 20;
    expect(view.getUint32(locator, true)).toBe(0x07064b50);
    view.setUint32(locator + 8, bytes.length - 10, true);
    const reader = guardedReader(bytes);
    const error = await cbzContainer.analyze(reader).catch((e: unknown) => e);
    expect((error as BookAnalysisError).message).toBe('The ZIP archive is damaged: the ZIP64 end record is missing');
    expect(reader.outside).toEqual([]);
  });

  it('a stored page whose local header puts its data past the end gives no size, without reading outside the file', async () => {
    const bytes = buildZip([{ name: '1.png', data: page }]);
    const view = new DataView(bytes.buffer);
    expect(view.getUint32(0, true)).toBe(0x04034b50);
    view.setUint16(28, 2000, true); // local extra field length: the data would start beyond the file
    const reader = guardedReader(bytes);
    const analysis = await cbzContainer.analyze(reader);
    const size = await cbzContainer.readPageHeader(reader, analysis.pages[0]!.locator, analysis.containerIndex);
    expect(size).toBeNull();
    expect(reader.outside).toEqual([]);
  });
});
