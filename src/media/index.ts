/**
 * The format registry: the scanner and the page endpoint go through here, never to a format module
 * directly, so every format is read through the same BookContainer interface.
 */
import { cbrContainer } from './cbr';
import { cbzContainer } from './cbz';
import type { BookAnalysis, BookContainer, BookFormat } from './container';
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

/** Analyse one book file; throws BookAnalysisError with a plain-words message when the file is unreadable. */
export function analyzeBook(format: BookFormat, reader: RangeReader): Promise<BookAnalysis> {
  return containerFor(format).analyze(reader);
}
