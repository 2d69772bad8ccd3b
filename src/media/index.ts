/**
 * The format registry: the scanner and the page endpoint go through here, never to a format module
 * directly, so every format is read through the same BookContainer interface.
 */
import { cbrContainer } from './cbr';
import { cbzContainer } from './cbz';
import type { BookAnalysis, BookContainer, BookFormat } from './container';
import { detectBookFormat } from './detect';
import { epubContainer } from './epub';
import { pdfContainer } from './pdf';
import type { RangeReader } from './range-reader';

const CONTAINERS: Record<BookFormat, BookContainer> = {
  cbz: cbzContainer,
  cbr: cbrContainer,
  epub: epubContainer,
  pdf: pdfContainer,
};

export function containerFor(format: BookFormat): BookContainer {
  return CONTAINERS[format];
}

/**
 * The format a file is read as: what its bytes are when Longbox reads that (DECISIONS.md §Books, as
 * Komga does: a `.zip` holding an EPUB is an EPUB, a `.cbz` that is really RAR is a CBR), else what
 * its name says, so the container explains in plain words what is wrong. An `.epub` that is a plain
 * ZIP stays an EPUB: its container says why it is not a valid one.
 */
export async function formatOfContent(named: BookFormat, reader: RangeReader): Promise<BookFormat> {
  const actual = await detectBookFormat(reader);
  if (!actual || actual === named || (named === 'epub' && actual === 'cbz')) return named;
  return actual;
}

/**
 * Analyse one book file as what its content is (`analysis.format` says which); throws
 * BookAnalysisError with a plain-words message when the file is unreadable.
 */
export async function analyzeBook(named: BookFormat, reader: RangeReader): Promise<BookAnalysis> {
  return containerFor(await formatOfContent(named, reader)).analyze(reader);
}
