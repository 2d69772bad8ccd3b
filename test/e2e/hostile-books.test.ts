/**
 * Issue 29 "Done when": the hostile-book corpus (test/fixtures/hostile-books.ts) opened in real Chromium,
 * on a phone (390×844) and a desktop, in the web reader, on the app's screens and in a direct tab. For
 * each: no script of the book ran (every payload would record itself in `window.__hostile` and rename the
 * tab), no request left for another origin (every request of the page and its frames is recorded, and a
 * trap server at the payloads' address counts what reaches it), the session was never readable (no token
 * in localStorage or sessionStorage, no session cookie in `document.cookie`), and the book still displays.
 * The reader's frames are also checked directly: sandboxed without `allow-scripts` (DECISIONS.md §Security).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hostileCbz, hostileEpub, VISIBLE_TEXT } from '../fixtures/hostile-books';
import { ADMIN, call, createLibrary, setupAdmin, signInContext, scanAndWait, uploadBook } from './support/api';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { type LongboxServer, startServer } from '../support/dev-server';

/** Where every payload sends what it stole: a server of another origin that only records. */
interface Trap {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

async function startTrap(): Promise<Trap> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A session token (a JWT) anywhere a script could read it. */
const JWT = /eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/;
/** The phone of issue 29's "Done when": 390×844 CSS pixels. */
const PHONE = { viewport: { width: 390, height: 844 } };
/** Generous: the machine running the browser, wrangler and the renderer may be busy. */
const WAIT = { timeout: 15_000 };

describeWithChromium('hostile books (issue 29)', () => {
  let server: LongboxServer;
  let browser: Browser;
  let trap: Trap;
  let adminToken: string;
  let epub: { id: string; seriesId: string };
  let comic: { id: string; seriesId: string };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser, trap] = await Promise.all([startServer(), launchBrowser(), startTrap()]);
    const admin = await setupAdmin(server.url);
    adminToken = admin.token;
    const library = await createLibrary(server.url, admin.token, 'Found on the internet');
    await uploadBook(server.url, admin.token, library.id, 'Hostile EPUB/Hostile.epub', hostileEpub(trap.url));
    await uploadBook(server.url, admin.token, library.id, 'Hostile comic/Hostile comic 1.cbz', hostileCbz(trap.url));
    await scanAndWait(server.url, admin.token, library.id);
    const books = await call(server.url, 'GET', '/books', { token: admin.token });
    const find = (prefix: string) => books.data.find((book: { title: string }) => book.title.startsWith(prefix));
    epub = find('Hostile EPUB');
    comic = find('Hostile comic');
    expect(epub && comic).toBeTruthy();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
    await trap?.close();
  });

  /**
   * A signed-in page whose every request that left the browser (its frames' included) is recorded: each one
   * answered, or failed for any reason but the page's Content-Security-Policy, which stops a request before
   * it is sent.
   */
  async function watchedPage(viewport: ViewportName, options: Parameters<typeof newContext>[2] = {}) {
    const context = await newContext(browser, viewport, { ...(viewport === 'phone' ? PHONE : {}), ...options });
    contexts.push(context);
    await signInContext(context, server.url, ADMIN.username, ADMIN.password);
    const requests: string[] = [];
    context.on('requestfinished', (request) => requests.push(request.url()));
    context.on('requestfailed', (request) => {
      // Chromium reports a request its Content-Security-Policy stopped as failed with "csp".
      if (!/^(?:csp|net::ERR_BLOCKED_BY_CSP)$/.test(request.failure()?.errorText ?? '')) {
        requests.push(`${request.url()} (${request.failure()?.errorText})`);
      }
    });
    return { page: await context.newPage(), requests };
  }

  /** Each reader test starts the book from its beginning, whatever another test read. */
  async function fromTheStart(bookId: string): Promise<void> {
    await call(server.url, 'DELETE', `/books/${bookId}/progress`, { token: adminToken }).catch(() => {});
  }

  /** Nothing the book carried ran, nothing left for another origin, and the session stayed out of reach. */
  async function expectContained(page: Page, requests: string[], where: string): Promise<void> {
    const ran = await page.evaluate(() => (window as { __hostile?: string[] }).__hostile ?? []);
    expect(ran, `${where}: payloads that ran`).toEqual([]);
    // The tab is titled after the book, whose title holds the payloads' words: only a run payload starts it so.
    expect(await page.title(), where).not.toMatch(/^pwned/);
    const origin = new URL(server.url).origin;
    const outside = requests.filter(
      (url) => !url.startsWith(`${origin}/`) && !url.startsWith(`blob:${origin}/`) && !url.startsWith('data:'),
    );
    expect(outside, `${where}: requests to another origin`).toEqual([]);
    expect(trap.hits, `${where}: requests that reached the payloads' server`).toEqual([]);
    const readable = await page.evaluate(() => {
      const read = (storage: () => Storage) => {
        try {
          return JSON.stringify({ ...storage() });
        } catch {
          return ''; // a sandboxed document has no storage at all
        }
      };
      let cookie = '';
      try {
        cookie = document.cookie;
      } catch {
        // an opaque origin has no cookies either
      }
      return { cookie, local: read(() => localStorage), session: read(() => sessionStorage) };
    });
    expect(readable.cookie, where).not.toContain('longbox_session');
    expect(JSON.stringify(readable), `${where}: a token a script could read`).not.toMatch(JWT);
  }

  /** The reader's section frames (foliate-js's), whatever their nesting inside its shadow roots. */
  const sectionFrames = (page: Page) => page.frames().filter((frame) => frame.url().startsWith('blob:'));

  async function sectionText(frame: Frame): Promise<string> {
    return frame.evaluate(() => document.documentElement.textContent ?? '').catch(() => '');
  }

  /** Turns pages until a section frame shows `text` (the reader pages by key on a desktop, by tap on a phone). */
  async function pageUntil(page: Page, viewport: ViewportName, text: string): Promise<void> {
    for (let turn = 0; turn < 60; turn++) {
      for (const frame of sectionFrames(page)) if ((await sectionText(frame)).includes(text)) return;
      if (viewport === 'phone') await page.locator('.rd-zone-right').click();
      else await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(250);
    }
    throw new Error(`"${text}" never appeared in the reader`);
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`reads the hostile EPUB on a ${viewport}: its words show, nothing of it runs or leaves`, async () => {
      const { page, requests } = await watchedPage(viewport);
      await fromTheStart(epub.id);
      await page.goto(`${server.url}/read/${epub.id}`);
      await page.locator('.rd-epub[data-ready="true"]').waitFor(WAIT);
      await pageUntil(page, viewport, VISIBLE_TEXT.chapterOne);

      // Every frame foliate-js made keeps the app's origin (to lay the section out) but may run no script.
      const frames = sectionFrames(page).filter((frame) => frame.parentFrame() === page.mainFrame());
      expect(frames.length).toBeGreaterThan(0);
      for (const frame of frames) {
        const sandbox = (await (await frame.frameElement()).getAttribute('sandbox')) ?? '';
        expect(sandbox.split(/\s+/), 'the section frame’s sandbox').not.toContain('allow-scripts');
        expect(sandbox.split(/\s+/)).toContain('allow-same-origin');
      }
      // The reader says once that the book had scripts.
      await page.getByTestId('epub-scripts-removed').waitFor(WAIT);
      expect(await page.getByTestId('epub-scripts-removed').count()).toBe(1);

      // A reader who clicks the book's script link or sends its form starts nothing.
      for (const frame of frames) {
        for (const selector of ['#js-link', '#data-link', '#submit']) {
          const target = frame.locator(selector);
          if ((await target.count()) > 0) await target.dispatchEvent('click');
        }
      }
      // Long enough for the chapter's `<meta http-equiv="refresh" content="2">` to have fired.
      await page.waitForTimeout(2_500);
      expect(page.url()).toBe(`${server.url}/read/${epub.id}`);

      await pageUntil(page, viewport, VISIBLE_TEXT.chapterTwo);
      await pageUntil(page, viewport, VISIBLE_TEXT.svgChapter);
      await expectContained(page, requests, `EPUB reader (${viewport})`);
    });

    it(`reads the hostile comic on a ${viewport}: its pages show, its SVG pages run nothing`, async () => {
      const { page, requests } = await watchedPage(viewport);
      await fromTheStart(comic.id);
      await page.goto(`${server.url}/read/${comic.id}`);
      await page.waitForFunction(() => {
        const image = document.querySelector<HTMLImageElement>('.rd-view img');
        return image?.complete === true && image.naturalWidth > 0;
      }, WAIT);
      const { width, height } = page.viewportSize()!;
      for (let turn = 0; turn < 3; turn++) {
        if (viewport === 'phone') await page.touchscreen.tap(width - 20, height / 2);
        else await page.keyboard.press('ArrowRight');
        await page.waitForTimeout(300);
      }
      await expectContained(page, requests, `comic reader (${viewport})`);
    });

    it(`shows the hostile metadata as text on every screen on a ${viewport}`, async () => {
      const { page, requests } = await watchedPage(viewport);
      for (const path of [
        `/books/${comic.id}`,
        `/books/${epub.id}`,
        `/series/${comic.seriesId}`,
        `/series/${epub.seriesId}`,
        '/search?q=Hostile',
        '/',
      ]) {
        await page.goto(`${server.url}${path}`);
        await page.getByText('Hostile', { exact: false }).first().waitFor(WAIT);
        await page.waitForTimeout(500);
        await expectContained(page, requests, path);
      }
      // The words are there, as words: the title's markup is shown, not run.
      await page.goto(`${server.url}/books/${comic.id}`);
      await page.getByRole('heading', { level: 1 }).filter({ hasText: '<script>' }).waitFor(WAIT);
      const links = await page
        .locator('[data-metadata] a[target="_blank"]')
        .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
      expect(links).toEqual(['https://example.org/comic']);
    });

    it(`opens every hostile resource in a tab of its own on a ${viewport}`, async () => {
      // Reader-app URLs challenge with Basic, which the browser answers with these.
      const { page, requests } = await watchedPage(viewport, {
        httpCredentials: { username: ADMIN.username, password: ADMIN.password },
      });
      const resource = (entry: string) => `/komga/api/v1/books/${epub.id}/resource/OEBPS/${entry}`;
      const opened: Array<[string, string | null]> = [
        [resource('chapter1.xhtml'), VISIBLE_TEXT.chapterOne],
        [resource('chapter2.xhtml'), VISIBLE_TEXT.chapterTwo],
        [resource('drawing-chapter.svg'), VISIBLE_TEXT.svgChapter],
        [resource('drawing.svg'), 'drawing'],
        [resource('style.css'), 'line-height'],
        [resource('evil.js'), null],
        [`/api/v1/books/${comic.id}/pages/2`, null],
        [`/api/v1/books/${comic.id}/thumbnail`, null],
        [`/api/v1/books/${comic.id}`, 'Hostile comic'],
        [`/opds/v1.2/series/${comic.seriesId}`, 'Hostile comic'],
        [`/opds/v1.2/series/${epub.seriesId}`, 'Hostile EPUB'],
      ];
      for (const [path, text] of opened) {
        const response = await page.goto(`${server.url}${path}`);
        expect(response?.status(), path).toBe(200);
        if (text) {
          await page.waitForFunction((t) => (document.documentElement.textContent ?? '').includes(t), text, WAIT);
        }
        await page.waitForTimeout(text === VISIBLE_TEXT.chapterOne ? 2_500 : 300);
        expect(page.url(), `${path}: the page stayed where it was opened`).toBe(`${server.url}${path}`);
        await expectContained(page, requests, `${path} in a tab`);
      }
      // The app itself, opened afterwards in the same browser: still signed in, its session still unreadable.
      await page.goto(`${server.url}/`);
      await page.getByRole('button', { name: 'Log out' }).waitFor(WAIT);
      await expectContained(page, requests, 'the app afterwards');
    });
  }
});
