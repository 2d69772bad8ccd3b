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
import { ADMIN, call, scanAndWait, signInContext, uploadBook } from './support/api';
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
    // The browser reads a chosen file from disk only when the upload sends it, so the folder stays until the
    // report is in (removing it first made the upload fail with "Network error" on a loaded machine).
    try {
      await panel.locator('input[data-folder-input]').setInputFiles(path.join(root, 'Harbor Lights'));
      const report = panel.locator('[data-upload-report]');
      await report.waitFor(WAIT);
      expect(await report.textContent()).toContain('already there 1');
      expect(await report.textContent()).not.toContain('A scan has started');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('deletes a wrong upload from the book page after a confirmation, and nothing without one (point 10)', async () => {
    const { token, libraryId } = showcase;
    await uploadBook(
      server.url,
      token,
      libraryId,
      'Wrong Upload/Wrong Upload 001.cbz',
      await comicWithCovers('Wrong', 1, 2, '#444'),
    );
    await scanAndWait(server.url, token, libraryId);
    const books = await call(server.url, 'GET', '/books', { token, query: { library_id: libraryId, pageSize: '500' } });
    const wrong = books.data.find((book: { path: string }) => book.path.endsWith('Wrong Upload 001.cbz'));
    expect(wrong).toBeDefined();
    const page = await signedInPage('desktop');
    await page.goto(`${server.url}/books/${wrong.id}`);
    const button = page.getByRole('button', { name: 'Delete file' });

    // Cancelled: the file stays.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await button.click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain('Wrong Upload 001');
    expect(asked[0]).toContain('cannot be undone');
    expect((await call(server.url, 'GET', `/books/${wrong.id}`, { token })).deleted).toBe(false);

    // Confirmed: the object goes, the book leaves the catalog, the page leaves the book.
    page.once('dialog', (dialog) => void dialog.accept());
    await button.click();
    await page.waitForURL(`${server.url}/libraries/${libraryId}`, WAIT);
    expect((await call(server.url, 'GET', `/books/${wrong.id}`, { token })).deleted).toBe(true);
    const file = await fetch(`${server.url}/api/v1/books/${wrong.id}/file`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(file.status).toBe(404);
    // A reader is never offered it.
    const readerPage = await signedInPage('desktop', READER);
    await readerPage.goto(`${server.url}/books/${showcase.books['Quiet Engines 001']!.id}`);
    await readerPage.getByRole('link', { name: 'Read', exact: true }).waitFor(WAIT);
    expect(await readerPage.getByRole('button', { name: /Delete/ }).count()).toBe(0);
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`chooses several series or books to mark read and add to a list, on a ${viewport} (point 10)`, async () => {
      const { token } = showcase;
      const page = await signedInPage(viewport);
      const tap = (locator: ReturnType<Page['locator']>) => (viewport === 'phone' ? locator.tap() : locator.click());
      const picked = ['Paper Comets', 'Wandering Kites'];
      const ids = picked.map((title) => showcase.series[title]!.id);
      for (const id of ids) await call(server.url, 'POST', `/series/${id}/unread`, { token });

      await page.goto(`${server.url}/libraries/${showcase.libraryId}`);
      await tap(page.getByRole('button', { name: 'Select', exact: true }));
      for (const title of picked) await tap(page.getByRole('checkbox', { name: title }));
      const bar = page.getByRole('region', { name: 'Selected items' });
      await bar.getByText('2 selected').waitFor(WAIT);
      await tap(bar.getByRole('button', { name: 'Mark read' }));
      await bar.waitFor({ state: 'detached', ...WAIT });
      for (const id of ids) {
        expect((await call(server.url, 'GET', `/series/${id}`, { token })).unreadCount, id).toBe(0);
      }

      // The same two, into a new collection.
      await tap(page.getByRole('button', { name: 'Select', exact: true }));
      for (const title of picked) await tap(page.getByRole('checkbox', { name: title }));
      await tap(bar.getByRole('button', { name: 'Add to collection' }));
      await bar.getByLabel('New list name').fill(`Picked on a ${viewport}`);
      await tap(bar.getByRole('button', { name: 'Add', exact: true }));
      await bar.getByText(`Added to Picked on a ${viewport}`).waitFor(WAIT);
      const collections = await call(server.url, 'GET', '/collections', { token, query: { pageSize: '100' } });
      const made = collections.data.find((c: { name: string }) => c.name === `Picked on a ${viewport}`);
      const members = await call(server.url, 'GET', `/collections/${made.id}/series`, { token });
      expect(members.data.map((series: { id: string }) => series.id).sort()).toEqual([...ids].sort());

      // Books of a series, into a read list.
      const harbor = showcase.series['Harbor Lights']!.id;
      await page.goto(`${server.url}/series/${harbor}`);
      await tap(page.getByRole('button', { name: 'Select', exact: true }));
      await tap(page.getByRole('checkbox', { name: 'Harbor Lights 002' }));
      await tap(page.getByRole('checkbox', { name: 'Harbor Lights 003' }));
      await tap(bar.getByRole('button', { name: 'Add to read list' }));
      await bar.getByLabel('New list name').fill(`Later on a ${viewport}`);
      await tap(bar.getByRole('button', { name: 'Add', exact: true }));
      await bar.getByText(`Added to Later on a ${viewport}`).waitFor(WAIT);
      const lists = await call(server.url, 'GET', '/readlists', { token, query: { pageSize: '100' } });
      const list = lists.data.find((l: { name: string }) => l.name === `Later on a ${viewport}`);
      const books = await call(server.url, 'GET', `/readlists/${list.id}/books`, { token });
      expect(books.data.map((book: { title: string }) => book.title)).toEqual([
        'Harbor Lights 002',
        'Harbor Lights 003',
      ]);
    });

    it(`edits what Komga users edit most, in fields an iPhone does not zoom into, on a ${viewport} (point 10)`, async () => {
      const { token } = showcase;
      const page = await signedInPage(viewport);
      const series = showcase.series['Salt & Signal']!.id;
      await page.goto(`${server.url}/series/${series}`);
      await page.locator('[data-edit]').click();
      let dialog = page.locator('[data-edit-metadata]');
      await dialog.waitFor(WAIT);
      await expectLegibleFields(page, viewport, '[data-edit-metadata]');
      await dialog.getByLabel('Sort title').fill(`Salt and Signal (${viewport})`);
      await dialog.getByLabel('Reading direction').selectOption('rtl');
      await dialog.getByLabel('Status').selectOption('ended');
      await dialog.getByLabel('Language').fill('fr');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached', ...WAIT });
      expect(await call(server.url, 'GET', `/series/${series}/metadata`, { token })).toMatchObject({
        titleSort: `Salt and Signal (${viewport})`,
        readingDirection: 'rtl',
        status: 'ended',
        language: 'fr',
        locks: { titleSort: true, readingDirection: true, status: true, language: true },
      });

      const book = showcase.books['Salt & Signal 002']!.id;
      await page.goto(`${server.url}/books/${book}`);
      await page.locator('[data-edit]').click();
      dialog = page.locator('[data-edit-metadata]');
      await dialog.waitFor(WAIT);
      await dialog.getByLabel('Number').fill('12');
      await dialog.getByLabel('Year').fill('2021');
      await dialog.getByLabel('Release month').fill('6');
      await dialog.getByLabel('Release day').fill('15');
      await dialog.getByLabel('ISBN').fill('9781234567897');
      await dialog.getByRole('button', { name: 'Add a credit' }).click();
      await dialog.getByLabel('Name of credit 1').fill('Mara Quill');
      await dialog.getByLabel('Role of credit 1').selectOption('penciller');
      await dialog.getByRole('button', { name: 'Add a link' }).click();
      await dialog.getByLabel('Label of link 1').fill('Publisher');
      await dialog.getByLabel('Address of link 1').fill('https://example.org/salt-and-signal-2');
      await expectLegibleFields(page, viewport, '[data-edit-metadata]');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached', ...WAIT });
      expect(await call(server.url, 'GET', `/books/${book}/metadata`, { token })).toMatchObject({
        number: 12,
        year: 2021,
        month: 6,
        day: 15,
        isbn: '9781234567897',
        authors: [{ name: 'Mara Quill', role: 'penciller' }],
        links: [{ label: 'Publisher', url: 'https://example.org/salt-and-signal-2' }],
        locks: { number: true, isbn: true, authors: true, links: true },
      });
    });
  }
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

  it('shows admin tables on a phone as cards with every action in view (point 12)', async () => {
    const page = await signedInPage('phone');
    await page.goto(`${server.url}/admin/users`);
    const row = page.locator('table tbody tr').filter({ hasText: 'reader@example.test' });
    await row.waitFor(WAIT);
    const buttons = row.getByRole('button');
    expect(await buttons.count()).toBeGreaterThan(0);
    for (const box of await buttons.evaluateAll((all) =>
      all.map((button) => button.getBoundingClientRect().toJSON()),
    )) {
      expect(box.right).toBeLessThanOrEqual(390);
    }
    // Each cell says which column it is.
    const email = row.locator('td', { hasText: 'reader@example.test' });
    expect(await email.getAttribute('data-label')).toBe('Email');
  });

  it('lets a desktop see the rest of a Home row (point 12)', async () => {
    const page = await signedInPage('desktop');
    await page.setViewportSize({ width: 900, height: 800 });
    await page.goto(`${server.url}/`);
    const row = page.locator('[data-row="recently-updated"]');
    const strip = row.locator('.row');
    await strip.locator('[data-series-id]').first().waitFor(WAIT);
    const scrolled = () => strip.evaluate((element) => element.scrollLeft);
    expect(await scrolled()).toBe(0);
    await row.getByRole('button', { name: 'Scroll Recently updated series on' }).click();
    await expect.poll(scrolled, WAIT).toBeGreaterThan(0);
    await row.getByRole('link', { name: 'See all of Recently updated series' }).click();
    await page.waitForURL(/\/libraries\/all\?sort=date_updated&order=desc$/, WAIT);
    await page.locator('[data-series-id]').first().waitFor(WAIT);
  });

  it('keeps the header to one row on a phone (point 12)', async () => {
    const page = await signedInPage('phone');
    for (const where of ['/', `/libraries/${showcase.libraryId}`, '/admin/libraries', '/admin/users', '/admin/tasks']) {
      await page.goto(`${server.url}${where}`);
      await page
        .locator('main h1')
        .first()
        .waitFor({ state: 'attached', ...WAIT });
      const header = await page.locator('header').boundingBox();
      expect(header!.height, where).toBeLessThan(72);
      // Nothing of the bar widens the page: the phone lays it out 390 px wide, with no sideways scroll.
      const widths = await page.evaluate(() => ({
        layout: window.innerWidth,
        page: document.documentElement.scrollWidth,
      }));
      expect(widths, where).toEqual({ layout: 390, page: 390 });
      // The page's own link is in view within the bar.
      const current = page.locator('header [aria-current="page"]');
      if ((await current.count()) > 0) {
        const box = await current.boundingBox();
        expect(box!.x, where).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width, where).toBeLessThanOrEqual(390);
      }
    }
  });
});

/**
 * Every visible field within `within` (text, numbers, choices) has text of 16 px or more, so an iPhone does not
 * zoom into it on focus; and nothing reaches past the screen's right edge.
 */
async function expectLegibleFields(page: Page, viewport: ViewportName, within: string) {
  const fields = await page.evaluate(
    (root) =>
      [...document.querySelectorAll<HTMLElement>(`${root} :is(input, select, textarea)`)]
        .filter((element) => {
          const type = element.getAttribute('type') ?? '';
          return !['checkbox', 'radio', 'range', 'hidden'].includes(type) && element.getClientRects().length > 0;
        })
        .map((element) => ({
          name: element.getAttribute('name') ?? element.getAttribute('aria-label') ?? element.id,
          size: Number.parseFloat(getComputedStyle(element).fontSize),
          right: element.getBoundingClientRect().right,
        })),
    within,
  );
  expect(fields.length).toBeGreaterThan(0);
  for (const field of fields) expect(field.size, `${field.name} font size`).toBeGreaterThanOrEqual(16);
  if (viewport === 'phone') {
    const width = page.viewportSize()!.width;
    for (const field of fields) expect(field.right, `${field.name} reaches past the screen`).toBeLessThanOrEqual(width);
  }
}
