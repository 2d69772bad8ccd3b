/**
 * Sharing a library in a real Chromium (issue 17, web app), on a phone and a desktop: an admin creates a
 * sharing tag, puts it on a series from the series screen, and in Admin → Users gives a reader one library,
 * an age restriction and the tag denied; the reader's home, search and library grid then show nothing hidden,
 * and a hidden series' address is "not found".
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ADMIN,
  call,
  createLibrary,
  scanAndWait,
  type Session,
  setupAdmin,
  signInContext,
  uploadBook,
} from './support/api';
import { comicBook } from './support/books';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { type LongboxServer, startServer } from '../support/dev-server';

describeWithChromium('sharing a library in the web app', () => {
  let server: LongboxServer;
  let browser: Browser;
  let admin: Session;
  let family: { id: string };
  let midnightId: string;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    admin = await setupAdmin(server.url);
    family = await createLibrary(server.url, admin.token, 'Family', 'family');
    const grownUps = await createLibrary(server.url, admin.token, 'Grown-ups', 'grown-ups');
    await uploadBook(server.url, admin.token, family.id, 'Rainbow/Rainbow 001.cbz', comicBook(2));
    await uploadBook(server.url, admin.token, family.id, 'Midnight/Midnight 001.cbz', comicBook(2));
    await uploadBook(server.url, admin.token, grownUps.id, 'Ledger/Ledger 001.cbz', comicBook(2));
    await scanAndWait(server.url, admin.token, family.id);
    await scanAndWait(server.url, admin.token, grownUps.id);
    const series = await call(server.url, 'GET', '/series', { token: admin.token });
    midnightId = series.data.find((s: { title: string }) => s.title === 'Midnight').id;
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /**
   * The page does not scroll sideways: what is too wide for the screen (a table) scrolls inside its own box.
   * A phone lays out a page wider than its screen at the content's width (and zooms out), so `innerWidth`
   * is compared with the screen's width too.
   */
  async function expectFitsTheScreen(page: Page, what: string) {
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, layout: innerWidth }));
    const screen = page.viewportSize()?.width ?? 0;
    expect(widths.layout, `${what}: ${JSON.stringify(widths)}`).toBe(screen);
    expect(widths.page, `${what}: ${JSON.stringify(widths)}`).toBeLessThanOrEqual(screen);
  }

  async function seriesTitlesOn(page: Page, selector: string): Promise<string[]> {
    return page
      .locator(`${selector} [data-series-id]`)
      .evaluateAll((cards) => cards.map((card) => card.textContent ?? ''));
  }

  for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
    it(`${viewport}: the admin restricts a reader, who then sees only what is shared`, async () => {
      const tag = `Mature ${viewport}`;
      const reader = { username: `reader-${viewport}`, password: 'reader passphrase 1' };
      await call(server.url, 'POST', '/users', {
        token: admin.token,
        json: { ...reader, email: `${reader.username}@example.test` },
      });

      const adminContext = await newContext(browser, viewport);
      await signInContext(adminContext, server.url, ADMIN.username, ADMIN.password);
      const page = await adminContext.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));

      // 1. A sharing tag.
      await page.goto(`${server.url}/admin/sharing-tags`);
      await page.getByLabel('Name', { exact: true }).fill(tag);
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByRole('cell', { name: tag, exact: true }).waitFor();
      await expectFitsTheScreen(page, 'sharing tags');

      // 2. On a series, from its screen.
      await page.goto(`${server.url}/series/${midnightId}`);
      await page.getByRole('button', { name: 'Edit sharing tags' }).click();
      await page.getByRole('form', { name: 'Edit sharing tags' }).getByLabel(tag).check();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.locator('[data-series-tags]').getByText(`Sharing tags: ${tag}`).waitFor();

      // 3. The reader's access: one library, an age restriction, the tag denied.
      await page.goto(`${server.url}/admin/users`);
      const row = page.getByRole('row').filter({ hasText: reader.username });
      await row.getByRole('cell', { name: 'All libraries' }).waitFor();
      await expectFitsTheScreen(page, 'users');
      // The users table fits the screen itself: on a phone its rows are cards, nothing scrolls sideways
      // inside its box either (issue 31 point 12).
      const table = await page
        .locator('.table-wrap')
        .evaluate((box) => ({ content: box.scrollWidth, box: box.clientWidth }));
      expect(table.content).toBeLessThanOrEqual(table.box);
      await row.getByRole('button', { name: 'Access' }).click();
      const form = page.getByRole('form', { name: `Access of ${reader.username}` });
      await form.waitFor();
      await expectFitsTheScreen(page, 'users, access form open');
      await form.getByLabel('All libraries').uncheck();
      await form.getByLabel('Family').check();
      await form.getByLabel('Age restriction').selectOption('EXCLUDE');
      await form.getByLabel('Age', { exact: true }).fill('18');
      await form.getByLabel(tag).selectOption('deny');
      // Tapped: on a phone nothing lies over the form since the page fits the screen.
      await form.getByRole('button', { name: 'Save' }).click();
      await row.getByRole('cell', { name: '1 library · hides 18+ · 1 tag' }).waitFor();

      // The API keys screen, with a key listed.
      await call(server.url, 'POST', '/api-keys', { token: admin.token, json: { name: `Tablet ${viewport}` } });
      await page.goto(`${server.url}/admin/api-keys`);
      await page.getByRole('cell', { name: `Tablet ${viewport}`, exact: true }).waitFor();
      await expectFitsTheScreen(page, 'API keys');
      expect(errors).toEqual([]);
      await adminContext.close();

      // 4. The reader sees only what is shared with them.
      const readerContext = await newContext(browser, viewport);
      await signInContext(readerContext, server.url, reader.username, reader.password);
      const own = await readerContext.newPage();
      own.on('pageerror', (error) => errors.push(error.message));
      await own.goto(server.url);
      await own.locator('[data-row="recently-updated"] [data-series-id]').first().waitFor();
      expect(await seriesTitlesOn(own, '[data-row="recently-updated"]')).toEqual([expect.stringContaining('Rainbow')]);
      const bookCards = await own.locator('[data-row="recently-added"] [data-book-id]').allTextContents();
      expect(bookCards.join(' ')).not.toMatch(/Midnight|Ledger/);

      await own.goto(`${server.url}/search?q=Midnight`);
      await own
        .getByText('No results for “Midnight”')
        .or(own.getByText(/No results/))
        .first()
        .waitFor();
      await own.goto(`${server.url}/search?q=001`);
      await own.locator('[data-results="books"] [data-book-id]').first().waitFor();
      expect((await own.locator('[data-results="books"]').textContent()) ?? '').not.toMatch(/Midnight|Ledger/);
      await expect(own.getByRole('heading', { name: /Books \(1\)/ }).count()).resolves.toBe(1);

      await own.goto(`${server.url}/libraries`);
      await own.locator('a[data-library-id]').first().waitFor();
      expect(await own.locator('a[data-library-id]').allTextContents()).toEqual([expect.stringContaining('Family')]);
      await own.goto(`${server.url}/libraries/${family.id}`);
      await own.locator('[data-series-id]').first().waitFor();
      expect(await own.locator('[data-series-id]').allTextContents()).toEqual([expect.stringContaining('Rainbow')]);

      // A hidden series' address answers as a missing one.
      await own.goto(`${server.url}/series/${midnightId}`);
      // Once, as a heading, with nothing to try again (issue 31 point 11).
      await own.getByRole('heading', { name: 'Series not found', level: 1 }).waitFor();
      expect(await own.getByText('Series not found').count()).toBe(1);
      expect(await own.getByRole('heading', { name: 'Midnight' }).count()).toBe(0);
      expect(errors).toEqual([]);
      await readerContext.close();
    }, 120_000);
  }
});
