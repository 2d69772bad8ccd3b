/**
 * The format registry: the scanner and the page endpoint go through here, never to a format module
 * directly, so every format is read through the same BookContainer interface.
 */
import { cbrContainer } from './cbr';
import { cbzContainer } from './cbz';
import type { BookAnalysis, BookContainer, BookFormat } from './container';
import { formatOfSniffed, SNIFF_LENGTH, sniffFormat } from './detect';
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
export function formatOfContent(named: BookFormat, head: Uint8Array): BookFormat {
  const actual = formatOfSniffed(sniffFormat(head));
  if (!actual || actual === named || (named === 'epub' && actual === 'cbz')) return named;
  return actual;
}

/** `reader` with its first bytes answered from `head`: every container checks them again. */
function withHead(reader: RangeReader, head: Uint8Array): RangeReader {
  return {
    size: reader.size,
    read: (offset, length) =>
      offset >= 0 && length >= 0 && offset + length <= head.length
        ? Promise.resolve(head.slice(offset, offset + length))
        : reader.read(offset, length),
    stream: (offset, length) => reader.stream(offset, length),
  };
}

/**
 * Analyse one book file as what its content is (`analysis.format` says which); throws
 * BookAnalysisError with a plain-words message when the file is unreadable.
 */
export async function analyzeBook(named: BookFormat, reader: RangeReader): Promise<BookAnalysis> {
  if (reader.size === 0) return containerFor(named).analyze(reader); // its container says "empty"
  const head = await reader.read(0, Math.min(reader.size, SNIFF_LENGTH));
  return containerFor(formatOfContent(named, head)).analyze(withHead(reader, head));
}
