/**
 * The comic reader's page layout (issue 12 point 3): single and double page, wide pages alone, the
 * cover-alone option, splitting wide two-page scans, and right-to-left order.
 */
import { describe, expect, it } from 'vitest';
import {
  buildViews,
  isWide,
  type LayoutOptions,
  type PageGeometry,
  pagesOf,
  progressPageOf,
  type View,
  viewIndexOfPage,
} from './layout';

const portrait = (number: number): PageGeometry => ({ number, width: 1000, height: 1500 });
const wide = (number: number): PageGeometry => ({ number, width: 2000, height: 1500 });
const unknown = (number: number): PageGeometry => ({ number, width: null, height: null });

const options = (overrides: Partial<LayoutOptions>): LayoutOptions => ({
  mode: 'ltr',
  layout: 'single',
  coverAlone: false,
  splitWide: false,
  ...overrides,
});

/** A compact picture of the views: "1|2-3|4L|4R" (R/L = halves; order as shown left to right). */
const shape = (views: View[]) =>
  views
    .map((view) =>
      view.slots
        .map((slot) => `${slot.page}${slot.part === 'whole' ? '' : slot.part === 'left' ? 'L' : 'R'}`)
        .join('-'),
    )
    .join('|');

describe('page layout', () => {
  it('tells wide pages from portrait ones and treats unmeasured pages as portrait', () => {
    expect(isWide(wide(1))).toBe(true);
    expect(isWide(portrait(1))).toBe(false);
    expect(isWide({ number: 1, width: 1500, height: 1500 })).toBe(false);
    expect(isWide(unknown(1))).toBe(false);
  });

  it('shows one page per screen in single layout', () => {
    expect(shape(buildViews([portrait(1), portrait(2), wide(3)], options({})))).toBe('1|2|3');
  });

  it('pairs pages in double layout, with a wide page alone and its lonely neighbour alone too', () => {
    const pages = [portrait(1), portrait(2), portrait(3), wide(4), portrait(5), portrait(6), portrait(7)];
    expect(shape(buildViews(pages, options({ layout: 'double' })))).toBe('1-2|3|4|5-6|7');
  });

  it('keeps the cover alone so printed spreads pair up', () => {
    const pages = [1, 2, 3, 4, 5].map(portrait);
    expect(shape(buildViews(pages, options({ layout: 'double', coverAlone: true })))).toBe('1|2-3|4-5');
    expect(shape(buildViews(pages, options({ layout: 'double', coverAlone: false })))).toBe('1-2|3-4|5');
  });

  it('puts the earlier page on the right in right-to-left spreads', () => {
    const pages = [1, 2, 3, 4, 5].map(portrait);
    expect(shape(buildViews(pages, options({ mode: 'rtl', layout: 'double', coverAlone: true })))).toBe('1|3-2|5-4');
  });

  it('splits a wide scan into two screens, left half first in LTR and right half first in RTL', () => {
    const pages = [portrait(1), wide(2), portrait(3)];
    expect(shape(buildViews(pages, options({ splitWide: true })))).toBe('1|2L|2R|3');
    expect(shape(buildViews(pages, options({ mode: 'rtl', splitWide: true })))).toBe('1|2R|2L|3');
  });

  it('does not split in double layout (the wide page fills the spread) nor in vertical modes', () => {
    const pages = [portrait(1), wide(2), portrait(3)];
    expect(shape(buildViews(pages, options({ layout: 'double', splitWide: true })))).toBe('1|2|3');
    expect(shape(buildViews(pages, options({ mode: 'ttb', splitWide: true, layout: 'double' })))).toBe('1|2|3');
    expect(shape(buildViews(pages, options({ mode: 'webtoon', splitWide: true })))).toBe('1|2|3');
  });

  it('finds the view of a page, records the last page of a spread as progress, and clamps beyond the end', () => {
    const views = buildViews(
      [1, 2, 3, 4, 5].map(portrait),
      options({ mode: 'rtl', layout: 'double', coverAlone: true }),
    );
    expect(viewIndexOfPage(views, 1)).toBe(0);
    expect(viewIndexOfPage(views, 3)).toBe(1);
    expect(viewIndexOfPage(views, 2)).toBe(1);
    expect(viewIndexOfPage(views, 99)).toBe(2);
    expect(viewIndexOfPage(views, 0)).toBe(0);
    expect(pagesOf(views[1]!)).toEqual([2, 3]);
    expect(progressPageOf(views[1]!)).toBe(3);
    const split = buildViews([portrait(1), wide(2)], options({ mode: 'rtl', splitWide: true }));
    expect(viewIndexOfPage(split, 2)).toBe(1);
    expect(progressPageOf(split[2]!)).toBe(2);
  });

  it('lays out an empty book as no views', () => {
    expect(buildViews([], options({ layout: 'double', coverAlone: true }))).toEqual([]);
  });
});
