/**
 * Issue 18 point 5 in Chromium, on a phone and a desktop: the series and book pages show credits by role,
 * genres, tags, characters and links; a maintainer edits a series in the Edit dialog (locks visible and
 * togglable) and the change shows without a reload (the live `series_updated` event); an admin sets the
 * series' age rating there (a maintainer's dialog has no such field: it needs UsersWrite); an author or genre
 * opens the filtered series grid. Also photographs the richer pages and the dialog (docs/screenshots with
 * LONGBOX_SCREENSHOTS=write).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { comicInfoXml } from '../fixtures/comic-info';
import { jpeg } from '../fixtures/images';
import { buildZip } from '../fixtures/zip-writer';
import { type LongboxServer, startServer } from '../support/dev-server';
import { ADMIN, call, createLibrary, scanAndWait, setupAdmin, signInContext, uploadBook } from './support/api';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { SCREENSHOT_DIR } from './support/screenshot-dir';
import { imagesLoaded } from './support/shots';

const INFO = {
  Series: 'Harbor Lights',
  Title: 'The Lamp Keeper',
  Number: '1',
  Summary: 'A lighthouse keeper finds a map in the fog.',
  Publisher: 'Northwind Press',
  Year: '2021',
  Writer: 'Ada Brooks',
  Penciller: 'Lee Moreno',
  Colorist: 'Sam Ito',
  Genre: 'Mystery, Adventure',
  Tags: 'Sea, Found family',
  Characters: 'Mara, Old Tom',
  Web: 'https://example.com/harbor-lights',
  AgeRating: 'Teen',
};

function comic(number: number) {
  const pages = [1, 2, 3].map((page) => ({
    name: `${page}.jpg`,
    data: jpeg(400, 600, { seed: number * 10 + page }),
  }));
  return buildZip([
    ...pages,
    { name: 'ComicInfo.xml', data: comicInfoXml({ ...INFO, Number: String(number), Title: `Chapter ${number}` }) },
  ]);
}

describeWithChromium('metadata on the series and book pages, and the Edit dialog', () => {
  let server: LongboxServer;
  let browser: Browser;
  let token: string;
  let seriesId: string;
  let bookId: string;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    token = (await setupAdmin(server.url)).token;
    const library = await createLibrary(server.url, token, 'Comics', 'comics');
    for (const n of [1, 2])
      await uploadBook(server.url, token, library.id, `Harbor Lights/Harbor Lights 00${n}.cbz`, comic(n));
    await scanAndWait(server.url, token, library.id);
    seriesId = (await call(server.url, 'GET', '/series', { token })).data[0].id;
    bookId = (await call(server.url, 'GET', `/series/${seriesId}/books`, { token })).data[0].id;
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
    it(`${viewport}: edits a series in the dialog and the page shows it without a reload`, async () => {
      // Each viewport starts from the files' values: unlocking brings the books' summary back.
      await call(server.url, 'PUT', `/series/${seriesId}/metadata/locks`, {
        token,
        json: { summary: false, publisher: false, ageRating: false },
      });
      expect((await call(server.url, 'GET', `/series/${seriesId}/metadata`, { token })).summary).toBe(INFO.Summary);
      const context = await newContext(browser, viewport);
      await signInContext(context, server.url, ADMIN.username, ADMIN.password);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${server.url}/series/${seriesId}`);
      const facts = page.locator('[data-metadata]');
      await facts.waitFor();
      await expect.poll(() => facts.textContent()).toContain('Ada Brooks');
      for (const text of ['Writer', 'Penciller', 'Mystery', 'Found family', 'Old Tom']) {
        expect(await facts.textContent()).toContain(text);
      }
      // The books' Teen rating rates the series.
      expect(await page.locator('[data-age-rating]').textContent()).toBe('Rated 13+');
      await imagesLoaded(page);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${viewport}-series-metadata.png`), fullPage: true });

      // Marks the document: a reload would lose it.
      await page.evaluate(() => {
        (window as unknown as { notReloaded: boolean }).notReloaded = true;
      });
      await page.locator('[data-edit]').click();
      const dialog = page.locator('[data-edit-metadata]');
      await dialog.waitFor();
      const summaryLock = dialog.locator('input[name="summaryLock"]');
      expect(await summaryLock.isChecked()).toBe(false);
      const summary = `Edited on the ${viewport}: the fog lifts.`;
      await dialog.locator('textarea[name="summary"]').fill(summary);
      // Editing a field ticks its lock; the user may also lock a field they leave as it is.
      expect(await summaryLock.isChecked()).toBe(true);
      await dialog.locator('input[name="publisherLock"]').check();
      // The admin (UsersWrite) rates the series: its field shows the books' rating, unlocked.
      const rating = dialog.locator('input[name="ageRating"]');
      expect(await rating.inputValue()).toBe('13');
      expect(await dialog.locator('input[name="ageRatingLock"]').isChecked()).toBe(false);
      await rating.fill('16');
      expect(await dialog.locator('input[name="ageRatingLock"]').isChecked()).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${viewport}-edit-dialog.png`) });
      await dialog.locator('button[type="submit"]').click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => page.locator('.summary').first().textContent(), { timeout: 15_000 }).toBe(summary);
      await expect.poll(() => page.locator('[data-age-rating]').textContent(), { timeout: 15_000 }).toBe('Rated 16+');
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      const stored = await call(server.url, 'GET', `/series/${seriesId}/metadata`, { token });
      expect(stored).toMatchObject({
        summary,
        ageRating: 16,
        locks: { summary: true, publisher: true, title: false, ageRating: true },
      });

      // An author opens the series grid filtered by them.
      await facts.getByRole('link', { name: 'Ada Brooks' }).first().click();
      await page.waitForURL(/\/libraries\/all\?author=Ada/);
      await page.locator('a[data-series-id]').first().waitFor();
      expect(await page.locator('a[data-series-id]').count()).toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`${viewport}: a maintainer's Edit dialog has no age-rating field`, async () => {
      const username = `maintainer-${viewport}`;
      await call(server.url, 'POST', '/users', {
        token,
        json: { username, email: `${username}@example.test`, password: ADMIN.password, role: 'maintainer' },
      });
      const context = await newContext(browser, viewport);
      await signInContext(context, server.url, username, ADMIN.password);
      const page = await context.newPage();
      await page.goto(`${server.url}/series/${seriesId}`);
      await page.locator('[data-edit]').click();
      const dialog = page.locator('[data-edit-metadata]');
      await dialog.locator('input[name="publisher"]').waitFor();
      expect(await dialog.locator('input[name="ageRating"]').count()).toBe(0);
      // The page still shows the rating the admin set.
      expect(await page.locator('[data-age-rating]').textContent()).toMatch(/^Rated \d+\+$/);
      await context.close();
    });

    it(`${viewport}: the book page shows the book's credits, genres and links`, async () => {
      const context = await newContext(browser, viewport);
      await signInContext(context, server.url, ADMIN.username, ADMIN.password);
      const page = await context.newPage();
      await page.goto(`${server.url}/books/${bookId}`);
      const facts = page.locator('[data-metadata]');
      await facts.waitFor();
      await expect.poll(() => facts.textContent()).toContain('Lee Moreno');
      expect(await facts.textContent()).toContain('Colorist');
      expect(await facts.locator('a[href="https://example.com/harbor-lights"]').count()).toBe(1);
      await imagesLoaded(page);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${viewport}-book-metadata.png`), fullPage: true });
      await context.close();
    });
  }
});
