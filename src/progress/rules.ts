/**
 * The rules of reading progress, written once (DECISIONS.md §Reader apps; API.md §2 ReadProgress) and
 * applied by every place that moves or shows it: PUT /books/{id}/progress, Readium progression, KOReader
 * sync, OPDS page streaming, the Komga API, and the web app's readers and progress bars. Pure functions
 * of the book's page facts, with no dependency: the web app imports this module as it is.
 *
 * Pages are 1-based. A book with image pages (comics, PDFs, image-only EPUBs) moves page by page; a
 * reflowable EPUB has no page images, its `pageCount` counts reading positions and its place is a
 * fraction (0..1) of the text, kept as the reader sends it.
 */

/** What the rules need to know about a book. */
export interface PagedBook {
  fileFormat: 'cbz' | 'cbr' | 'epub' | 'pdf';
  epubLayout: 'image' | 'reflowable' | null;
  pageCount: number;
}

/** A reflowable EPUB: read as flowing text, not page images (DECISIONS.md §Books). */
export function isReflowable(book: Pick<PagedBook, 'fileFormat' | 'epubLayout'>): boolean {
  return book.fileFormat === 'epub' && book.epubLayout !== 'image';
}

/** The last page: the page count, or 1 for a book not analysed yet (a place must still be a page). */
export function lastPage(pageCount: number): number {
  return Math.max(pageCount, 1);
}

/** `page` is a page of a book of `pageCount` pages (1..pageCount, a whole number). */
export function isPageInRange(page: number, pageCount: number): boolean {
  return Number.isInteger(page) && page >= 1 && page <= pageCount;
}

/** The page a fraction of the book falls on: the page that holds it, from 1 to the last page. */
export function pageAtFraction(fraction: number, pageCount: number): number {
  const pages = lastPage(pageCount);
  return Math.min(pages, Math.max(1, Math.ceil(fraction * pages)));
}

/** The fraction of the book read when the reader is on `page` (its end): page / pageCount. */
export function fractionAtPage(page: number, pageCount: number): number {
  return page / lastPage(pageCount);
}

/** Reaching the last page completes a book. */
export function completesAtPage(page: number, pageCount: number): boolean {
  return page >= lastPage(pageCount);
}

/**
 * Reaching the end of a reflowable text completes it. `slack`: how far before the end still counts, for
 * a reader whose reported fraction is where the last screen starts (the web EPUB reader's).
 */
export function completesAtFraction(fraction: number, slack = 0): boolean {
  return fraction >= 1 - slack;
}

/**
 * The stored percentage of a place: a reflowable EPUB keeps the fraction the reader sent; every other
 * book (or a reflowable one sent without a fraction) counts the page: page / pageCount.
 */
export function progressFraction(book: PagedBook, page: number, sent?: number): number {
  return isReflowable(book) && sent !== undefined ? sent : fractionAtPage(page, book.pageCount);
}

/** What a progress bar shows of a user's progress: 1 when completed, else the stored percentage or the page's. */
export function readFraction(
  progress: { completed: boolean; currentPage: number; progressPercentage: number | null } | null | undefined,
  pageCount: number,
): number {
  if (!progress) return 0;
  if (progress.completed) return 1;
  if (progress.progressPercentage !== null) return progress.progressPercentage;
  return pageCount > 0 ? progress.currentPage / pageCount : 0;
}
