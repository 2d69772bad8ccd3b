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
  it('names each screen in the tab, and a hidden series reads as one missing one, once (point 11)', async () => {
    const { token } = showcase;
    const page = await signedInPage('desktop');
    const harbor = showcase.series['Harbor Lights']!.id;
    await page.goto(`${server.url}/series/${harbor}`);
    await page.getByRole('heading', { name: 'Harbor Lights', level: 1 }).waitFor(WAIT);
    await expect.poll(() => page.title(), WAIT).toBe('Harbor Lights · Longbox');
    await page.goto(`${server.url}/books/${showcase.books['Quiet Engines 001']!.id}`);
    await expect.poll(() => page.title(), WAIT).toBe('Quiet Engines 001 · Longbox');
    await page.goto(`${server.url}/admin/settings`);
    await expect.poll(() => page.title(), WAIT).toBe('Settings · Administration · Longbox');
    // A series of one book says so in words.
    await page.goto(`${server.url}/libraries/${showcase.libraryId}`);
    const quiet = page.locator(`[data-series-id="${showcase.series['Quiet Engines']!.id}"]`);
    await quiet.waitFor(WAIT);
    expect(await quiet.textContent()).toContain('1 book');
    expect(await quiet.textContent()).not.toContain('1 books');

    // A child account that may not see Harbor Lights: the series page and a collection holding it say
    // nothing of what is hidden.
    const tag = await call(server.url, 'POST', '/admin/sharing-tags', { token, json: { name: 'Grown-ups' } });
    await call(server.url, 'PUT', `/series/${harbor}/sharing-tags`, { token, json: { sharingTagIds: [tag.id] } });
    const child = { username: 'child', email: 'child@example.test', password: 'child passphrase 1' };
    await call(server.url, 'POST', '/users', {
      token,
      json: { ...child, role: 'reader', sharingTags: [{ sharingTagId: tag.id, accessMode: 'deny' }] },
    });
    const collection = await call(server.url, 'POST', '/collections', {
      token,
      json: {
        name: 'Boats',
        seriesIds: [harbor, showcase.series['Wandering Kites']!.id],
      },
    });
    const childPage = await signedInPage('desktop', child);
    await childPage.goto(`${server.url}/series/${harbor}`);
    await childPage.locator('[data-not-found]').waitFor(WAIT);
    expect(await childPage.getByText('Series not found').count()).toBe(1);
    expect(await childPage.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await childPage.goto(`${server.url}/collections/${collection.id}`);
    await childPage.getByRole('heading', { name: 'Boats', level: 1 }).waitFor(WAIT);
    await childPage.locator(`[data-series-id="${showcase.series['Wandering Kites']!.id}"]`).waitFor(WAIT);
    expect(await childPage.locator('main').textContent()).not.toMatch(/hidden/i);
  });

  it('shows settings as controls, tasks by what they do, and key permissions as presets (point 11)', async () => {
    const page = await signedInPage('desktop');
    await page.goto(`${server.url}/admin/settings`);
    const registration = page.locator('[data-setting="auth.registration_enabled"]');
    await registration.getByRole('checkbox', { name: 'Anyone may create an account' }).waitFor(WAIT);
    const role = page.locator('[data-setting="auth.default_role"]');
    expect(await role.locator('select').count()).toBe(1);
    expect(await page.locator('main').textContent()).not.toContain('auth.registration_enabled');

    await page.goto(`${server.url}/admin/tasks`);
    const scanRow = page.locator('td[data-task-type="scan_library"]').first();
    await scanRow.waitFor(WAIT);
    expect(await scanRow.textContent()).toBe('Scanning Comics');
    expect(await page.locator('main').textContent()).not.toMatch(/scan_library|hash_files|T\d\d:\d\d:\d\d/);

    await page.goto(`${server.url}/admin/api-keys`);
    const permissions = page.locator('[data-key-permissions]');
    await permissions.getByRole('radio', { name: /Reading device/ }).waitFor(WAIT);
    expect(await permissions.getByRole('radio', { name: /Reading device/ }).isChecked()).toBe(true);
    expect(await permissions.textContent()).not.toContain('BooksRead');
    await permissions.getByRole('radio', { name: /Custom/ }).check();
    await permissions.getByRole('checkbox').first().waitFor(WAIT);
    expect(await permissions.textContent()).not.toContain('BooksRead');
  });

});
