import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type LongboxServer, startServer } from '../../support/dev-server';
import { ADMIN, type Session, setupAdmin, signInContext } from './api';
import { launchBrowser, newContext, type ViewportName } from './browser';
import { readerKeysReady } from './reader-keys';
import { createReaderLibrary, type ReaderLibrary } from './reader-library';

/** Every page image the comic reader has on screen has loaded. */
export async function comicPagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const images = [...document.querySelectorAll<HTMLImageElement>('.rd-view img')];
    return images.length > 0 && images.every((image) => image.complete && image.naturalWidth > 0);
  });
}

/**
 * Opens the web reader on a comic and waits until it shows its pages and its keys work: the key listener is
 * attached after the reader's first paint, and a key pressed in the frame the first page appeared in (it can
 * arrive that fast) would be missed and the test would flake.
 */
export async function openComicReader(page: Page, baseUrl: string, bookId: string): Promise<void> {
  await page.goto(`${baseUrl}/read/${bookId}`);
  await comicPagesLoaded(page);
  await readerKeysReady(page);
}

/** What a readers suite shares: set by its `beforeAll`, so read them inside tests only. */
export interface ReaderSuite {
  server: LongboxServer;
  browser: Browser;
  /** The admin's API session, for the test's own calls. */
  session: Session;
  library: ReaderLibrary;
  /** A page in a new browser context (its own device) of `viewport`, signed in as the admin. */
  signedInPage(viewport: ViewportName, options?: BrowserContextOptions): Promise<Page>;
}

/**
 * Starts what a readers suite runs against — `wrangler dev`, Chromium, the admin and the reader library — before
 * its tests, and closes the contexts its pages opened, the browser and the server after them. Call it in the body
 * of `describeWithChromium`.
 */
export function readerSuite(): ReaderSuite {
  const contexts: BrowserContext[] = [];
  const suite = {
    async signedInPage(viewport: ViewportName, options: BrowserContextOptions = {}) {
      const context = await newContext(suite.browser, viewport, options);
      contexts.push(context);
      await signInContext(context, suite.server.url, ADMIN.username, ADMIN.password);
      return context.newPage();
    },
  } as ReaderSuite;
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([startServer(), launchBrowser()]);
    suite.session = await setupAdmin(suite.server.url);
    suite.library = await createReaderLibrary(suite.server.url, suite.session.token);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}
