/**
 * Which image a page request asks for (API.md §4 Pages: `width`, `height`, `format`), its strong ETag,
 * and where a rendered copy is kept in the CACHE bucket. Both include the book's R2 etag, so a replaced
 * file gets new ETags and new cache keys: nothing rendered from the old file is ever served for it.
 */
import type { PageLocator } from '../media/container';
import type { OutputFormat } from '../media/image-renderer';
import { versionRenditionsPrefix } from '../storage/cache-keys';

export interface PageVariant {
  width?: number | undefined;
  height?: number | undefined;
  format?: OutputFormat | undefined;
}

/**
 * Bumped when the renderer's output for the same request changes (quality, resize filter), so clients
 * and the CACHE bucket do not keep serving the old rendering under an unchanged ETag.
 */
const RENDITION_VERSION = 'r1';

const FORMAT_OF_MEDIA_TYPE: Record<string, OutputFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
};

export function isOriginalRequest(variant: PageVariant): boolean {
  return variant.width === undefined && variant.height === undefined && variant.format === undefined;
}

/** `orig`, or e.g. `w800-h-webp` (an absent bound or format is left empty). */
export function variantName(variant: PageVariant): string {
  if (isOriginalRequest(variant)) return 'orig';
  return `w${variant.width ?? ''}-h${variant.height ?? ''}-${variant.format ?? ''}`;
}

export function pageEtag(bookEtag: string, pageNumber: number, variant: PageVariant): string {
  return `"${bookEtag}-p${pageNumber}-${variantName(variant)}-${RENDITION_VERSION}"`;
}

/** The rendition's name within its page: its parameters and the renderer's version. */
export const renditionName = (variant: PageVariant) => `${variantName(variant)}-${RENDITION_VERSION}`;

export function renditionCacheKey(bookId: string, bookEtag: string, pageNumber: number, variant: PageVariant): string {
  return `${versionRenditionsPrefix(bookId, bookEtag)}${pageNumber}/${renditionName(variant)}`;
}

/** The output format when the client gave none: the page's own, or a close one it can be encoded as. */
export function outputFormatFor(mediaType: string, variant: PageVariant): OutputFormat {
  if (variant.format) return variant.format;
  return FORMAT_OF_MEDIA_TYPE[mediaType] ?? (mediaType === 'image/gif' ? 'png' : 'jpeg');
}

/** PDF pages that are not one embedded image exist only once rendered. */
export function needsRendering(locator: PageLocator): boolean {
  return locator.kind === 'pdf-render';
}

/**
 * Whether the request needs image work given the original's size: a bound smaller than the page, or a
 * format other than the page's. A bound at or above the page's size is no work (pages are never
 * enlarged), so such a request is answered with the original bytes.
 */
export function needsTransform(
  original: { mediaType: string; width: number; height: number },
  variant: PageVariant,
): boolean {
  if (variant.format !== undefined && variant.format !== FORMAT_OF_MEDIA_TYPE[original.mediaType]) return true;
  return (
    (variant.width !== undefined && variant.width < original.width) ||
    (variant.height !== undefined && variant.height < original.height)
  );
}
