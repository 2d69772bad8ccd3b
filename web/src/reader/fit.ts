/**
 * Sizing a view on screen and choosing the `width=` to ask the server for. The requested width is the
 * device-pixel width the image is actually drawn at, rounded up to a step, so a phone downloads small
 * files, every page of a book at one size shares the edge cache, and a preloaded page is the very URL the
 * reader shows next (the browser's cache answers it).
 */
import type { PageGeometry, PagePart, ReadingMode, View } from './layout';

export type FitMode = 'screen' | 'width' | 'height' | 'original';

export interface Viewport {
  /** CSS pixels. */
  width: number;
  height: number;
  devicePixelRatio: number;
}

/** How one slot is drawn: the visible box, and the whole image's width (twice the box for a half page). */
export interface SlotSize {
  page: number;
  part: PagePart;
  cssWidth: number;
  cssHeight: number;
  imageCssWidth: number;
  /** `width=` for the page request; null asks for the original (it is no wider than needed). */
  requestWidth: number | null;
}

/** Requested widths are rounded up to a multiple of this, so nearby screens share cached sizes. */
export const WIDTH_STEP = 160;
/** The server refuses larger sides (MAX_PAGE_SIDE). */
export const MAX_REQUEST_SIDE = 8192;
/** Aspect (width / height) assumed for a page the server has not measured yet: a typical comic page. */
export const UNKNOWN_ASPECT = 2 / 3;
/** Webtoon strips are drawn no wider than this on large screens, as webtoon apps do. */
export const WEBTOON_MAX_CSS_WIDTH = 900;

export function roundUpToStep(pixels: number): number {
  return Math.min(MAX_REQUEST_SIDE, Math.max(WIDTH_STEP, Math.ceil(pixels / WIDTH_STEP) * WIDTH_STEP));
}

/** The width to request for an image drawn `imageCssWidth` CSS pixels wide; null when the original will do. */
export function requestWidthFor(imageCssWidth: number, page: PageGeometry, viewport: Viewport): number | null {
  const wanted = roundUpToStep(imageCssWidth * viewport.devicePixelRatio);
  if (page.width !== null && page.width <= wanted) return null;
  return wanted;
}

function aspectOf(page: PageGeometry): number {
  return page.width && page.height ? page.width / page.height : UNKNOWN_ASPECT;
}

/** The sizes of a view's slots under a fit mode. `pages` maps page numbers to their geometry. */
export function sizeView(
  view: View,
  pages: ReadonlyMap<number, PageGeometry>,
  fit: FitMode,
  viewport: Viewport,
  mode: ReadingMode,
): SlotSize[] {
  const slots = view.slots.map((slot) => {
    const page = pages.get(slot.page) ?? { number: slot.page, width: null, height: null };
    const whole = aspectOf(page);
    return { slot, page, whole, visible: slot.part === 'whole' ? whole : whole / 2 };
  });
  const totalAspect = slots.reduce((sum, s) => sum + s.visible, 0);
  const height = viewHeight(fit, viewport, totalAspect, mode, slots);
  return slots.map(({ slot, page, whole, visible }) => {
    const original = fit === 'original' && page.width !== null && page.height !== null;
    const cssHeight = original ? page.height! / viewport.devicePixelRatio : height;
    const cssWidth = original ? (visible / whole) * (page.width! / viewport.devicePixelRatio) : visible * height;
    const imageCssWidth = slot.part === 'whole' ? cssWidth : cssWidth * 2;
    return {
      page: slot.page,
      part: slot.part,
      cssWidth: round2(cssWidth),
      cssHeight: round2(cssHeight),
      imageCssWidth: round2(imageCssWidth),
      requestWidth: fit === 'original' ? null : requestWidthFor(imageCssWidth, page, viewport),
    };
  });
}

/** The common drawn height of the view's slots (pages side by side share one height). */
function viewHeight(
  fit: FitMode,
  viewport: Viewport,
  totalAspect: number,
  mode: ReadingMode,
  slots: { page: PageGeometry; visible: number }[],
): number {
  if (mode === 'webtoon') {
    const width = Math.min(viewport.width, WEBTOON_MAX_CSS_WIDTH);
    return width / totalAspect;
  }
  switch (fit) {
    case 'width':
      return viewport.width / totalAspect;
    case 'height':
      return viewport.height;
    case 'original': {
      // Unmeasured pages in "original" fall back to fitting the screen.
      const measured = slots.find((s) => s.page.height !== null);
      return measured
        ? measured.page.height! / viewport.devicePixelRatio
        : Math.min(viewport.height, viewport.width / totalAspect);
    }
    default:
      return Math.min(viewport.height, viewport.width / totalAspect);
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
