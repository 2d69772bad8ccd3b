import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { analyzeBook, containerFor } from '../../src/media';
import { BookAnalysisError } from '../../src/media/errors';
import { jpeg } from '../fixtures/images';
import { buildPdf, utf16Hex } from '../fixtures/pdf-writer';
import { collect, r2Book } from '../fixtures/r2-book';

const pdf = containerFor('pdf');
const scans = [
  jpeg(200, 300, { seed: 1, padding: 40_000 }),
  jpeg(200, 300, { seed: 2, padding: 40_000 }),
  jpeg(240, 300, { seed: 3 }),
];

async function analysisError(bytes: Uint8Array): Promise<BookAnalysisError> {
  const error = await analyzeBook('pdf', await r2Book(bytes, 'books/bad.pdf')).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BookAnalysisError);
  return error as BookAnalysisError;
}

describe('PDF pages that are one embedded JPEG are served as that image (DECISIONS.md §Books)', () => {
  it('serves each scanned page byte-identical with one range read and renders the text page', async () => {
    const bytes = buildPdf(
      [
        { kind: 'jpeg', image: scans[0]!, width: 200, height: 300 },
        { kind: 'text', text: 'Chapter one' },
        { kind: 'jpeg', image: scans[1]!, width: 200, height: 300 },
        { kind: 'jpeg', image: scans[2]!, width: 240, height: 300 },
      ],
      { compressContent: true },
    );
    const reader = await r2Book(bytes, 'books/comic.pdf');
    const analysis = await pdf.analyze(reader);
    expect(analysis.pageCount).toBe(4);
    expect(analysis.pages.map((p) => p.locator.kind)).toEqual(['pdf-image', 'pdf-render', 'pdf-image', 'pdf-image']);
    expect(analysis.pages[1]!.locator).toMatchObject({ page: 2, width: 612, height: 792 });
    for (const [page, image] of [
      [analysis.pages[0]!, scans[0]!],
      [analysis.pages[2]!, scans[1]!],
      [analysis.pages[3]!, scans[2]!],
    ] as const) {
      const before = reader.stats.reads;
      const content = await pdf.openPage(reader, page.locator);
      expect(content.mediaType).toBe('image/jpeg');
      expect(content.size).toBe(image.length);
      expect(await collect(content.stream)).toEqual(image);
      expect(reader.stats.reads - before).toBe(1);
    }
    expect(await pdf.readPageHeader(reader, analysis.pages[3]!.locator)).toEqual({ width: 240, height: 300 });
    const render = await pdf.openPage(reader, analysis.pages[1]!.locator).catch((e: unknown) => e);
    expect((render as BookAnalysisError).code).toBe('render_required');
  });

  it('renders pages with two images, a partial-page image or a rotation', async () => {
    const bytes = buildPdf([
      { kind: 'two-jpegs', image: scans[0]!, width: 200, height: 300 },
      { kind: 'small-jpeg', image: scans[0]!, width: 200, height: 300 },
      { kind: 'jpeg', image: scans[0]!, width: 200, height: 300, rotate: 90 },
    ]);
    const analysis = await analyzeBook('pdf', await r2Book(bytes, 'books/mixed.pdf'));
    expect(analysis.pages.map((p) => p.locator.kind)).toEqual(['pdf-render', 'pdf-render', 'pdf-render']);
    expect(analysis.pages[2]!.locator).toMatchObject({ width: 300, height: 200 });
  });

  it('reads xref streams and object streams (pdf-lib) and serves their JPEGs byte-identical', async () => {
    const doc = await PDFDocument.create();
    for (const image of scans) {
      const embedded = await doc.embedJpg(image);
      const page = doc.addPage([embedded.width, embedded.height]);
      page.drawImage(embedded, { x: 0, y: 0, width: embedded.width, height: embedded.height });
    }
    doc.setTitle('Objects Everywhere');
    doc.setAuthor('Zoë Example');
    const bytes = await doc.save({ useObjectStreams: true });
    expect(new TextDecoder().decode(bytes)).toContain('/ObjStm');
    const reader = await r2Book(bytes, 'books/objstm.pdf');
    const analysis = await pdf.analyze(reader);
    expect(analysis.pages.map((p) => p.locator.kind)).toEqual(['pdf-image', 'pdf-image', 'pdf-image']);
    for (const [i, page] of analysis.pages.entries()) {
      expect(await collect((await pdf.openPage(reader, page.locator)).stream)).toEqual(scans[i]);
    }
    expect(analysis.metadata.title).toBe('Objects Everywhere');
    expect(analysis.metadata.authors).toEqual([{ name: 'Zoë Example', role: 'writer' }]);
  });
});

describe('PDF metadata from /Info (DECISIONS.md §Books)', () => {
  it('decodes PDFDocEncoding and UTF-16BE strings and follows incremental updates', async () => {
    const page = { kind: 'text' as const, text: 'x' };
    const bytes = buildPdf([page], {
      info: {
        Title: utf16Hex('Ōkami — 狼'),
        Author: Uint8Array.from([
          0x4a, 0x65, 0x61, 0x6e, 0x20, 0x44, 0x75, 0x70, 0x6f, 0x6e, 0x74, 0x3b, 0x20, 0x41, 0x6e, 0x6e, 0x80,
        ]),
        Subject: 'A wolf story',
        Keywords: 'wolves, japan; myth',
        CreationDate: 'D:20190401120000Z',
      },
    });
    const { metadata, pageCount } = await analyzeBook('pdf', await r2Book(bytes, 'books/info.pdf'));
    expect(pageCount).toBe(1);
    expect(metadata).toMatchObject({
      title: 'Ōkami — 狼',
      summary: 'A wolf story',
      tags: ['wolves', 'japan', 'myth'],
      year: 2019,
    });
    expect(metadata.authors).toEqual([
      { name: 'Jean Dupont', role: 'writer' },
      { name: 'Ann•', role: 'writer' },
    ]);
    const updated = buildPdf([page], { info: { Title: 'Old title' }, updatedInfo: { Title: 'New title' } });
    expect((await analyzeBook('pdf', await r2Book(updated, 'books/updated.pdf'))).metadata.title).toBe('New title');
  });
});

describe('Unreadable PDFs are analysis errors in plain words (DECISIONS.md §Books)', () => {
  it('reports an encrypted PDF', async () => {
    const error = await analysisError(buildPdf([{ kind: 'text', text: 'secret' }], { encrypted: true }));
    expect([error.code, error.message]).toEqual([
      'encrypted',
      'The PDF is encrypted; Longbox cannot read password-protected files',
    ]);
  });

  it('reports a truncated PDF with no readable page tree and a file that is not a PDF', async () => {
    const bytes = buildPdf([{ kind: 'jpeg', image: scans[0]!, width: 200, height: 300 }]);
    // The page tree and catalog are written last: the first half has no page tree to rebuild from.
    const truncated = await analysisError(bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect([truncated.code, truncated.message]).toEqual([
      'corrupt',
      'The PDF is damaged: no readable page tree was found (is it truncated?)',
    ]);
    // The PDF reader names the real format; analyzeBook reads such a file as what it is (a ZIP).
    const zipBytes = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]);
    const zip = (await pdf
      .analyze(await r2Book(zipBytes, 'books/zip.pdf'))
      .catch((e: unknown) => e)) as BookAnalysisError;
    expect((await analysisError(zipBytes)).code).toBe('truncated');
    expect(zip.message).toBe(
      'The file is not a PDF document although it is named .pdf: it is a ZIP archive; rename it to .cbz',
    );
  });
});

describe('PDFs with a wrong or missing cross-reference are repaired (DECISIONS.md §Books)', () => {
  const spec = [
    { kind: 'jpeg' as const, image: scans[0]!, width: 200, height: 300 },
    { kind: 'text' as const, text: 'Chapter one' },
    { kind: 'jpeg' as const, image: scans[2]!, width: 240, height: 300 },
  ];

  async function expectRepaired(bytes: Uint8Array, key: string, title: string | null = 'Mended') {
    const reader = await r2Book(bytes, key);
    const analysis = await pdf.analyze(reader);
    expect(analysis.pageCount).toBe(3);
    expect(analysis.pages.map((p) => p.locator.kind)).toEqual(['pdf-image', 'pdf-render', 'pdf-image']);
    expect(analysis.metadata.title).toBe(title);
    expect(await collect((await pdf.openPage(reader, analysis.pages[0]!.locator)).stream)).toEqual(scans[0]);
    expect(await collect((await pdf.openPage(reader, analysis.pages[2]!.locator)).stream)).toEqual(scans[2]);
  }

  it('reads a PDF whose xref offsets are all a few bytes off', async () => {
    await expectRepaired(buildPdf(spec, { info: { Title: 'Mended' }, damage: 'shifted-offsets' }), 'books/shifted.pdf');
  });

  it('reads a PDF with no xref, trailer or startxref at all', async () => {
    // Without a trailer nothing says which dictionary is the document's /Info: no metadata, as in pdf.js.
    await expectRepaired(buildPdf(spec, { info: { Title: 'Mended' }, damage: 'no-xref' }), 'books/no-xref.pdf', null);
  });

  it('reads a PDF whose xref stream does not decode', async () => {
    await expectRepaired(
      buildPdf(spec, { info: { Title: 'Mended' }, damage: 'broken-xref-stream' }),
      'books/broken-stream.pdf',
    );
  });

  it('reads a pdf-lib PDF (objects inside object streams) whose xref stream is destroyed', async () => {
    const doc = await PDFDocument.create();
    for (const image of scans) {
      const embedded = await doc.embedJpg(image);
      doc.addPage([embedded.width, embedded.height]).drawImage(embedded, { x: 0, y: 0 });
    }
    doc.setTitle('Mended');
    const bytes = await doc.save({ useObjectStreams: true });
    const text = new TextDecoder('latin1').decode(bytes);
    const xref = text.lastIndexOf('/Type /XRef');
    const data = text.indexOf('stream', xref) + 'stream\n'.length;
    bytes.fill(0x21, data, data + 12); // the zlib header and first bytes of the table
    const reader = await r2Book(bytes, 'books/objstm-broken.pdf');
    const analysis = await pdf.analyze(reader);
    expect(analysis.pages.map((p) => p.locator.kind)).toEqual(['pdf-image', 'pdf-image', 'pdf-image']);
    expect(analysis.metadata.title).toBe('Mended');
    for (const [i, page] of analysis.pages.entries()) {
      expect(await collect((await pdf.openPage(reader, page.locator)).stream)).toEqual(scans[i]);
    }
  });

  it('reports a damaged PDF without any page tree in plain words', async () => {
    const bytes = buildPdf(spec, { damage: 'no-xref' });
    const text = new TextDecoder('latin1')
      .decode(bytes)
      .replace('/Type /Catalog /Pages 2 0 R', '/Type /Katalog /Pagez 2 0 R');
    const error = await analysisError(Uint8Array.from(text, (c) => c.charCodeAt(0)));
    expect(error.message).toBe('The PDF is damaged: no readable page tree was found (is it truncated?)');
  });
});
