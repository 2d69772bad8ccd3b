/**
 * What a new reader trips on in the readers (issue 31 points 3, 4 and 8), in a real Chromium against a real
 * `wrangler dev`, on a phone (390×844, touch) and a desktop:
 * - the comic reader's menu closes with the tap that opened it, downloads nothing by itself, and two fingers
 *   with the menu open zoom the comic, not the browser's page (point 3);
 * - the EPUB reader's menu opens from a tap in the middle, its help lists its own keys, its settings are
 *   readable in the light theme and the dark theme has no white frame (point 4);
 * - the last page turned before a tab closes reaches the server, so another device sees it (point 8).
 */
import type { CDPSession, Page } from 'playwright-core';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { call } from './support/api';
import { describeWithChromium, type ViewportName } from './support/browser';
import { openComicReader, readerSuite } from './support/open-reader';

/** The phone of the issue: an iPhone-sized screen. */
const PHONE = { viewport: { width: 390, height: 844 } };
const WAIT = { timeout: 15_000 };

/** Longer than the reader's double-tap window: two taps this far apart are two taps, not a zoom. */
const BETWEEN_TAPS_MS = 450;

/**
 * Two fingers around `at`, moved from `from` to `to` px apart and lifted: a pinch outwards (to > from) or
 * inwards, as the touch screen reports it (the browser decides what it zooms).
 */
async function pinch(cdp: CDPSession, at: { x: number; y: number }, from: number, to: number) {
  const fingers = (apart: number) => [
    { x: at.x - apart / 2, y: at.y, id: 1 },
    { x: at.x + apart / 2, y: at.y, id: 2 },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(from) });
  const steps = 15;
  for (let step = 1; step <= steps; step++) {
    const apart = from + ((to - from) * step) / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(apart) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** What the screen shows of a pinch: the browser's own zoom, and the comic page's. */
const zoomState = (page: Page) =>
  page.evaluate(() => ({
    browserScale: Math.round((visualViewport?.scale ?? 1) * 100) / 100,
    comicZoomed: document.querySelector('.rd-stage')?.getAttribute('data-zoomed') === 'true',
  }));

/** sRGB relative luminance and contrast ratio (WCAG 2.x), from computed `rgb()`/`rgba()` colours. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((value) => {
    const channel = Number(value) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The colour of one screen pixel (CSS coordinates), as the screenshot shows it. */
async function pixel(page: Page, x: number, y: number): Promise<[number, number, number]> {
  const shot = await page.screenshot({ clip: { x, y, width: 1, height: 1 }, scale: 'css' });
  const { data } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return [data[0]!, data[1]!, data[2]!];
}

describeWithChromium('the readers as a new reader meets them', () => {
  const suite = readerSuite();
  const signedInPage = (viewport: ViewportName) => suite.signedInPage(viewport, viewport === 'phone' ? PHONE : {});

  async function fromTheStart(bookId: string) {
    await call(suite.server.url, 'DELETE', `/books/${bookId}/progress`, { token: suite.session.token }).catch(() => {});
  }

  it('comic reader on a phone: the tap that closes the menu closes it, and two fingers zoom the comic', async () => {
    await fromTheStart(suite.library.book1.id);
    const page = await signedInPage('phone');
    const { width, height } = page.viewportSize()!;
    const middle = { x: width / 2, y: height / 2 };
    await openComicReader(page, suite.server.url, suite.library.book1.id);
    const offlineRequests: string[] = [];
    page.on('request', (request) => {
      // Downloading the book for offline asks for every page; reading page 1 asks for pages 1-3 at most.
      const number = /\/pages\/(\d+)/.exec(request.url())?.[1];
      if (number && Number(number) > 3) offlineRequests.push(request.url());
    });
    const menuBar = page.locator('.rd-top');

    // Tap, tap: open, closed — nothing else happened.
    await page.touchscreen.tap(middle.x, middle.y);
    await menuBar.waitFor(WAIT);
    await page.waitForTimeout(BETWEEN_TAPS_MS);
    await page.touchscreen.tap(middle.x, middle.y);
    await menuBar.waitFor({ state: 'detached', ...WAIT });
    await page.waitForTimeout(500);
    expect(await page.getByText(/Downloading|Available offline/).count()).toBe(0);
    expect(offlineRequests).toEqual([]);

    // With the menu open, and with its settings open too, a pinch in the middle zooms the page.
    const cdp = await page.context().newCDPSession(page);
    for (const withSettings of [false, true]) {
      await page.touchscreen.tap(middle.x, middle.y);
      await menuBar.waitFor(WAIT);
      if (withSettings) {
        await page.getByRole('button', { name: 'Settings' }).tap();
        await page.getByLabel('Reading mode').waitFor(WAIT);
      }
      await pinch(cdp, middle, 60, 240);
      await expect.poll(() => zoomState(page), WAIT).toEqual({ browserScale: 1, comicZoomed: true });
      // Pinched back in, the page is whole again; the next tap closes the menu.
      await pinch(cdp, middle, 240, 60);
      await expect.poll(() => zoomState(page), WAIT).toEqual({ browserScale: 1, comicZoomed: false });
      await page.waitForTimeout(BETWEEN_TAPS_MS);
      await page.touchscreen.tap(middle.x, middle.y);
      await menuBar.waitFor({ state: 'detached', ...WAIT });
    }
    expect(offlineRequests).toEqual([]);
  });

  it('comic reader on a desktop: settings open from the menu and a click in the middle closes both', async () => {
    const page = await signedInPage('desktop');
    const { width, height } = page.viewportSize()!;
    await openComicReader(page, suite.server.url, suite.library.book1.id);
    await page.mouse.click(width / 2, height / 2);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Fit').selectOption('width');
    expect(await page.locator('.rd').getAttribute('data-fit')).toBe('width');
    await page.waitForTimeout(BETWEEN_TAPS_MS);
    await page.mouse.click(width / 2, height / 2);
    await page.locator('.rd-top').waitFor({ state: 'detached', ...WAIT });
    expect(await page.getByLabel('Fit').count()).toBe(0);
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`EPUB reader on a ${viewport}: the middle opens the menu, ? shows its keys, both themes read well`, async () => {
      await fromTheStart(suite.library.novel.id);
      const page = await signedInPage(viewport);
      const { width, height } = page.viewportSize()!;
      const tap = (x: number, y: number) =>
        viewport === 'phone' ? page.touchscreen.tap(x, y) : page.mouse.click(x, y);
      await page.addInitScript(() =>
        localStorage.setItem('longbox.reader.epub', JSON.stringify({ theme: 'light', flow: 'paginated' })),
      );
      await page.goto(`${suite.server.url}/read/${suite.library.novel.id}`);
      await page.locator('.rd-epub[data-ready="true"]').waitFor(WAIT);

      // The middle of the page, not a strip along the top, opens the menu: Back, Contents and Settings on screen.
      await tap(width / 2, height / 2);
      const bar = page.locator('.rd-top');
      await bar.waitFor(WAIT);
      for (const name of ['Back to the book', 'Contents', 'Settings']) {
        const box = await bar.getByRole('button', { name }).boundingBox();
        expect(box, name).not.toBeNull();
        expect(box!.x >= 0 && box!.x + box!.width <= width && box!.y >= 0, name).toBe(true);
      }
      await bar.getByRole('button', { name: 'Contents' }).click();
      await page.getByRole('navigation', { name: 'Contents' }).waitFor(WAIT);
      await page.keyboard.press('Escape');

      // `?` lists the EPUB reader's keys, not the comic reader's.
      await page.keyboard.press('?');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.waitFor(WAIT);
      await help.getByText('Contents', { exact: true }).waitFor();
      for (const comicOnly of ['Split wide pages on or off', 'Change the fit', 'Next book']) {
        expect(await help.getByText(comicOnly, { exact: true }).count(), comicOnly).toBe(0);
      }
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });

      // Light theme: the settings' words stand out from their panel.
      await tap(width / 2, height / 2);
      await page.getByRole('button', { name: 'Settings' }).click();
      const panel = page.getByRole('region', { name: 'Settings' });
      await panel.waitFor(WAIT);
      const colours = await panel.evaluate((element) => ({
        text: getComputedStyle(element.querySelector('label')!).color,
        background: getComputedStyle(element).backgroundColor,
      }));
      expect(contrast(colours.text, colours.background), JSON.stringify(colours)).toBeGreaterThanOrEqual(4.5);

      // Dark theme, chosen while reading: no white frame left around the page.
      await panel.getByLabel('Theme').selectOption('dark');
      await page.waitForTimeout(BETWEEN_TAPS_MS);
      await tap(width / 2, height / 2);
      await bar.waitFor({ state: 'detached', ...WAIT });
      await page.waitForTimeout(500);
      for (const [x, y] of [
        [4, 4],
        [width / 2, 6],
        [width - 4, height / 2],
      ] as const) {
        const [r, g, b] = await pixel(page, x, y);
        expect(Math.max(r, g, b), `pixel at ${x},${y}: rgb(${r}, ${g}, ${b})`).toBeLessThan(80);
      }
    });
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`sends the last page turned before the tab closes, which another device then reads, on a ${viewport}`, async () => {
      await fromTheStart(suite.library.book1.id);
      const page = await signedInPage(viewport);
      const { width, height } = page.viewportSize()!;
      await openComicReader(page, suite.server.url, suite.library.book1.id);
      for (let turn = 0; turn < 3; turn++) {
        if (viewport === 'phone') await page.touchscreen.tap(width - 20, height / 2);
        else await page.keyboard.press('ArrowRight');
      }
      await page.locator('.rd-view .rd-slot[data-page="4"]').waitFor(WAIT);
      // Closed at once: the saver's debounce has not sent page 4 yet.
      await page.close();
      // Another device asks the server.
      await expect
        .poll(
          async () =>
            (
              await call(suite.server.url, 'GET', `/books/${suite.library.book1.id}/progress`, {
                token: suite.session.token,
              }).catch(() => null)
            )?.currentPage,
          WAIT,
        )
        .toBe(4);
    });
  }
});
