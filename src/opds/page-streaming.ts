/**
 * Which books reader apps can page through, and the image type a page arrives as (DECISIONS.md
 * §Reader apps, Page streaming): comics, PDFs and image-only EPUBs have image pages; a reflowable
 * EPUB is read from its file. The OPDS-PSE link type must be jpeg, png or gif: a book whose pages are
 * all one of those is streamed as stored, any other asks the page endpoint for `format=jpeg`.
 */
import type { BookDto } from '../schemas/book.schema';
import type { BookExtras } from './catalog-model';

const STREAMABLE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif']);

/** What the image renderer decodes (renderer/src/probe.ts): a page of another type cannot be converted. */
const CONVERTIBLE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/x-portable-pixmap',
  'image/x-portable-graymap',
  'image/x-portable-bitmap',
  'image/x-portable-anymap',
]);
export const isConvertiblePage = (mediaType: string) => CONVERTIBLE_TYPES.has(mediaType);

export function hasImagePages(book: BookDto, extras: BookExtras): boolean {
  if (book.deleted || book.analysisError !== null || book.pageCount < 1) return false;
  if (book.fileFormat === 'epub') return extras.epubLayout === 'image';
  return true;
}

/** The type every page is served as, and whether the page URL must ask for JPEG to get it. */
export function streamedPageType(extras: BookExtras): { type: string; convert: boolean } {
  const [only, ...others] = extras.pageTypes;
  if (only && others.length === 0 && STREAMABLE_TYPES.has(only)) return { type: only, convert: false };
  return { type: 'image/jpeg', convert: true };
}
