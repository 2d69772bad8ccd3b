/**
 * Issue 31 point 5, in a real Chromium on a phone and a desktop: the first-run wizard's "first library" step
 * survives a reload (it follows the server's state: an administrator and no library yet), Home offers it
 * to an administrator without a library, and a library created with the Folder left empty gets a folder
 * named after it, so a second library created the same way fits beside it (DECISIONS.md §Storage, §Web app).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, call, login } from './support/api';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { type LongboxServer, startServer } from '../support/dev-server';

const WAIT = { timeout: 10_000 };

for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
  describeWithChromium(`first run on a ${viewport}`, () => {
    let server: LongboxServer;
    let browser: Browser;
    beforeAll(async () => {
      [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    it('keeps the first-library step across a reload, and libraries made without a folder live side by side', async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      await page.goto(server.url);
      await page.getByRole('heading', { name: 'Welcome to Longbox' }).waitFor();
      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByLabel('Repeat password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Create administrator' }).click();
      const libraryName = page.getByLabel('Name', { exact: true });
      await libraryName.waitFor();

      // A reload (or coming back later) keeps the step: the server has an administrator and no library.
      await page.reload();
      await libraryName.waitFor(WAIT);
      expect(new URL(page.url()).pathname).toBe('/setup');
      expect(await page.locator('[aria-current="step"]').textContent()).toBe('First library');

      // Home, for an administrator without a library, leads back to it (not "ask an administrator").
      await page.goto(`${server.url}/`);
      const notice = page.locator('[data-first-library]');
      await notice.waitFor(WAIT);
      expect(await page.getByText('An administrator can add books').count()).toBe(0);
      await notice.getByRole('link', { name: 'Create your first library' }).click();
      await libraryName.waitFor(WAIT);

      // Folder left empty: the placeholder shows the folder the library will get, named after it.
      await libraryName.fill('Comics');
      expect(await page.getByLabel('Folder').getAttribute('placeholder')).toBe('Comics');
      await page.getByRole('button', { name: 'Create library' }).click();
      await page.waitForURL(/\/admin\/libraries/, WAIT);

      // A second library, Folder empty again: no "overlaps" refusal.
      await page.getByRole('button', { name: 'New library' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Manga');
      await page.getByRole('button', { name: 'Create library' }).click();
      await page.locator('[data-library="Manga"]').waitFor(WAIT);
      expect(await page.getByRole('alert').count()).toBe(0);

      const { token } = await login(server.url, ADMIN.username, ADMIN.password);
      const libraries = await call<{ name: string; path: string }[]>(server.url, 'GET', '/libraries', { token });
      expect(libraries.map((l) => [l.name, l.path]).sort()).toEqual([
        ['Comics', 'Comics'],
        ['Manga', 'Manga'],
      ]);

      // With a library, /setup has nothing left to offer: home.
      await page.goto(`${server.url}/setup`);
      await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe('/');
      await context.close();
    });
  });
}
