/**
 * PDF (DECISIONS.md §Books): page count and /Info metadata from a small structure reader over range
 * reads (src/media/pdf/). A page that is exactly one full-page JPEG gets a `pdf-image` locator (the
 * stream's byte range, served byte-identical); every other page gets a `pdf-render` locator and is
 * rendered by the native-image worker.
 */
import type { BookAnalysis, BookContainer, BookPage, ImageDimensions, PageContent, PageLocator } from './container';
import { assertFormat } from './detect';
import { BookAnalysisError } from './errors';
import { isRepairable, PdfDocument } from './pdf/document';
import { readInfo } from './pdf/info';
import { singleJpegOf } from './pdf/page-image';
import { listPages, type PdfPage } from './pdf/page-tree';
import { damaged } from './pdf/pdf-file';
import type { RangeReader } from './range-reader';

/** Pages classified at once; each needs a few small reads. */
const CONCURRENCY = 8;

const pageName = (number: number) => `page-${String(number).padStart(4, '0')}`;

async function pageOf(doc: PdfDocument, page: PdfPage, number: number): Promise<BookPage> {
  // Whatever goes wrong while looking for a single JPEG only means this page gets rendered.
  const image = await singleJpegOf(doc, page).catch((error: unknown) => {
    if (error instanceof BookAnalysisError && error.code === 'file_missing') throw error;
    return null;
  });
  const [x0, y0, x1, y1] = page.box;
  if (image) {
    return {
      number,
      fileName: `${pageName(number)}.jpg`,
      mediaType: 'image/jpeg',
      size: image.length,
      locator: {
        kind: 'pdf-image',
        page: number,
        offset: image.offset,
        length: image.length,
        width: image.width,
        height: image.height,
      },
    };
  }
  const sideways = page.rotate === 90 || page.rotate === 270;
  // Exact, not rounded: the rendered size is computed from these as the renderer computes it from PDFium's
  // page size, and rounding the points first made the two differ (a page listed 1413 px wide served 1414).
  const width = Math.abs(sideways ? y1 - y0 : x1 - x0);
  const height = Math.abs(sideways ? x1 - x0 : y1 - y0);
  return {
    number,
    fileName: pageName(number),
    mediaType: 'image/png',
    size: 0,
    // Page size in points (1/72 in) as displayed, so a renderer can scale to its target.
    locator: { kind: 'pdf-render', page: number, width, height },
  };
}

interface ReadDocument {
  doc: PdfDocument;
  pages: BookPage[];
}

async function readDocument(doc: PdfDocument): Promise<ReadDocument> {
  const tree = await listPages(doc);
  if (tree.length === 0) throw new BookAnalysisError('no_pages', 'The PDF has no pages');
  const pages: BookPage[] = [];
  for (let start = 0; start < tree.length; start += CONCURRENCY) {
    const batch = tree.slice(start, start + CONCURRENCY);
    pages.push(...(await Promise.all(batch.map((page, i) => pageOf(doc, page, start + i + 1)))));
  }
  return { doc, pages };
}

/**
 * Through the cross-reference data first; when that fails, or an object turned out not to be where it
 * said, again with the data rebuilt from the objects in the file (pdf/repair.ts).
 */
async function readRepairing(reader: RangeReader): Promise<ReadDocument> {
  let first: ReadDocument | null = null;
  let failure: unknown = null;
  try {
    first = await readDocument(await PdfDocument.open(reader));
    if (first.doc.repaired || !first.doc.sawDamage) return first;
  } catch (error) {
    if (!isRepairable(error)) throw error;
    failure = error;
  }
  try {
    return await readDocument(await PdfDocument.repair(reader));
  } catch (error) {
    if (first) return first;
    if (!isRepairable(error)) throw error;
    // The rebuilt map says why better, unless it failed only because the tree it found was empty.
    const reason = error instanceof BookAnalysisError ? error : failure;
    if (reason instanceof BookAnalysisError) throw reason;
    throw damaged('its structure cannot be read');
  }
}

async function analyze(reader: RangeReader): Promise<BookAnalysis> {
  await assertFormat(reader, 'pdf');
  const { doc, pages } = await readRepairing(reader);
  return {
    format: 'pdf',
    pages,
    pageCount: pages.length,
    metadata: await readInfo(doc),
    coverPage: null,
    containerIndex: null,
  };
}

function imageRange(locator: PageLocator): { offset: number; length: number; width: number; height: number } | null {
  if (locator.kind !== 'pdf-image') return null;
  const { offset, length, width, height } = locator;
  const ok = [offset, length, width, height].every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);
  return ok
    ? ({ offset, length, width, height } as { offset: number; length: number; width: number; height: number })
    : null;
}

async function openPage(reader: RangeReader, locator: PageLocator): Promise<PageContent> {
  const image = imageRange(locator);
  if (!image) {
    if (locator.kind === 'pdf-render')
      throw new BookAnalysisError('render_required', 'This PDF page has to be rendered');
    throw new BookAnalysisError('page_not_found', 'The page index of this book is not valid; analyse the book again');
  }
  if (image.offset + image.length > reader.size) {
    throw new BookAnalysisError(
      'page_not_found',
      'The page is not where the book index says; the book needs to be analysed again',
    );
  }
  return { stream: await reader.stream(image.offset, image.length), size: image.length, mediaType: 'image/jpeg' };
}

/** Embedded JPEGs: known from the image dictionary, no read needed. Rendered pages: null. */
async function readPageHeader(_reader: RangeReader, locator: PageLocator): Promise<ImageDimensions | null> {
  const image = imageRange(locator);
  return image ? { width: image.width, height: image.height } : null;
}

export const pdfContainer: BookContainer = { format: 'pdf', analyze, openPage, readPageHeader };
