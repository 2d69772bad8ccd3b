/**
 * Why a book could not be analysed or a page could not be read. Analysis failures are data, not
 * crashes: the scanner stores `code` and `message` on the book (`analysisError`) and goes on.
 * Messages are written for the person who owns the file. Codes are listed in docs/error-codes.md;
 * a retired code is never reused.
 */
export const BOOK_ANALYSIS_ERROR_CODES = [
  'file_missing',
  'truncated',
  'format_mismatch',
  'unsupported_format',
  'encrypted',
  'unsupported_compression',
  'corrupt',
  'crc_mismatch',
  'no_pages',
  'not_an_epub',
  'too_large',
  'multi_volume',
  'dictionary_too_large',
  'page_not_found',
  'render_required',
] as const;

export type BookAnalysisErrorCode = (typeof BOOK_ANALYSIS_ERROR_CODES)[number];

export class BookAnalysisError extends Error {
  override readonly name = 'BookAnalysisError';
  readonly code: BookAnalysisErrorCode;
  /** For `format_mismatch`: the format the bytes really are, so a caller may retry with it. */
  readonly detectedFormat: string | null;

  constructor(code: BookAnalysisErrorCode, message: string, detectedFormat: string | null = null) {
    super(message);
    this.code = code;
    this.detectedFormat = detectedFormat;
  }
}

export function isBookAnalysisError(error: unknown): error is BookAnalysisError {
  return error instanceof BookAnalysisError;
}

export const truncatedError = () =>
  new BookAnalysisError('truncated', 'The file is truncated: it ends before the data it describes');
