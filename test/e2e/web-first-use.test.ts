/**
 * What a new user of a household's Longbox trips on in the browsing and admin screens (issue 31 points 6, 7,
 * 10, 11 and 12), in a real Chromium against a real `wrangler dev`, on a phone (390×844, touch) and a desktop.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, call, signInContext } from './support/api';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { comicWithCovers, type Showcase, seedShowcase } from './support/showcase';
import { type LongboxServer, startServer } from '../support/dev-server';

const PHONE = { viewport: { width: 390, height: 844 } };
const WAIT = { timeout: 15_000 };
const READER = { username: 'reader', email: 'reader@example.test', password: 'reader passphrase 1' };

/** A wide image, unlike every generated cover of the showcase (portrait pages). */
async function wideCover(): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: 600, height: 200, channels: 3, background: '#c0392b' } })
      .png()
      .toBuffer(),
  );
}

/** Whether the loaded image inside `locator` is wider than tall (the uploaded cover) or not (the generated). */
async function coverIsWide(page: Page, selector: string): Promise<boolean> {
  const image = page.locator(selector).locator('img').first();
  await image.waitFor(WAIT);
  await image.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0,
    await image.elementHandle(),
    WAIT,
  );
  return image.evaluate((element: HTMLImageElement) => element.naturalWidth > element.naturalHeight);
}

describeWithChromium('the web app as a new user meets it', () => {
  let server: LongboxServer;
  let browser: Browser;
  let showcase: Showcase;
  const contexts: BrowserContext[] = [];

  async function signedInPage(viewport: ViewportName, who = ADMIN): Promise<Page> {
    const context = await newContext(browser, viewport, viewport === 'phone' ? PHONE : {});
    contexts.push(context);
    await signInContext(context, server.url, who.username, who.password);
    return context.newPage();
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ vars: { LONGBOX_SCAN__SLICE_MS: '1', LONGBOX_TASKS__SLICE_MS: '1' } }),
      launchBrowser(),
    ]);
    showcase = await seedShowcase(server.url);
    await call(server.url, 'POST', '/users', { token: showcase.token, json: { ...READER, role: 'reader' } });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  it('shows a new custom cover on Home, the grid and Search at once, in a browser that saw the old one (point 6)', async () => {
    const page = await signedInPage('desktop');
    const book = showcase.books['Iron Meadow 001']!;
    const seriesId = book.seriesId;
    const screens = [
      { path: '/', card: `[data-row="recently-added"] a[data-book-id="${book.id}"]` },
      { path: `/libraries/${showcase.libraryId}`, card: `a[data-series-id="${seriesId}"]` },
      { path: '/search?q=iron', card: `[data-results="series"] a[data-series-id="${seriesId}"]` },
      { path: '/search?q=iron', card: `[data-results="books"] a[data-book-id="${book.id}"]` },
    ];
    // The browser has the generated covers in its cache.
    for (const screen of screens) {
      await page.goto(server.url + screen.path);
      expect(await coverIsWide(page, screen.card), screen.card).toBe(false);
    }
    // Another device gives the book and its series a new cover.
    const cover = await wideCover();
    for (const path of [`/books/${book.id}/cover`, `/series/${seriesId}/cover`]) {
      const form = new FormData();
      form.append('file', new Blob([cover as BlobPart]), 'cover.png');
      const response = await fetch(`${server.url}/api/v1${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${showcase.token}` },
        body: form,
      });
      expect(response.status, await response.text()).toBe(200);
    }
    // Every screen opened afterwards shows it, not the copy the browser kept.
    for (const screen of screens) {
      await page.goto(server.url + screen.path);
      await expect.poll(() => coverIsWide(page, screen.card), { ...WAIT, message: screen.card }).toBe(true);
    }
  });

  it('shows a reader who types /admin that it is not for them, with no admin screen (point 7)', async () => {
    for (const viewport of ['phone', 'desktop'] as const) {
      const page = await signedInPage(viewport, READER);
      await page.goto(`${server.url}/admin`);
      await page.getByRole('heading', { name: 'For administrators only' }).waitFor(WAIT);
      for (const path of ['/admin/libraries', '/admin/users']) {
        await page.goto(server.url + path);
        await page.getByRole('heading', { name: 'For administrators only' }).waitFor(WAIT);
        for (const name of ['Scan', 'New library', 'New user', 'Choose files', 'Delete']) {
          expect(await page.getByRole('button', { name, exact: true }).count(), `${path}: ${name}`).toBe(0);
        }
        expect(await page.getByRole('link', { name: 'Libraries', exact: true }).count()).toBeGreaterThan(0);
      }
    }
  });

  it('says a scan started after an upload only when one did (point 7)', async () => {
    const page = await signedInPage('desktop');
    await page.goto(`${server.url}/admin/libraries?library=${showcase.libraryId}`);
    const panel = page.locator('[data-library="Comics"]');
    await panel.waitFor(WAIT);
    // A folder whose book is already in the library: nothing new, so no scan.
    const root = mkdtempSync(path.join(tmpdir(), 'longbox-upload-'));
    mkdirSync(path.join(root, 'Harbor Lights'));
    writeFileSync(
      path.join(root, 'Harbor Lights', 'Harbor Lights 001.cbz'),
      await comicWithCovers('Harbor Lights', 1, 8, '#1d4e89'),
    );
    await panel.locator('input[data-folder-input]').setInputFiles(path.join(root, 'Harbor Lights'));
    rmSync(root, { recursive: true, force: true });
    const report = panel.locator('[data-upload-report]');
    await report.waitFor(WAIT);
    expect(await report.textContent()).toContain('already there 1');
    expect(await report.textContent()).not.toContain('A scan has started');
  });
});
