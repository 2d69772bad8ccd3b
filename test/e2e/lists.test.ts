/**
 * Issue 19 in a real Chromium against `wrangler dev`: on a phone and a desktop, a read list is made from two
 * series' pages, reordered (by dragging on the desktop, with the move buttons — the keyboard way — on the
 * phone), read in its order in the reader, and a smart collection is pinned to the home screen; the series
 * grid's filter is saved as a smart collection, shows its series, is edited through the grid and pinned.
 */
import type { Browser, Page } from 'playwright-core';
import { readerKeysReady } from './support/reader-keys';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, call, signInContext } from './support/api';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { type Showcase, seedShowcase } from './support/showcase';
import { type LongboxServer, startServer } from '../support/dev-server';

const WAIT = { timeout: 15_000 };

describeWithChromium('collections and read lists in the web app', () => {
  let server: LongboxServer;
  let browser: Browser;
  let showcase: Showcase;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    showcase = await seedShowcase(server.url);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signedIn(viewport: ViewportName): Promise<Page> {
    const context = await newContext(browser, viewport);
    await signInContext(context, server.url, ADMIN.username, ADMIN.password);
    const page = await context.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    return page;
  }

  const listTitles = (page: Page) =>
    page.locator('[data-read-list-books] .read-list__book .card-link__title').allTextContents();

  async function addSeriesToReadList(page: Page, series: string, list: string, create: boolean) {
    await page.goto(`${server.url}/series/${showcase.series[series]?.id}`);
    await page.locator('[data-books] a[data-book-id]').first().waitFor();
    const form = page.locator('[data-add-to="readlist"]');
    await form.getByRole('button', { name: 'Add to read list' }).click();
    if (create) {
      await form.getByLabel('New list name').fill(list);
    } else {
      await expect.poll(() => form.locator('option').allTextContents(), WAIT).toContain(list);
      await form.getByLabel('Read list').selectOption({ label: list });
    }
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await form.getByRole('status').getByText(`Added to ${list}`).waitFor();
  }

  /** Two series per viewport, so one run's reading does not decide where the other's "Read in order" starts. */
  const SERIES = { phone: ['Iron Meadow', 'Quiet Engines'], desktop: ['Salt & Signal', 'Wandering Kites'] } as const;
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const booksOf = (series: string) =>
    Object.keys(showcase.books)
      .filter((title) => title.startsWith(`${series} `))
      .sort();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: makes a read list from two series, reorders it and reads it in order`, async () => {
      const page = await signedIn(viewport);
      const name = `Crossover (${viewport})`;
      const [first, second] = SERIES[viewport];
      await addSeriesToReadList(page, first, name, true);
      await addSeriesToReadList(page, second, name, false);
      const initial = [...booksOf(first), ...booksOf(second)];

      await page.goto(`${server.url}/readlists`);
      await page.getByRole('link', { name: new RegExp(literal(name)) }).click();
      await expect.poll(() => listTitles(page), WAIT).toEqual(initial);

      // The last book moves to the top.
      const last = initial.at(-1) as string;
      const reordered = [last, ...initial.slice(0, -1)];
      if (viewport === 'desktop') {
        await page.dragAndDrop(
          `[data-read-list-books] li:nth-child(${initial.length})`,
          '[data-read-list-books] li:nth-child(1)',
        );
      } else {
        // Without a pointer: the book's "move up" button, pressed with the keyboard until it is first.
        for (let step = 1; step < initial.length; step++) {
          await page.getByRole('button', { name: `Move ${last} up` }).focus();
          await page.keyboard.press('Enter');
          await expect.poll(async () => (await listTitles(page)).indexOf(last), WAIT).toBe(initial.length - 1 - step);
        }
      }
      await expect.poll(() => listTitles(page), WAIT).toEqual(reordered);
      // Saved on the server, not just on screen.
      const listId = new URL(page.url()).pathname.split('/').pop() as string;
      await expect
        .poll(async () => {
          const books = await call(server.url, 'GET', `/readlists/${listId}/books`, { token: showcase.token });
          return books.data.map((b: { title: string }) => b.title);
        }, WAIT)
        .toEqual(reordered);

      // Read in order: the reader carries on with the list's next book, not the series'.
      await page.getByRole('link', { name: 'Read in order' }).click();
      await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe(`/read/${showcase.books[last]?.id}`);
      await page.locator('.rd-view img').first().waitFor(WAIT);
      // The list's books arrive after the first page, and the key listener after the first paint.
      await page.waitForLoadState('networkidle');
      await readerKeysReady(page);
      await page.keyboard.press('End');
      await page.keyboard.press('ArrowRight');
      await page.getByText(`Continue with ${reordered[1]}`).waitFor(WAIT);
      await page.keyboard.press('ArrowRight');
      const url = () => new URL(page.url());
      await expect.poll(() => url().pathname, WAIT).toBe(`/read/${showcase.books[reordered[1] as string]?.id}`);
      expect(url().searchParams.get('readlist')).toBe(listId);
      await page.context().close();
    });

    it(`${viewport}: saves the grid's filter as a smart collection, sees its series, edits it and pins it`, async () => {
      const name = `Saved filter (${viewport})`;
      const [before, after] = viewport === 'phone' ? ['Paper', 'Quiet'] : ['Wandering', 'Iron'];
      const page = await signedIn(viewport);
      const gridTitles = () => page.locator('a[data-series-id] .card-link__title').allTextContents();
      await page.goto(`${server.url}/libraries/${showcase.libraryId}`);
      await page.locator('a[data-series-id]').first().waitFor(WAIT);
      await page.getByLabel('Title contains').fill(before);
      await page.getByLabel('Title contains').press('Enter');
      await expect.poll(gridTitles, WAIT).toEqual([before === 'Paper' ? 'Paper Comets' : 'Wandering Kites']);

      await page.getByRole('button', { name: 'Save as smart collection' }).click();
      await page.getByLabel('Smart collection name').fill(name);
      await page.locator('[data-smart-collection]').getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => new URL(page.url()).pathname, WAIT).toMatch(/^\/collections\/[0-9a-f-]{36}$/);
      const id = new URL(page.url()).pathname.split('/').pop() as string;
      await page.getByRole('heading', { name }).waitFor(WAIT);
      const members = () => page.locator('[data-members] a[data-series-id] .card-link__title').allTextContents();
      await expect.poll(members, WAIT).toEqual([before === 'Paper' ? 'Paper Comets' : 'Wandering Kites']);

      // Edit: the grid opens with the saved filter; another title, then the collection is updated in place.
      await page.getByRole('link', { name: 'Edit filter' }).click();
      await expect.poll(() => page.getByLabel('Title contains').inputValue(), WAIT).toBe(before);
      await expect.poll(gridTitles, WAIT).toEqual([before === 'Paper' ? 'Paper Comets' : 'Wandering Kites']);
      await page.getByLabel('Title contains').fill(after);
      await page.getByLabel('Title contains').press('Enter');
      const afterTitle = after === 'Quiet' ? 'Quiet Engines' : 'Iron Meadow';
      await expect.poll(gridTitles, WAIT).toEqual([afterTitle]);
      await page.getByRole('button', { name: 'Update smart collection' }).click();
      await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe(`/collections/${id}`);
      await expect.poll(members, WAIT).toEqual([afterTitle]);
      const saved = await call(server.url, 'GET', `/collections/${id}`, { token: showcase.token });
      expect(saved).toMatchObject({ name, automatic: true, target: 'series', sort: 'name,asc' });
      expect(JSON.stringify(saved.condition)).toContain(after);
      const all = await call(server.url, 'GET', '/collections', { token: showcase.token, query: { pageSize: '500' } });
      expect(all.data.filter((c: { name: string }) => c.name === name)).toHaveLength(1);

      await page.getByLabel('Show on home').check();
      await expect
        .poll(
          async () => (await call(server.url, 'GET', `/collections/${id}`, { token: showcase.token })).pinnedToHome,
          WAIT,
        )
        .toBe(true);
      await page.getByRole('link', { name: 'Home' }).first().click();
      const row = page.locator(`[data-row="collection-${id}"]`);
      await row.getByRole('heading', { name }).waitFor(WAIT);
      await expect
        .poll(() => row.locator('a[data-series-id] .card-link__title').allTextContents(), WAIT)
        .toEqual([afterTitle]);
      await page.context().close();
    });

    it(`${viewport}: pins a smart collection to the home screen`, async () => {
      const name = `Harbor (${viewport})`;
      const smart = await call(server.url, 'POST', '/collections', {
        token: showcase.token,
        json: { name, condition: { name: { operator: 'beginsWith', value: 'Harbor' } } },
      });
      const page = await signedIn(viewport);
      await page.goto(`${server.url}/collections/${smart.id}`);
      await page.locator('[data-members] a[data-series-id]').first().waitFor(WAIT);
      await page.getByLabel('Show on home').check();
      await expect
        .poll(
          async () =>
            (await call(server.url, 'GET', `/collections/${smart.id}`, { token: showcase.token })).pinnedToHome,
          WAIT,
        )
        .toBe(true);
      await page.getByRole('link', { name: 'Home' }).first().click();
      const row = page.locator(`[data-row="collection-${smart.id}"]`);
      await row.getByRole('heading', { name }).waitFor(WAIT);
      await expect.poll(() => row.locator('a[data-series-id]').count(), WAIT).toBe(1);
      await page.context().close();
    });
  }
});
