/**
 * Issue 12's walk through the web app in a real Chromium, on a phone and a desktop viewport:
 * first-run setup → upload a folder → live scan progress → home → series → progress made in another
 * browser context showing up on an open book page, and new books appearing without a reload
 * (DECISIONS.md §Web app for the cookie that signs in images and event streams).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { ADMIN, call, login, scanAndWait, signInContext, uploadBook } from './support/api';
import { comicBook } from './support/books';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { type LongboxServer, startServer } from '../support/dev-server';

/** A folder as a user would pick it: two series, one of them with two books. */
function comicsFolder(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'longbox-upload-'));
  const folder = path.join(root, 'My Comics');
  for (const [series, file, pages] of [
    ['Alpha', 'Alpha 001.cbz', 6],
    ['Alpha', 'Alpha 002.cbz', 4],
    ['Beta', 'Beta 001.cbz', 3],
  ] as const) {
    mkdirSync(path.join(folder, series), { recursive: true });
    writeFileSync(path.join(folder, series, file), comicBook(pages));
  }
  writeFileSync(path.join(folder, 'notes.txt'), 'not a book');
  return folder;
}

/** Every value the element's data attribute takes from now on, recorded in the page. */
async function recordAttribute(page: Page, selector: string, attribute: string) {
  await page.evaluate(
    ({ selector, attribute }) => {
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      const note = () => {
        const value = document.querySelector(selector)?.getAttribute(attribute);
        if (value && seen[seen.length - 1] !== value) seen.push(value);
      };
      note();
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true });
    },
    { selector, attribute },
  );
  return () => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
}

for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
  describeWithChromium(`the web app walk on a ${viewport}`, () => {
    let server: LongboxServer;
    let browser: Browser;
    let folder: string;
    beforeAll(async () => {
      folder = comicsFolder();
      [server, browser] = await Promise.all([
        startServer({ vars: { LONGBOX_SCAN__SLICE_MS: '1', LONGBOX_TASKS__SLICE_MS: '1' } }),
        launchBrowser(),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      if (folder) rmSync(path.dirname(folder), { recursive: true, force: true });
    });

    it('sets up, uploads a folder, follows the scan live, browses, and sees progress from another device', async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      onTestFailed(async () => {
        const file = path.join(tmpdir(), `longbox-e2e-walk-${viewport}.png`);
        await page.screenshot({ path: file, fullPage: true }).catch(() => {});
        console.error(`screenshot of the failure: ${file}\nserver output:\n${server.output().slice(-3000)}`);
      });
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));

      // First run: the wizard creates the admin, then the first library.
      await page.goto(server.url);
      await page.getByRole('heading', { name: 'Welcome to Longbox' }).waitFor();
      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByLabel('Repeat password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Create administrator' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Comics');
      await page.getByLabel('Folder').fill('comics');
      await page.getByRole('button', { name: 'Create library' }).click();
      await page.waitForURL(/\/admin\/libraries/);
      const panel = page.locator('[data-library="Comics"]');
      await panel.waitFor();

      // Upload a folder (the folder picker; notes.txt is not a book and stays behind) and watch the scan live.
      const scanStates = await recordAttribute(page, '[data-library="Comics"] [data-scan-status]', 'data-scan-status');
      await panel.locator('input[data-folder-input]').setInputFiles(folder);
      await expect.poll(async () => panel.locator('[data-upload-report]').textContent()).toContain('Uploaded 3');
      await expect.poll(scanStates, { timeout: 60_000 }).toContain('completed');
      const states = await scanStates();
      expect(states).toContain('running');
      expect(states.indexOf('running')).toBeLessThan(states.lastIndexOf('completed'));
      await expect.poll(async () => panel.textContent()).toMatch(/3 books found|3 books/);

      // Home: the new books are there, covers loaded through the session cookie.
      await page.getByRole('link', { name: 'Home' }).click();
      const recent = page.locator('[data-row="recently-added"]');
      await recent.getByText('Alpha 001').waitFor();
      await expect.poll(() => recent.locator('a[data-book-id]').count()).toBe(3);
      await expect
        .poll(
          () =>
            recent
              .locator('img')
              .first()
              .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
          // The cover is made by the consumers after the scan; on a loaded CI machine that took over 5 s.
          { timeout: 30_000 },
        )
        .toBe(true);

      // Series: the grid of the library, then the series page with its two books.
      await page.getByRole('link', { name: 'Libraries' }).click();
      await page.locator('a[data-library-id]').first().click();
      await page.locator('a[data-series-id]', { hasText: 'Alpha' }).click();
      await page.getByRole('heading', { name: 'Alpha' }).waitFor();
      await expect.poll(() => page.locator('[data-books] a[data-book-id]').count()).toBe(2);
      await page.locator('[data-books] a[data-book-id]', { hasText: 'Alpha 001' }).click();
      await page.getByRole('link', { name: 'Read', exact: true }).waitFor();
      await expect(page.locator('[data-progress]').textContent()).resolves.toContain('Unread');
      const bookId = page.url().split('/books/')[1]!;

      // Another device (a second browser context) reads to page 4: the open book page follows.
      const other = await newContext(browser, viewport === 'phone' ? 'desktop' : 'phone');
      const otherSession = await signInContext(other, server.url, ADMIN.username, ADMIN.password);
      await call(server.url, 'PUT', `/books/${bookId}/progress`, {
        token: otherSession.token,
        json: { current_page: 4 },
      });
      await expect
        .poll(() => page.locator('[data-progress]').textContent(), { timeout: 15_000 })
        .toContain('Page 4 of 6');
      const otherPage = await other.newPage();
      await otherPage.goto(`${server.url}/books/${bookId}`);
      await expect.poll(() => otherPage.locator('[data-progress]').textContent()).toContain('Page 4 of 6');
      await otherPage.getByRole('link', { name: 'Continue at page 4' }).waitFor();

      // A book added meanwhile appears on the open home page without a reload.
      await page.getByRole('link', { name: 'Home' }).click();
      await recent.getByText('Alpha 001').waitFor();
      await page.evaluate(() => ((window as unknown as { __marker: boolean }).__marker = true));
      const { token } = await login(server.url, ADMIN.username, ADMIN.password);
      const libraries = await call(server.url, 'GET', '/libraries', { token });
      await uploadBook(server.url, token, libraries[0].id, 'My Comics/Gamma/Gamma 001.cbz', comicBook(2));
      await scanAndWait(server.url, token, libraries[0].id);
      await recent.getByText('Gamma 001').waitFor({ timeout: 20_000 });
      expect(await page.evaluate(() => (window as unknown as { __marker?: boolean }).__marker)).toBe(true);

      expect(pageErrors).toEqual([]);
      await other.close();
      await context.close();
    });
  });
}
