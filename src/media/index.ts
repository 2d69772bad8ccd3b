/**
 * The format registry: the scanner and the page endpoint go through here, never to a format module
 * directly, so every format is read through the same BookContainer interface.
 */
import { cbzContainer } from './cbz';
import type { BookAnalysis, BookContainer, BookFormat } from './container';
import { epubContainer } from './epub';
import { BookAnalysisError } from './errors';
import { pdfContainer } from './pdf';
import type { RangeReader } from './range-reader';

const CONTAINERS: Partial<Record<BookFormat, BookContainer>> = {
  cbz: cbzContainer,
  epub: epubContainer,
  pdf: pdfContainer,
};

export function containerFor(format: BookFormat): BookContainer {
  const container = CONTAINERS[format];
  if (!container) throw new BookAnalysisError('unsupported_format', `Longbox cannot read .${format} files yet`);
  return container;
}

/** Analyse one book file; throws BookAnalysisError with a plain-words message when the file is unreadable. */
export function analyzeBook(format: BookFormat, reader: RangeReader): Promise<BookAnalysis> {
  return containerFor(format).analyze(reader);
}
