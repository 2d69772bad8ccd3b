/**
 * Fit modes and the `width=` the reader asks for (issue 12 point 3: pages requested at the device's pixel
 * width so the edge cache serves them), and the preload plan built from the same sizes.
 */
import { describe, expect, it } from 'vitest';
import { requestWidthFor, roundUpToStep, sizeView, type Viewport } from './fit';
import { buildViews, type PageGeometry } from './layout';
import { nearEnd, planPreload } from './preload';

const phone: Viewport = { width: 390, height: 844, devicePixelRatio: 3 };
const desktop: Viewport = { width: 1280, height: 800, devicePixelRatio: 1 };
const page = (number: number, width = 1600, height = 2400): PageGeometry => ({ number, width, height });
const geometry = (pages: PageGeometry[]) => new Map(pages.map((p) => [p.number, p]));

describe('fit and requested width', () => {
  it('rounds requested widths up to a shared step and never past the server limit', () => {
    expect(roundUpToStep(1)).toBe(160);
    expect(roundUpToStep(1170)).toBe(1280);
    expect(roundUpToStep(1280)).toBe(1280);
    expect(roundUpToStep(100_000)).toBe(8192);
  });

  it('asks for the original when the page is no wider than the screen needs', () => {
    expect(requestWidthFor(390, page(1, 800, 1200), phone)).toBeNull();
    expect(requestWidthFor(390, page(1), phone)).toBe(1280);
  });

  it('fits a portrait page to a phone screen at its pixel width', () => {
    const [slot] = sizeView({ slots: [{ page: 1, part: 'whole' }] }, geometry([page(1)]), 'screen', phone, 'ltr');
    expect(slot!.cssWidth).toBe(390);
    expect(slot!.cssHeight).toBe(585);
    expect(slot!.requestWidth).toBe(1280); // 390 css px × 3 = 1170 device px → 1280
  });

  it('fits height, width and original as asked', () => {
    const view = { slots: [{ page: 1, part: 'whole' as const }] };
    const pages = geometry([page(1)]);
    expect(sizeView(view, pages, 'height', desktop, 'ltr')[0]).toMatchObject({ cssHeight: 800, cssWidth: 533.33 });
    expect(sizeView(view, pages, 'width', desktop, 'ltr')[0]).toMatchObject({ cssWidth: 1280, cssHeight: 1920 });
    expect(sizeView(view, pages, 'original', desktop, 'ltr')[0]).toMatchObject({
      cssWidth: 1600,
      cssHeight: 2400,
      requestWidth: null,
    });
  });

  it('draws a split half at screen width and requests the whole scan at twice that', () => {
    const pages = geometry([page(1, 3200, 2400)]);
    const [slot] = sizeView({ slots: [{ page: 1, part: 'right' }] }, pages, 'width', phone, 'rtl');
    expect(slot!.cssWidth).toBe(390);
    expect(slot!.imageCssWidth).toBe(780);
    expect(slot!.requestWidth).toBe(2400); // 780 × 3 = 2340 → 2400
  });

  it('shares the screen between the two pages of a spread', () => {
    const pages = geometry([page(2), page(3)]);
    const slots = sizeView(
      {
        slots: [
          { page: 3, part: 'whole' },
          { page: 2, part: 'whole' },
        ],
      },
      pages,
      'screen',
      desktop,
      'rtl',
    );
    expect(slots.map((s) => s.page)).toEqual([3, 2]);
    expect(slots.every((s) => s.cssHeight === 800)).toBe(true);
    expect(slots[0]!.requestWidth).toBe(640); // 533 css px each
  });

  it('draws webtoon strips at most 900 css px wide', () => {
    const strip = geometry([page(1, 800, 6000)]);
    const [onDesktop] = sizeView({ slots: [{ page: 1, part: 'whole' }] }, strip, 'screen', desktop, 'webtoon');
    expect(onDesktop!.cssWidth).toBe(900);
    expect(onDesktop!.requestWidth).toBeNull(); // 800 px wide originals are already small enough
  });
});

describe('preload plan', () => {
  const pages = [1, 2, 3, 4, 5, 6].map((n) => page(n));
  const views = buildViews(pages, { mode: 'ltr', layout: 'single', coverAlone: false, splitWide: false });

  it('fetches the next pages first, then one back, at the width they will be shown', () => {
    const plan = planPreload('b1', views, geometry(pages), 2, {
      ahead: 2,
      behind: 1,
      fit: 'screen',
      mode: 'ltr',
      viewport: phone,
    });
    expect(plan).toEqual([
      '/api/v1/books/b1/pages/4?width=1280',
      '/api/v1/books/b1/pages/5?width=1280',
      '/api/v1/books/b1/pages/2?width=1280',
    ]);
  });

  it('stops at the ends of the book and knows when the end is near', () => {
    const plan = planPreload('b1', views, geometry(pages), 5, {
      ahead: 3,
      behind: 0,
      fit: 'screen',
      mode: 'ltr',
      viewport: phone,
    });
    expect(plan).toEqual([]);
    expect(nearEnd(views, 2, 3)).toBe(true);
    expect(nearEnd(views, 1, 3)).toBe(false);
  });

  it('does not preload the other half of a split page already on screen', () => {
    const mixed = [page(1), page(2, 3200, 2400), page(3)];
    const split = buildViews(mixed, { mode: 'ltr', layout: 'single', coverAlone: false, splitWide: true });
    const plan = planPreload('b1', split, geometry(mixed), 1, {
      ahead: 2,
      behind: 0,
      fit: 'screen',
      mode: 'ltr',
      viewport: desktop,
    });
    expect(plan).toEqual(['/api/v1/books/b1/pages/3?width=640']);
  });
});
