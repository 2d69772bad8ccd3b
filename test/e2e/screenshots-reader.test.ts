/**
 * `npm run screenshots` (reader part): the comic reader in each mode and the EPUB reader, on a phone and
 * a desktop, written to docs/screenshots/reader-<mode>-<viewport>.png for the README (a temporary folder under plain
 * `npm test`: support/screenshot-dir.ts). Each shot is taken
 * once the reader shows what it should, so a broken mode fails here instead of producing an empty image.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { readerKeysReady } from './support/reader-keys';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, type Session, setupAdmin, signInContext } from './support/api';
import { describeWithChromium, launchBrowser, newContext } from './support/browser';
import { createReaderLibrary, type ReaderLibrary } from './support/reader-library';
import { SCREENSHOT_DIR } from './support/screenshot-dir';
import { type LongboxServer, startServer } from '../support/dev-server';

const OUT = SCREENSHOT_DIR;

async function imagesLoaded(page: Page, selector: string) {
  await page.waitForFunction((css) => {
    const images = [...document.querySelectorAll<HTMLImageElement>(css)];
    return images.length > 0 && images.every((image) => image.complete && image.naturalWidth > 0);
  }, selector);
}

async function setMode(page: Page, mode: string) {
  await readerKeysReady(page);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Reading mode').selectOption(mode);
  await page.keyboard.press('Escape');
  await page.getByLabel('Reading mode').waitFor({ state: 'detached' });
}

describeWithChromium('reader screenshots', () => {
  let server: LongboxServer;
  let browser: Browser;
  let session: Session;
  let library: ReaderLibrary;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    session = await setupAdmin(server.url);
    library = await createReaderLibrary(server.url, session.token);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`shoots the readers on a ${viewport}`, async () => {
      const context = await newContext(browser, viewport);
      await signInContext(context, server.url, ADMIN.username, ADMIN.password);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const shot = (name: string) => page.screenshot({ path: path.join(OUT, `reader-${name}-${viewport}.png`) });

      await page.goto(`${server.url}/read/${library.book1.id}`);
      await page.locator('.rd-view img').first().waitFor();
      await page.keyboard.press('Home');
      await imagesLoaded(page, '.rd-view img');
      await shot('ltr');

      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByLabel('Reading mode').waitFor();
      await shot('menu');
      await page.keyboard.press('Escape');

      await page.keyboard.press('?');
      await page.getByRole('dialog').waitFor();
      await shot('help');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      // The wide two-page scan, split: its left half fills the screen.
      await page.keyboard.press('s');
      for (let turn = 0; turn < 4; turn++) await page.keyboard.press('ArrowRight');
      // The last turn may render a frame after the key press resolves (page 5 is preloaded, so its image
      // can already be complete while page 4 is still shown): wait for the split slot, then assert it.
      await page.locator('.rd-slot[data-part="left"]').waitFor({ timeout: 10_000 });
      await imagesLoaded(page, '.rd-view img');
      expect(await page.locator('.rd-slot').getAttribute('data-part')).toBe('left');
      await shot('split');
      await page.keyboard.press('s');

      await setMode(page, 'rtl');
      await page.keyboard.press('d');
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowLeft');
      await imagesLoaded(page, '.rd-view img');
      expect(await page.locator('.rd-slot').count()).toBe(2);
      await shot('rtl-double');
      await page.keyboard.press('d');

      await setMode(page, 'ttb');
      await imagesLoaded(page, '.rd-view img');
      await shot('vertical');

      await setMode(page, 'webtoon');
      await page.locator('.rd-webtoon img').first().waitFor();
      await page.waitForFunction(() => {
        const first = document.querySelector<HTMLImageElement>('.rd-webtoon img');
        return first?.complete && first.naturalWidth > 0;
      });
      await shot('webtoon');

      await page.goto(`${server.url}/read/${library.novel.id}`);
      await page.locator('.rd-epub[data-ready="true"]').waitFor();
      await shot('epub');
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
