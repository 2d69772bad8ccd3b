/**
 * A CBZ or CBR as a fixed-layout EPUB (one XHTML page per image, `rendition:layout pre-paginated`), for
 * e-readers that sync EPUBs only (Kobo: DECISIONS.md §Kobo e-readers). The pages come from the book's page
 * index as analysis stored it; their images are copied, never re-encoded. Only EPUB's core image types can go
 * in as they are (JPEG, PNG, GIF: EPUB 3.2 §Core Media Types): a comic with WebP, AVIF, JPEG XL or BMP pages
 * is not written (`epubRefusal` says why) — unless pages are fitted to a device's screen (`PageFit`): then a
 * page larger than the box, or in a type no EPUB shows, is redrawn as a JPEG within the box (by the renderer,
 * which reads JPEG, PNG, GIF and WebP), and the others are still copied.
 */
import type { BookFormat, PageLocator } from '../container';
import { type ImageSource, imageForm, imageSourceOf } from './image-sources';
import type { ComicEpubImage } from './layout';
import { EPUB_IMAGE_TYPES, type EpubPage, isEpubImageType } from './package-files';
import { STORED } from './zip-records';

/** A page as the page index stores it (book_pages). */
export interface IndexedPage {
  number: number;
  mediaType: string;
  width: number | null;
  height: number | null;
  locator: unknown;
}

/** A page image before its CRC is known for sure (a RAR5 BLAKE2 archive records none; a redrawn page until drawn). */
export type PendingImage = Omit<ComicEpubImage, 'form'> & {
  form: Omit<ComicEpubImage['form'], 'crc32'> & { crc32: number | null };
};

/** The box pages are fitted into for a device (its screen), in pixels. */
export interface PageFit {
  width: number;
  height: number;
}

/** Image types the renderer reads (src/media/image-renderer.ts): what a page to be redrawn may be. */
const DRAWABLE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** A page's size within the box: the aspect kept, never enlarged (the renderer's rule, renderer/src/pipeline/geometry.ts). */
export function fittedSize(size: { width: number; height: number }, fit: PageFit): { width: number; height: number } {
  const scale = Math.min(1, fit.width / size.width, fit.height / size.height);
  if (scale === 1) return { width: size.width, height: size.height };
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

/** The page is redrawn for the box: larger than it, or in a type no EPUB shows. */
export const needsRedraw = (page: { mediaType: string; width: number; height: number }, fit: PageFit) =>
  !isEpubImageType(page.mediaType) || page.width > fit.width || page.height > fit.height;

/** When no page's size is known, a portrait page of a common comic's proportions. */
const FALLBACK_SIZE = { width: 1000, height: 1500 };

/** The page types that can go into the EPUB: copied as they are, or, with `fit`, redrawn when they must be. */
export const epubPageTypes = (fit: PageFit | null): string[] => (fit ? [...DRAWABLE] : Object.keys(EPUB_IMAGE_TYPES));

/** Why the pages cannot go into an EPUB (as they are, or redrawn for `fit`); null when they can. */
export function epubRefusal(
  pages: ReadonlyArray<Pick<IndexedPage, 'mediaType'>>,
  fit: PageFit | null = null,
): string | null {
  if (pages.length === 0) return 'the book has no pages';
  const types = new Set(epubPageTypes(fit));
  const fits = (type: string) => types.has(type);
  const other = [...new Set(pages.map((p) => p.mediaType).filter((type) => !fits(type)))];
  if (other.length === 0) return null;
  return fit
    ? `its pages include ${other.join(', ')}, which Longbox cannot redraw`
    : `its pages include ${other.join(', ')}, which EPUB readers do not show`;
}

/**
 * The EPUB's images, in reading order; throws when a locator is not a page of this format. With `fit`, a page to
 * redraw is a JPEG of its fitted size whose data (and so CRC and length) the caller provides.
 */
export function comicEpubImages(
  format: BookFormat,
  pages: readonly IndexedPage[],
  fit: PageFit | null = null,
): PendingImage[] {
  const known = pages.find((p) => p.width && p.height);
  const fallback = known ? { width: known.width as number, height: known.height as number } : FALLBACK_SIZE;
  return [...pages]
    .sort((a, b) => a.number - b.number)
    .map((p, i): PendingImage => {
      const source: ImageSource = imageSourceOf(format, p.locator as PageLocator);
      const size = p.width && p.height ? { width: p.width, height: p.height } : fallback;
      const copied = { number: i + 1, mediaType: p.mediaType as EpubPage['mediaType'], ...size };
      if (fit && needsRedraw(copied, fit)) {
        const page: EpubPage = { number: i + 1, mediaType: 'image/jpeg', ...fittedSize(size, fit) };
        const form = { ...imageForm(source), method: STORED as typeof STORED, crc32: null, compressedSize: 0, size: 0 };
        return { page, source, form, redraw: { sourcePage: p.number } };
      }
      return { page: copied, source, form: imageForm(source), redraw: null };
    });
}
