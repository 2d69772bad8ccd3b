/**
 * Real ZIP, EPUB and PDF files made by other tools (Komga's test suite, /work/shared/corpus; see its
 * MANIFEST.md). Runs in Node because the workers pool cannot read host files; the format modules are
 * the same code, read here through an in-memory RangeReader (Node 22 has DecompressionStream).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { cbzContainer as cbz } from '../../src/media/cbz';
import type { BookContainer } from '../../src/media/container';
import { epubContainer as epub } from '../../src/media/epub';
import { BookAnalysisError } from '../../src/media/errors';
import { isPageEntry } from '../../src/media/image-types';
import { naturalCompare } from '../../src/media/natural-sort';
import { pdfContainer as pdf } from '../../src/media/pdf';
import { memoryRangeReader } from '../../src/media/range-reader';

const CORPUS = path.resolve(__dirname, '../../../shared/corpus');
const file = (folder: string, name: string) => new Uint8Array(readFileSync(path.join(CORPUS, folder, name)));
const list = (folder: string, ext: RegExp) =>
  existsSync(path.join(CORPUS, folder)) ? readdirSync(path.join(CORPUS, folder)).filter((name) => ext.test(name)) : [];
const collect = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());

/** Entries as an independent unzip sees them: name → {bytes, method}. */
function unzipReference(bytes: Uint8Array) {
  const methods = new Map<string, number>();
  const files = unzipSync(bytes, {
    filter: (entry) => {
      methods.set(entry.name, entry.compression);
      return entry.compression === 0 || entry.compression === 8;
    },
  });
  return { files, methods };
}

async function expectPagesMatchUnzip(container: BookContainer, bytes: Uint8Array) {
  const reader = memoryRangeReader(bytes);
  const analysis = await container.analyze(reader);
  const { files } = unzipReference(bytes);
  const expected = Object.keys(files).filter(isPageEntry).sort(naturalCompare);
  expect(analysis.pages.map((page) => page.fileName)).toEqual(expected);
  expect(analysis.pageCount).toBe(expected.length);
  for (const page of analysis.pages) {
    expect(await collect((await container.openPage(reader, page.locator)).stream)).toEqual(files[page.fileName]);
    expect(await container.readPageHeader(reader, page.locator)).not.toBeNull();
  }
  return analysis;
}

async function analysisError(container: BookContainer, bytes: Uint8Array): Promise<BookAnalysisError> {
  const error = await container.analyze(memoryRangeReader(bytes)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BookAnalysisError);
  expect((error as BookAnalysisError).message).toMatch(/^[A-Z].{20,}$/);
  return error as BookAnalysisError;
}

describe.skipIf(!existsSync(CORPUS))(
  'corpus CBZ (DECISIONS.md §Books: pages in natural order, bytes identical)',
  () => {
    it.each(list('cbz', /\.(zip|cbz)$/))('%s: pages and page bytes match unzip', async (name) => {
      const analysis = await expectPagesMatchUnzip(cbz, file('cbz', name));
      expect(analysis.pageCount).toBeGreaterThan(0);
    });
  },
);

describe.skipIf(!existsSync(CORPUS))('corpus EPUB (DECISIONS.md §Books: OPF metadata, spine order, cover)', () => {
  it('komga-epub3.epub: a calibre picture book with an SVG cover page and an image page', async () => {
    const bytes = file('epub', 'komga-epub3.epub');
    const reader = memoryRangeReader(bytes);
    const analysis = await epub.analyze(reader);
    expect(analysis.metadata).toMatchObject({ title: 'zip', language: 'en', year: null, epubLayout: 'image' });
    expect(analysis.metadata.authors).toEqual([{ name: 'Unknown', role: 'writer' }]);
    expect(analysis.pages.map((p) => [p.fileName, p.mediaType])).toEqual([
      ['cover.jpeg', 'image/jpeg'],
      ['0_0.png', 'image/png'],
    ]);
    expect(analysis.coverPage).toBe(1);
    const files = unzipSync(bytes);
    for (const page of analysis.pages) {
      expect(await collect((await epub.openPage(reader, page.locator)).stream)).toEqual(files[page.fileName]);
    }
  });
});

describe.skipIf(!existsSync(CORPUS))('corpus PDF (DECISIONS.md §Books: page count, page image)', () => {
  it('komga.pdf (ImageMagick, Flate-compressed image): one page, rendered, /Info title', async () => {
    const analysis = await pdf.analyze(memoryRangeReader(file('pdf', 'komga.pdf')));
    expect(analysis.pageCount).toBe(1);
    expect(analysis.pages[0]!.locator).toMatchObject({ kind: 'pdf-render', page: 1 });
    expect(analysis.metadata.title).toBe('komga');
  });
});

describe.skipIf(!existsSync(CORPUS))(
  'corpus bad ZIP/EPUB files: an analysis error in plain words or a correct book, never a crash',
  () => {
    it('komga-zip-encrypted.zip is reported as encrypted', async () => {
      const error = await analysisError(cbz, file('bad', 'komga-zip-encrypted.zip'));
      expect([error.code, error.message]).toEqual([
        'encrypted',
        'The archive is encrypted; Longbox cannot read password-protected files',
      ]);
    });

    it('komga-zip-as-epub.epub is reported as a ZIP that is not an EPUB', async () => {
      const error = await analysisError(epub, file('bad', 'komga-zip-as-epub.epub'));
      expect([error.code, error.message]).toEqual([
        'not_an_epub',
        'The file is a ZIP archive but not an EPUB: it has no META-INF/container.xml',
      ]);
    });

    // The files named after bzip2/deflate64/LZMA/PPMd hold their PNG *stored* (7-Zip keeps incompressible
    // data stored), so what matters is the method each entry really has: readable ones must be read.
    it.each(list('bad', /^komga-zip-(bzip2|deflate64|lzma|ppmd)\.zip$/))(
      '%s follows the entry methods it really has',
      async (name) => {
        const bytes = file('bad', name);
        const { methods } = unzipReference(bytes);
        const unsupported = [...methods.entries()].filter(
          ([entry, method]) => isPageEntry(entry) && method !== 0 && method !== 8,
        );
        if (unsupported.length === 0) await expectPagesMatchUnzip(cbz, bytes);
        else expect((await analysisError(cbz, bytes)).code).toBe('unsupported_compression');
      },
    );

    it('7-Zip archives named .cbz are named for what they are', async () => {
      for (const name of list('bad', /\.7z$/)) {
        const error = await analysisError(cbz, file('bad', name));
        expect(error.message).toBe(
          'The file is not a ZIP archive although it is named .cbz: it is a 7-Zip archive, which Longbox cannot read; repack the book as a CBZ',
        );
      }
    });
  },
);
