/**
 * The comic reader's page layout engine: turns a book's page list (with the width/height the API reports
 * after analysis) and the reader's settings into the sequence of "views" the reader steps through. A view
 * is what one screen shows: one page, half of a wide two-page scan, or two pages side by side. Pure, so
 * spreads, splits and right-to-left order are unit-tested without a browser.
 */

export type ReadingMode = 'ltr' | 'rtl' | 'ttb' | 'webtoon';
export type PageLayout = 'single' | 'double';

/** What the layout needs to know about a page (BookPageEntry's number, width and height). */
export interface PageGeometry {
  number: number;
  width: number | null;
  height: number | null;
}

export interface LayoutOptions {
  mode: ReadingMode;
  layout: PageLayout;
  /** Double layout: the first page (the cover) stands alone, so the spreads after it pair as printed. */
  coverAlone: boolean;
  /** Single layout: a wide page is shown as two halves, one screen each. */
  splitWide: boolean;
}

/** Which part of a page image a slot shows. */
export type PagePart = 'whole' | 'left' | 'right';

export interface PageSlot {
  page: number;
  part: PagePart;
}

/** One screen: its slots in visual order, left to right (top to bottom in vertical modes). */
export interface View {
  slots: PageSlot[];
}

/**
 * A page is wide when it is landscape: a two-page scan or a single panoramic page. Unanalysed pages
 * (null sizes) count as portrait, which is what almost every comic page is.
 */
export function isWide(page: PageGeometry): boolean {
  return page.width !== null && page.height !== null && page.height > 0 && page.width > page.height;
}

/** Continuous modes show every page in order; pairing and splitting only apply to the paged modes. */
export function isContinuous(mode: ReadingMode): boolean {
  return mode === 'webtoon';
}

export function buildViews(pages: readonly PageGeometry[], options: LayoutOptions): View[] {
  const rtl = options.mode === 'rtl';
  const horizontal = options.mode === 'ltr' || options.mode === 'rtl';
  if (!horizontal) return pages.map((page) => ({ slots: [{ page: page.number, part: 'whole' }] }));
  if (options.layout === 'double') return spreads(pages, options.coverAlone, rtl);
  const views: View[] = [];
  for (const page of pages) {
    if (options.splitWide && isWide(page)) {
      // Reading order of the halves follows the direction: the right half comes first in manga.
      const first: PagePart = rtl ? 'right' : 'left';
      const second: PagePart = rtl ? 'left' : 'right';
      views.push({ slots: [{ page: page.number, part: first }] }, { slots: [{ page: page.number, part: second }] });
    } else {
      views.push({ slots: [{ page: page.number, part: 'whole' }] });
    }
  }
  return views;
}

/**
 * Two pages per screen. A wide page is a spread already and stands alone; a portrait page whose partner
 * would be wide (or missing) stands alone too, rather than being paired with the wrong page. In RTL the
 * earlier page goes on the right.
 */
function spreads(pages: readonly PageGeometry[], coverAlone: boolean, rtl: boolean): View[] {
  const views: View[] = [];
  let index = 0;
  if (coverAlone && pages.length > 0) {
    views.push({ slots: [{ page: pages[0]!.number, part: 'whole' }] });
    index = 1;
  }
  while (index < pages.length) {
    const page = pages[index]!;
    const next = pages[index + 1];
    if (isWide(page) || next === undefined || isWide(next)) {
      views.push({ slots: [{ page: page.number, part: 'whole' }] });
      index += 1;
      continue;
    }
    const pair: PageSlot[] = [
      { page: page.number, part: 'whole' },
      { page: next.number, part: 'whole' },
    ];
    views.push({ slots: rtl ? pair.reverse() : pair });
    index += 2;
  }
  return views;
}

/** The pages a view shows, in reading order (lowest first). */
export function pagesOf(view: View): number[] {
  return [...new Set(view.slots.map((slot) => slot.page))].sort((a, b) => a - b);
}

/** The view that shows `page` (its first half when split); the last view when the page is beyond the end. */
export function viewIndexOfPage(views: readonly View[], page: number): number {
  const index = views.findIndex((view) => view.slots.some((slot) => slot.page === page));
  if (index >= 0) return index;
  return page < 1 ? 0 : Math.max(0, views.length - 1);
}

/** The page progress records for a view: its last page, so finishing a spread counts both pages. */
export function progressPageOf(view: View): number {
  const pages = pagesOf(view);
  return pages[pages.length - 1] ?? 1;
}
