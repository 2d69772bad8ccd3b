import type { Page } from 'playwright-core';
import { readerKeysReady } from './reader-keys';

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
