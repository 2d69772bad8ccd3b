/**
 * What a file really is, from its first bytes rather than its name: a `.cbz` that is really a RAR, or
 * a `.pdf` that is HTML, is reported in plain words (and `detectedFormat` lets the caller retry).
 */
import type { BookFormat } from './container';
import { BookAnalysisError } from './errors';
import type { RangeReader } from './range-reader';

export type SniffedFormat = 'zip' | 'epub' | 'rar' | '7z' | 'pdf' | 'unknown';

/** Enough for every signature below (PDF allows junk before `%PDF-` within the first 1 KiB). */
export const SNIFF_LENGTH = 1024;

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const ZIP_LOCAL = ascii('PK\x03\x04');
const ZIP_EMPTY = ascii('PK\x05\x06');
const ZIP_SPANNED = ascii('PK\x07\x08');
const RAR = ascii('Rar!\x1a\x07');
const SEVEN_ZIP = ascii("7z\xbc\xaf'\x1c");
const PDF = ascii('%PDF-');
const EPUB_MIMETYPE = ascii('mimetypeapplication/epub+zip');

function startsWith(bytes: Uint8Array, prefix: Uint8Array, at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((byte, i) => bytes[at + i] === byte);
}

export function sniffFormat(head: Uint8Array): SniffedFormat {
  if (startsWith(head, ZIP_LOCAL)) {
    // The EPUB OCF rule: the first entry is a stored `mimetype` whose data follows its 30-byte header.
    return startsWith(head, EPUB_MIMETYPE, 30) ? 'epub' : 'zip';
  }
  if (startsWith(head, ZIP_EMPTY) || startsWith(head, ZIP_SPANNED)) return 'zip';
  if (startsWith(head, RAR)) return 'rar';
  if (startsWith(head, SEVEN_ZIP)) return '7z';
  const window = head.subarray(0, SNIFF_LENGTH);
  for (let i = 0; i + PDF.length <= window.length; i++) {
    if (startsWith(window, PDF, i)) return 'pdf';
  }
  return 'unknown';
}

const EXTENSIONS: Record<string, BookFormat> = {
  cbz: 'cbz',
  zip: 'cbz',
  cbr: 'cbr',
  rar: 'cbr',
  epub: 'epub',
  pdf: 'pdf',
};

/** Book format implied by a file name, or null when Longbox does not read that extension. */
export function formatFromExtension(name: string): BookFormat | null {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? (EXTENSIONS[name.slice(dot + 1).toLowerCase()] ?? null) : null;
}

const ACCEPTS: Record<BookFormat, SniffedFormat[]> = {
  cbz: ['zip', 'epub'],
  epub: ['zip', 'epub'],
  cbr: ['rar'],
  pdf: ['pdf'],
};

const EXPECTED_KIND: Record<BookFormat, string> = {
  cbz: 'a ZIP archive',
  epub: 'a ZIP archive',
  cbr: 'a RAR archive',
  pdf: 'a PDF document',
};

const ACTUAL: Record<Exclude<SniffedFormat, 'unknown'>, { words: string; format: BookFormat | null; ext: string }> = {
  zip: { words: 'a ZIP archive', format: 'cbz', ext: '.cbz' },
  epub: { words: 'an EPUB book', format: 'epub', ext: '.epub' },
  rar: { words: 'a RAR archive', format: 'cbr', ext: '.cbr' },
  '7z': { words: 'a 7-Zip archive', format: null, ext: '' },
  pdf: { words: 'a PDF document', format: 'pdf', ext: '.pdf' },
};

async function readHead(reader: RangeReader): Promise<Uint8Array> {
  if (reader.size === 0) throw new BookAnalysisError('truncated', 'The file is empty');
  return reader.read(0, Math.min(reader.size, SNIFF_LENGTH));
}

/** The book format a sniffed signature means, or null for anything Longbox cannot read. */
export function formatOfSniffed(sniffed: SniffedFormat): BookFormat | null {
  return sniffed === 'unknown' ? null : ACTUAL[sniffed].format;
}

/** Throws BookAnalysisError('format_mismatch' / 'unsupported_format') when the bytes are not `expected`. */
export async function assertFormat(reader: RangeReader, expected: BookFormat): Promise<SniffedFormat> {
  const sniffed = sniffFormat(await readHead(reader));
  if (ACCEPTS[expected].includes(sniffed)) return sniffed;
  const named = `The file is not ${EXPECTED_KIND[expected]} although it is named .${expected}`;
  if (sniffed === 'unknown') throw new BookAnalysisError('format_mismatch', named);
  const actual = ACTUAL[sniffed];
  if (!actual.format) {
    throw new BookAnalysisError(
      'unsupported_format',
      `${named}: it is ${actual.words}, which Longbox cannot read; repack the book as a CBZ`,
    );
  }
  throw new BookAnalysisError(
    'format_mismatch',
    `${named}: it is ${actual.words}; rename it to ${actual.ext}`,
    actual.format,
  );
}
