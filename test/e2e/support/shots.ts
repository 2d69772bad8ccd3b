/**
 * What `npm run screenshots` photographs. Each file in test/e2e/shots/ exports `shots`; adding a screen
 * to the README's gallery is adding an entry there (the reader's shots live in their own file).
 */
import type { Page } from 'playwright-core';
import type { Showcase } from './showcase';

export interface ShotContext {
  baseUrl: string;
  showcase: Showcase;
  /** The showcase's read list (seedLists). */
  readListId: string;
}

export interface Shot {
  /** File name without extension: docs/screenshots/<viewport>-<name>.png */
  name: string;
  /** The app path to open. */
  path(context: ShotContext): string;
  /** Waits until the screen is ready (and may interact with it) before the picture is taken. */
  ready(page: Page, context: ShotContext): Promise<void>;
  /** Only the part above the fold (readers, dialogs); default: the whole page. */
  viewportOnly?: boolean;
  colorScheme?: 'light' | 'dark';
}

/**
 * Every `<img>` on the page finished loading, lazy ones (off screen, in the rows' overflow) included:
 * screenshots never show half-loaded covers.
 */
export async function imagesLoaded(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const image of document.images) image.loading = 'eager';
  });
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
}
