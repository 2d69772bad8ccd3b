/**
 * A CBZ or CBR as a fixed-layout EPUB (one XHTML page per image, `rendition:layout pre-paginated`), for
 * e-readers that sync EPUBs only (Kobo: DECISIONS.md §Kobo e-readers). The pages come from the book's page
 * index as analysis stored it; their images are copied, never re-encoded. Only EPUB's core image types can go
 * in as they are (JPEG, PNG, GIF: EPUB 3.2 §Core Media Types): a comic with WebP, AVIF, JPEG XL or BMP pages
 * is not written (`epubRefusal` says why).
 */
import type { BookFormat, PageLocator } from '../container';
import { type ImageSource, imageForm, imageSourceOf } from './image-sources';
import type { ComicEpubImage } from './layout';
import { type EpubPage, isEpubImageType } from './package-files';

/** A page as the page index stores it (book_pages). */
export interface IndexedPage {
  number: number;
  mediaType: string;
  width: number | null;
  height: number | null;
  locator: unknown;
}

/** A page image before its CRC is known for sure (a RAR5 BLAKE2 archive records none). */
export type PendingImage = Omit<ComicEpubImage, 'form'> & {
  form: Omit<ComicEpubImage['form'], 'crc32'> & { crc32: number | null };
};

/** When no page's size is known, a portrait page of a common comic's proportions. */
const FALLBACK_SIZE = { width: 1000, height: 1500 };

/** Why the pages cannot go into an EPUB as they are; null when they can. */
export function epubRefusal(pages: ReadonlyArray<Pick<IndexedPage, 'mediaType'>>): string | null {
  if (pages.length === 0) return 'the book has no pages';
  const other = [...new Set(pages.map((p) => p.mediaType).filter((type) => !isEpubImageType(type)))];
  if (other.length > 0) return `its pages include ${other.join(', ')}, which EPUB readers do not show`;
  return null;
}

/** The EPUB's images, in reading order; throws when a locator is not a page of this format. */
export function comicEpubImages(format: BookFormat, pages: readonly IndexedPage[]): PendingImage[] {
  const known = pages.find((p) => p.width && p.height);
  const fallback = known ? { width: known.width as number, height: known.height as number } : FALLBACK_SIZE;
  return [...pages]
    .sort((a, b) => a.number - b.number)
    .map((p, i) => {
      const source: ImageSource = imageSourceOf(format, p.locator as PageLocator);
      const page: EpubPage = {
        number: i + 1,
        mediaType: p.mediaType as EpubPage['mediaType'],
        width: p.width && p.height ? p.width : fallback.width,
        height: p.width && p.height ? p.height : fallback.height,
      };
      return { page, source, form: imageForm(source) };
    });
}
