/**
 * Fuzzing every reader with fast-check (issue 13, test/support/fuzz.ts): each case is a valid fixture
 * mutated; it must end in a result or a BookAnalysisError in bounded time, reading only inside the
 * file. Runs in Node (fast, same code as the worker; the unrar wasm is compiled by the node project's
 * alias). `npm test`: FUZZ_RUNS cases per reader; `npm run fuzz`: 100,000 (docs/RELIABILITY.md).
 */
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { cbrContainer } from '../../src/media/cbr';
import { cbzContainer } from '../../src/media/cbz';
import { parseComicInfo } from '../../src/media/comic-info';
import type { BookContainer } from '../../src/media/container';
import { epubContainer } from '../../src/media/epub';
import { BookAnalysisError } from '../../src/media/errors';
import { parseImageHeader, readImageHeader } from '../../src/media/image-header';
import { pdfContainer } from '../../src/media/pdf';
import { memoryRangeReader, type RangeReader } from '../../src/media/range-reader';
import { comicInfoXml } from '../fixtures/comic-info';
import { buildEpub } from '../fixtures/epub-writer';
import { avifHeader, bmpHeader, gifHeader, jpeg, png, webpHeader } from '../fixtures/images';
import { buildPdf } from '../fixtures/pdf-writer';
import { writeRar4, writeRar5 } from '../fixtures/rar-writer';
import { buildZip } from '../fixtures/zip-writer';
import { drain, FUZZ_RUNS, fuzzCase, fuzzReader, fuzzTimeout } from '../support/fuzz';

const pages = [png(12, 16, 1), jpeg(16, 12, { seed: 2 }), png(8, 8, 3)];
const info = comicInfoXml({ Series: 'Fuzz', Number: '1.5', Title: 'Cases', Writer: 'A; B' }, 0);

/** Analyse, then open, drain and read the header of the first pages, as the scanner and page endpoint do. */
const exercise = (container: BookContainer) => async (reader: RangeReader) => {
  const analysis = await container.analyze(reader);
  for (const page of analysis.pages.slice(0, 4)) {
    await container
      .openPage(reader, page.locator, analysis.containerIndex)
      .then((content) => drain(content.stream))
      .catch(onlyAnalysisErrors);
    await container.readPageHeader(reader, page.locator, analysis.containerIndex).catch(onlyAnalysisErrors);
  }
  return analysis;
};

function onlyAnalysisErrors(error: unknown): void {
  if (!(error instanceof BookAnalysisError)) throw error;
}

describe('fuzzed readers end in a result or a BookAnalysisError (issue 13)', () => {
  it(
    'zip: central directory, local headers and entries (stored, deflated, data descriptors, ZIP64)',
    async () => {
      const seeds = [
        buildZip([
          { name: '1.png', data: pages[0]! },
          { name: '2.jpg', data: pages[1]!, method: 'deflate' },
          { name: 'ComicInfo.xml', data: info, method: 'deflate' },
        ]),
        buildZip(
          [
            { name: 'a/01.png', data: pages[2]!, dataDescriptor: true, method: 'deflate' },
            { name: 'a/02.jpg', data: pages[1]! },
          ],
          { zip64: true, comment: 'fuzz' },
        ),
      ];
      await fuzzReader('zip', seeds, exercise(cbzContainer));
    },
    fuzzTimeout(),
  );

  it(
    'RAR4 headers and entries',
    async () => {
      const seeds = [
        writeRar4([
          { name: '1.png', data: pages[0]! },
          { name: 'dir', directory: true },
          { name: 'dir/2.jpg', data: pages[1]! },
        ]),
      ];
      await fuzzReader('rar4', seeds, exercise(cbrContainer));
    },
    fuzzTimeout(),
  );

  it(
    'RAR5 headers and entries (stored and compressed, solid, quick-open)',
    async () => {
      const seeds = [
        writeRar5([
          { name: '1.png', data: pages[0]! },
          { name: '2.jpg', data: pages[1]!, literal: true },
        ]),
        writeRar5(
          [
            { name: '1.png', data: pages[2]!, literal: true },
            { name: '2.png', data: pages[0]!, literal: true, solid: true },
          ],
          { solid: true, quickOpen: true },
        ),
      ];
      await fuzzReader('rar5', seeds, exercise(cbrContainer));
    },
    fuzzTimeout(40),
  );

  it(
    'EPUB: container.xml, OPF, spine and pages',
    async () => {
      const seeds = [
        buildEpub({
          spine: [
            { kind: 'image', image: pages[1]! },
            { kind: 'wrapper', image: pages[0]! },
          ],
          fixedLayout: true,
        }),
        buildEpub({
          spine: [
            { kind: 'text', bytes: 3000 },
            { kind: 'text', bytes: 500 },
          ],
          metadataXml: '<dc:title>Fuzz</dc:title><meta property="belongs-to-collection">Saga</meta>',
          coverStyle: 'epub2',
        }),
      ];
      await fuzzReader('epub', seeds, exercise(epubContainer));
    },
    fuzzTimeout(),
  );

  it(
    'PDF: xref tables and streams, objects, object streams and the page tree',
    async () => {
      const doc = await PDFDocument.create();
      const embedded = await doc.embedJpg(pages[1]!);
      doc.addPage([16, 12]).drawImage(embedded, { x: 0, y: 0, width: 16, height: 12 });
      doc.addPage([100, 100]);
      doc.setTitle('Fuzz');
      const seeds = [
        buildPdf(
          [
            { kind: 'jpeg', image: pages[1]!, width: 16, height: 12 },
            { kind: 'text', text: 'Fuzz' },
          ],
          { info: { Title: 'Fuzz' }, compressContent: true, updatedInfo: { Title: 'Fuzz 2' } },
        ),
        buildPdf([{ kind: 'jpeg', image: pages[1]!, width: 16, height: 12 }], { damage: 'broken-xref-stream' }),
        await doc.save({ useObjectStreams: true }),
      ];
      await fuzzReader('pdf', seeds, exercise(pdfContainer));
    },
    fuzzTimeout(),
  );

  it(
    'ComicInfo.xml',
    async () => {
      const seeds = [info, comicInfoXml({ Title: 'x', Manga: 'YesAndRightToLeft', Year: '2001', Tags: 'a,b' })];
      await fuzzReader('comicinfo', seeds, async (reader) => parseComicInfo(await reader.read(0, reader.size)));
    },
    fuzzTimeout(),
  );

  it(
    'image headers (JPEG, PNG, GIF, BMP, WebP, AVIF)',
    async () => {
      const seeds = [
        pages[0]!,
        pages[1]!,
        gifHeader(30, 20),
        bmpHeader(30, 20),
        webpHeader('VP8 ', 30, 20),
        webpHeader('VP8L', 30, 20),
        webpHeader('VP8X', 30, 20),
        avifHeader(30, 20),
      ];
      await fuzzReader('image-header', seeds, async (reader) => {
        const bytes = await reader.read(0, reader.size);
        const whole = parseImageHeader(bytes);
        const streamed = await readImageHeader((await memoryRangeReader(bytes).stream(0, bytes.length)) as never);
        for (const result of [whole, streamed]) {
          if (result && result !== 'need-more') {
            expect(Number.isSafeInteger(result.width) && result.width > 0).toBe(true);
            expect(Number.isSafeInteger(result.height) && result.height > 0).toBe(true);
          }
        }
        return whole;
      });
    },
    fuzzTimeout(),
  );

  it('mutations really change the fixtures (the fuzzer is not testing the seeds over and over)', () => {
    const seed = buildZip([{ name: '1.png', data: pages[0]! }]);
    const samples = fc.sample(fuzzCase([seed]), { numRuns: 200, seed: 13 });
    const changed = samples.filter((bytes) => bytes.length !== seed.length || bytes.some((b, i) => b !== seed[i]));
    expect(changed.length).toBeGreaterThan(180);
    expect(FUZZ_RUNS).toBeGreaterThan(0);
  });
});
