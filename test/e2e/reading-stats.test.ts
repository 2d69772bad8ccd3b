/**
 * Reading statistics from the web readers in a real Chromium against `wrangler dev` (issue 35, Done when): a
 * reader reading on a phone and on a desktop browser shows two devices with their own measured time. The
 * measured sessions leave by `sendBeacon` when the reader is closed, signed in by the HttpOnly cookie alone,
 * so this also proves the server's same-origin check lets the beacons through.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LongboxServer, startServer } from '../support/dev-server';
import { ADMIN, call, type Session, setupAdmin, signInContext } from './support/api';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { createReaderLibrary, type ReaderLibrary } from './support/reader-library';

describeWithChromium('reading statistics from the web readers', () => {
  let server: LongboxServer;
  let browser: Browser;
  let session: Session;
  let library: ReaderLibrary;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    session = await setupAdmin(server.url);
    library = await createReaderLibrary(server.url, session.token);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  /** Turns three pages 1.2 s or more apart on a new browser (its own device), then closes the reader. */
  async function readOn(viewport: ViewportName): Promise<number> {
    const context = await newContext(browser, viewport);
    contexts.push(context);
    await signInContext(context, server.url, ADMIN.username, ADMIN.password);
    const page: Page = await context.newPage();
    await page.goto(`${server.url}/read/${library.book1.id}`);
    await page.locator('.rd-view img').first().waitFor({ timeout: 15_000 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
    const started = Date.now();
    await page.keyboard.press('Home');
    for (let turn = 0; turn < 3; turn++) {
      await page.waitForTimeout(1_200);
      await page.keyboard.press('ArrowRight');
    }
    const span = Date.now() - started;
    // Leaving the page ends the stretch: the beacon goes out as the page is unloaded.
    await page.close({ runBeforeUnload: true });
    return span;
  }

  it('a phone and a desktop browser are two devices, each with the time it measured', async () => {
    const phoneSpan = await readOn('phone');
    const desktopSpan = await readOn('desktop');
    const devices = async () => {
      const stats = await call(server.url, 'GET', '/reading-stats', { token: session.token });
      return (
        stats.devices as Array<{ deviceId: string; duration: { measuredMs: number; inferredMs: number } }>
      ).filter((d) => d.deviceId.startsWith('client:') && d.duration.measuredMs > 0);
    };
    await expect.poll(async () => (await devices()).length, { timeout: 20_000 }).toBe(2);
    for (const device of await devices()) {
      // The first turn starts the clock; the two after it come 1.2 s or more apart: at least 2.4 s measured,
      // never more than the time the test spent reading.
      expect(device.duration.measuredMs).toBeGreaterThanOrEqual(2_400);
      expect(device.duration.measuredMs).toBeLessThanOrEqual(Math.max(phoneSpan, desktopSpan));
      expect(device.duration.inferredMs).toBe(0);
    }
  }, 180_000);
});
