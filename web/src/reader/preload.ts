/**
 * Which page images to fetch ahead of the reader. Forward views first (the reader is most likely going
 * there), then one view back, then the next book's first page when the end is near, so a page turn is
 * served from the browser's cache. Each request carries the width the page will be drawn at, so the
 * preload and the page shown are the same URL.
 */
import { type FitMode, sizeView, type Viewport } from './fit';
import type { PageGeometry, ReadingMode, View } from './layout';
import { pageUrl } from './page-url';

export interface PreloadOptions {
  ahead: number;
  behind: number;
  fit: FitMode;
  mode: ReadingMode;
  viewport: Viewport;
}

export const DEFAULT_PRELOAD = { ahead: 3, behind: 1 } as const;

/** The URLs of the images a view shows, as the reader draws them. */
export function viewUrls(
  bookId: string,
  view: View,
  pages: ReadonlyMap<number, PageGeometry>,
  fit: FitMode,
  viewport: Viewport,
  mode: ReadingMode,
): string[] {
  const urls = sizeView(view, pages, fit, viewport, mode).map((slot) => pageUrl(bookId, slot.page, slot.requestWidth));
  return [...new Set(urls)];
}

/** Image URLs to preload from `current`, best first, without the current view's own. */
export function planPreload(
  bookId: string,
  views: readonly View[],
  pages: ReadonlyMap<number, PageGeometry>,
  current: number,
  options: PreloadOptions,
): string[] {
  const order: number[] = [];
  for (let step = 1; step <= options.ahead; step++) order.push(current + step);
  for (let step = 1; step <= options.behind; step++) order.push(current - step);
  const shown = new Set(
    views[current] ? viewUrls(bookId, views[current], pages, options.fit, options.viewport, options.mode) : [],
  );
  const planned: string[] = [];
  for (const index of order) {
    const view = views[index];
    if (!view) continue;
    for (const url of viewUrls(bookId, view, pages, options.fit, options.viewport, options.mode)) {
      if (!shown.has(url) && !planned.includes(url)) planned.push(url);
    }
  }
  return planned;
}

/** The next book's first page is worth fetching once the reader is this close to the end. */
export function nearEnd(views: readonly View[], current: number, ahead: number): boolean {
  return current >= views.length - 1 - ahead;
}

/** Every image URL of the book as this device shows it now: what "download for offline" keeps. */
export function allViewUrls(
  bookId: string,
  views: readonly View[],
  pages: ReadonlyMap<number, PageGeometry>,
  fit: FitMode,
  viewport: Viewport,
  mode: ReadingMode,
): string[] {
  return [...new Set(views.flatMap((view) => viewUrls(bookId, view, pages, fit, viewport, mode)))];
}
