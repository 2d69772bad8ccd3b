import type { Page } from 'playwright-core';

/**
 * Waits until the reader's key listener is attached. It is attached after the reader's first paint, and
 * the first page can arrive within that very frame: a key pressed then is missed and the test flakes.
 */
export async function readerKeysReady(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
}
