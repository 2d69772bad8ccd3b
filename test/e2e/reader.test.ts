/**
 * The readers in a real Chromium against a real `wrangler dev` (issue 12 points 3, 4 and 7), on a phone
 * and a desktop viewport: a comic read in each mode (which page images are shown, at what requested and
 * delivered width), progress seen from another browser context, an EPUB streamed by Range requests and
 * reopened at the same CFI in another context, and a downloaded book read with the network cut, its
 * progress synced when the network returns.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, type Session } from './support/api';
import { describeWithChromium } from './support/browser';
import { comicPagesLoaded, openComicReader, readerSuite } from './support/open-reader';
import { BOOK1_PAGES, BOOK2_PAGES, WIDE_PAGE_NUMBER } from './support/reader-library';
import type { LongboxServer } from '../support/dev-server';

interface Shown {
  page: number;
  part: string;
  width: number | null;
  naturalWidth: number;
}

/** The page images on screen, in visual order, with the `width=` asked for and the width delivered. */
async function shown(page: Page): Promise<Shown[]> {
  await comicPagesLoaded(page);
  return page.$$eval('.rd-view .rd-slot', (slots) =>
    slots.map((slot) => {
      const image = slot.querySelector('img')!;
      const width = new URL(image.src).searchParams.get('width');
      return {
        page: Number((slot as HTMLElement).dataset.page),
        part: (slot as HTMLElement).dataset.part ?? '',
        width: width === null ? null : Number(width),
        naturalWidth: image.naturalWidth,
      };
    }),
  );
}

/** Generous: the machine running the browser, wrangler and the renderer may be busy. */
const WAIT = { timeout: 10_000 };

const pagesShown = async (page: Page) =>
  (await shown(page)).map((s) => (s.part === 'whole' ? `${s.page}` : `${s.page}${s.part[0]}`));

/** Expected `width=` per viewport (360 css px at 2× and 1280×800 at 1×), as the fit rules give them. */
const EXPECTED = {
  phone: { portrait: 800, wide: 800, half: 1440, spread: 480 },
  desktop: { portrait: 640, wide: 1120, half: 1120, spread: 640 },
} as const;

/** The menu (Enter), then its settings panel (the bar's Settings button). */
async function openSettings(page: Page) {
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Settings' }).click();
}

async function chooseInMenu(page: Page, label: string, value: string) {
  await openSettings(page);
  await page.getByLabel(label).selectOption(value);
  await page.keyboard.press('Escape');
  await page.getByLabel(label).waitFor({ state: 'detached' });
}

async function serverProgress(server: LongboxServer, session: Session, bookId: string) {
  try {
    return await call(server.url, 'GET', `/books/${bookId}/progress`, { token: session.token });
  } catch {
    return null;
  }
}

describeWithChromium('the readers', () => {
  const suite = readerSuite();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`reads a comic in every mode on a ${viewport}`, async () => {
      const expected = EXPECTED[viewport];
      const page = await suite.signedInPage(viewport);
      const { width, height } = page.viewportSize()!;
      const next = async () => {
        if (viewport === 'phone') await page.touchscreen.tap(width - 20, height / 2);
        else await page.keyboard.press('ArrowRight');
      };
      await openComicReader(page, suite.server.url, suite.library.book1.id);
      await page.keyboard.press('Home');

      // Left to right, one page: the first page at the screen's pixel width, resized by the server.
      expect(await shown(page)).toEqual([
        { page: 1, part: 'whole', width: expected.portrait, naturalWidth: expected.portrait },
      ]);
      await next();
      expect(await pagesShown(page)).toEqual(['2']);
      const transform = () => page.locator('.rd-view').evaluate((view) => (view as HTMLElement).style.transform);
      if (viewport === 'phone') {
        // Double tap in the middle zooms in; the zoom resets when the page turns.
        await page.touchscreen.tap(width / 2, height / 2);
        await page.touchscreen.tap(width / 2, height / 2);
        await expect.poll(transform, WAIT).toContain('scale(2.5)');
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('ArrowRight');
        expect(await pagesShown(page)).toEqual(['2']);
        expect(await transform()).toBe('');
      }
      await next();
      await next();
      await next();
      // The wide page is shown whole.
      const wide = await shown(page);
      expect(wide).toEqual([
        { page: WIDE_PAGE_NUMBER, part: 'whole', width: expected.wide, naturalWidth: expected.wide },
      ]);

      // Split: the wide scan becomes two screens, left half first, the whole image fetched at twice the width.
      await page.keyboard.press('s');
      expect(await shown(page)).toEqual([
        { page: WIDE_PAGE_NUMBER, part: 'left', width: expected.half, naturalWidth: expected.half },
      ]);
      await next();
      expect(await pagesShown(page)).toEqual(['5r']);

      // Right to left (chosen for this series in the menu): halves and turns go the other way.
      await chooseInMenu(page, 'Reading mode', 'rtl');
      expect(await page.locator('.rd').getAttribute('data-mode')).toBe('rtl');
      expect(await pagesShown(page)).toEqual(['5r']);
      await page.keyboard.press('ArrowLeft');
      expect(await pagesShown(page)).toEqual(['5l']);

      // Two pages per screen, cover alone: the earlier page on the right in RTL, the wide page alone.
      await page.keyboard.press('d');
      await page.keyboard.press('Home');
      expect(await pagesShown(page)).toEqual(['1']);
      await page.keyboard.press('ArrowLeft');
      const spread = await shown(page);
      expect(spread.map((s) => s.page)).toEqual([3, 2]);
      expect(spread.map((s) => s.width)).toEqual([expected.spread, expected.spread]);
      await page.keyboard.press('ArrowLeft');
      expect(await pagesShown(page)).toEqual(['4']);
      await page.keyboard.press('ArrowLeft');
      expect(await pagesShown(page)).toEqual(['5']);

      // Vertical: the down arrow turns the page.
      await chooseInMenu(page, 'Reading mode', 'ttb');
      await page.keyboard.press('ArrowDown');
      expect(await pagesShown(page)).toEqual(['6']);

      // Webtoon: one continuous strip that carries on into the next book.
      await chooseInMenu(page, 'Reading mode', 'webtoon');
      const strip = page.locator('.rd-webtoon');
      await expect
        .poll(() => strip.locator(`[data-book="${suite.library.book1.id}"] img`).count(), WAIT)
        .toBe(BOOK1_PAGES);
      const stripWidth = await strip
        .locator('img')
        .first()
        .evaluate((image) => image.getBoundingClientRect().width);
      expect(stripWidth).toBe(Math.min(width, 900));
      await strip.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      const book2Pages = strip.locator(`[data-book="${suite.library.book2.id}"]`);
      await expect.poll(() => book2Pages.count(), WAIT).toBe(BOOK2_PAGES);
      await book2Pages.first().evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe(`/read/${suite.library.book2.id}`);
      // Scrolling into the next book finished the first one.
      await expect
        .poll(async () => (await serverProgress(suite.server, suite.session, suite.library.book1.id))?.completed, {
          timeout: 10_000,
        })
        .toBe(true);
    });
  }

  it('shows progress made in one browser context when the book is opened in another', async () => {
    const first = await suite.signedInPage('desktop');
    await openComicReader(first, suite.server.url, suite.library.book1.id);
    await first.keyboard.press('Home');
    for (let turn = 0; turn < 2; turn++) await first.keyboard.press('ArrowRight');
    expect(await pagesShown(first)).toEqual(['3']);
    await expect
      .poll(async () => (await serverProgress(suite.server, suite.session, suite.library.book1.id))?.currentPage, {
        timeout: 10_000,
      })
      .toBe(3);
    const second = await suite.signedInPage('phone');
    await openComicReader(second, suite.server.url, suite.library.book1.id);
    expect(await pagesShown(second)).toEqual(['3']);

    // At the end of the book, the next turn offers the next book and the one after opens it.
    await first.keyboard.press('End');
    await first.keyboard.press('ArrowRight');
    await first.getByText(`Continue with ${suite.library.book2.title}`).waitFor();
    await first.keyboard.press('ArrowRight');
    await expect.poll(() => new URL(first.url()).pathname, WAIT).toBe(`/read/${suite.library.book2.id}`);
    expect(await pagesShown(first)).toEqual(['1']);
  });

  it('streams an EPUB by Range requests and reopens it at the same place in another context', async () => {
    const page = await suite.signedInPage('desktop');
    const fileRequests: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`/books/${suite.library.novel.id}/file`)) fileRequests.push(request.headers().range);
    });
    await page.goto(`${suite.server.url}/read/${suite.library.novel.id}`);
    const root = page.locator('.rd-epub[data-ready="true"]');
    await root.waitFor();
    expect(await root.getAttribute('data-cfi')).toMatch(/^epubcfi\(/);
    for (let turn = 0; turn < 6; turn++) {
      const before = await root.getAttribute('data-cfi');
      // foliate-js ignores a turn asked for while the previous one is still settling: press until it moves.
      await expect
        .poll(
          async () => {
            await page.keyboard.press('ArrowRight');
            await page.waitForTimeout(300);
            return root.getAttribute('data-cfi');
          },
          { timeout: 15_000, interval: 200 },
        )
        .not.toBe(before);
    }
    const here = await root.getAttribute('data-cfi');
    await expect
      .poll(async () => (await serverProgress(suite.server, suite.session, suite.library.novel.id))?.locator, {
        timeout: 10_000,
      })
      .toBe(here);
    expect(fileRequests.length).toBeGreaterThan(0);
    expect(fileRequests.every((range) => range?.startsWith('bytes='))).toBe(true);

    // Another browser with the same screen opens at exactly the same place…
    const elsewhere = await suite.signedInPage('desktop');
    await elsewhere.goto(`${suite.server.url}/read/${suite.library.novel.id}`);
    const reopened = elsewhere.locator('.rd-epub[data-ready="true"]');
    await reopened.waitFor();
    await expect.poll(() => reopened.getAttribute('data-cfi'), { timeout: 10_000 }).toBe(here);
    // …and a phone, whose pages break elsewhere, opens in the same chapter at the page holding that place.
    const phone = await suite.signedInPage('phone');
    await phone.goto(`${suite.server.url}/read/${suite.library.novel.id}`);
    const onPhone = phone.locator('.rd-epub[data-ready="true"]');
    await onPhone.waitFor();
    const chapterOf = (cfi: string | null) => cfi?.slice(0, cfi.indexOf('!'));
    expect(chapterOf(await onPhone.getAttribute('data-cfi'))).toBe(chapterOf(here));
  });

  it('reads a downloaded comic with the network cut and syncs its progress when the network returns', async () => {
    const page = await suite.signedInPage('phone');
    const context = page.context();
    const { width, height } = page.viewportSize()!;
    await openComicReader(page, suite.server.url, suite.library.book1.id);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.keyboard.press('Home');
    expect(await pagesShown(page)).toEqual(['1']);
    await openSettings(page);
    await page.getByRole('button', { name: 'Download for offline' }).click();
    await page.getByText('Available offline').waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');

    await context.setOffline(true);
    // Cut for the page and for its service worker: a book that was not downloaded cannot be fetched.
    const reach = (url: string) =>
      page.evaluate(
        (target) =>
          fetch(target).then(
            () => 'reached',
            () => 'unreachable',
          ),
        url,
      );
    expect(await reach('/api/v1/health')).toBe('unreachable');
    expect(await reach(`/api/v1/books/${suite.library.book2.id}`)).toBe('unreachable');
    await page.reload();
    await page.locator('.rd-view img').first().waitFor();
    await page.keyboard.press('Home');
    expect(await pagesShown(page)).toEqual(['1']);
    for (let turn = 0; turn < 3; turn++) await page.touchscreen.tap(width - 20, height / 2);
    const offlinePages = await shown(page);
    expect(offlinePages.map((s) => s.page)).toEqual([4]);
    expect(offlinePages[0]!.naturalWidth).toBe(EXPECTED.phone.portrait);
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('longbox.progress.pending') ?? '{}')))
      .toMatchObject({ [suite.library.book1.id]: { update: { currentPage: 4 } } });
    expect((await serverProgress(suite.server, suite.session, suite.library.book1.id))?.currentPage).not.toBe(4);

    await context.setOffline(false);
    await expect
      .poll(async () => (await serverProgress(suite.server, suite.session, suite.library.book1.id))?.currentPage, {
        timeout: 15_000,
      })
      .toBe(4);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('longbox.progress.pending')), WAIT).toBe('{}');
  });

  it('reads a downloaded EPUB with the network cut, from the kept file', async () => {
    const page = await suite.signedInPage('phone');
    const context = page.context();
    await page.goto(`${suite.server.url}/read/${suite.library.novel.id}`);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    const root = page.locator('.rd-epub[data-ready="true"]');
    await root.waitFor();
    await page.getByRole('button', { name: 'Reader menu' }).first().click();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Download for offline' }).click();
    await page.getByText('Available offline').waitFor({ timeout: 30_000 });

    await context.setOffline(true);
    const fileRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/books/${suite.library.novel.id}/file`)) fileRequests.push(request.url());
    });
    await page.reload();
    await root.waitFor({ timeout: 30_000 });
    expect(await root.getAttribute('data-cfi')).toMatch(/^epubcfi\(/);
    // The chapter is on screen (foliate-js keeps its documents behind closed shadow roots: ask the view).
    const heading = () =>
      page.evaluate(() => {
        const view = document.querySelector('foliate-view') as
          | (Element & { renderer?: { getContents(): { doc: Document }[] } })
          | null;
        return view?.renderer?.getContents()[0]?.doc.querySelector('h1')?.textContent ?? null;
      });
    await expect.poll(heading, WAIT).toMatch(/^Chapter \d+$/);
    // The book came from the kept copy: no Range request went out.
    expect(fileRequests).toEqual([]);
    await context.setOffline(false);
  });

  /**
   * Issue 31 point 1: pressing Read on a finished book to look at it must not mark it unread. The reader
   * opens it at the start and records nothing until a page is turned (DECISIONS.md §Web app).
   */
  describe('a finished book opened and closed without turning a page stays read', () => {
    const readState = async (bookId: string, seriesId: string) => {
      const progress = await serverProgress(suite.server, suite.session, bookId);
      const series = await call(suite.server.url, 'GET', `/series/${seriesId}`, { token: suite.session.token });
      return { completed: progress?.completed, unreadCount: series.unreadCount };
    };
    /** Longer than the saver's debounce (800 ms): a position recorded on opening would have gone out. */
    const linger = (page: Page) => page.waitForTimeout(2_000);

    for (const viewport of ['phone', 'desktop'] as const) {
      it(`a comic, on a ${viewport}`, async () => {
        const { book2, book1 } = suite.library;
        await call(suite.server.url, 'POST', `/books/${book2.id}/read`, { token: suite.session.token });
        const before = await readState(book2.id, book1.seriesId);
        expect(before.completed).toBe(true);

        const page = await suite.signedInPage(viewport);
        await openComicReader(page, suite.server.url, book2.id);
        expect(await pagesShown(page)).toEqual(['1']);
        await linger(page);
        await page.keyboard.press('Escape');
        await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe(`/books/${book2.id}`);
        await linger(page);
        expect(await page.evaluate(() => localStorage.getItem('longbox.progress.pending') ?? '{}')).toBe('{}');
        expect(await readState(book2.id, book1.seriesId)).toEqual(before);

        if (viewport === 'desktop') {
          // Turning a page starts reading it again, as in Komga: the book is in progress at that page.
          await openComicReader(page, suite.server.url, book2.id);
          await page.keyboard.press('ArrowRight');
          await expect
            .poll(async () => (await serverProgress(suite.server, suite.session, book2.id))?.currentPage, {
              timeout: 10_000,
            })
            .toBe(2);
          expect((await serverProgress(suite.server, suite.session, book2.id))?.completed).toBe(false);
        }
      });
    }

    it('an EPUB', async () => {
      const { novel } = suite.library;
      await call(suite.server.url, 'POST', `/books/${novel.id}/read`, { token: suite.session.token });
      const seriesId = (await call(suite.server.url, 'GET', `/books/${novel.id}`, { token: suite.session.token }))
        .seriesId;
      const before = await readState(novel.id, seriesId);
      expect(before.completed).toBe(true);

      const page = await suite.signedInPage('desktop');
      await page.goto(`${suite.server.url}/read/${novel.id}`);
      await page.locator('.rd-epub[data-ready="true"]').waitFor();
      const opened = await page.locator('.rd-epub').getAttribute('data-cfi');
      // The window changes size (a tablet turned): the book is laid out again, which moves nobody.
      await page.setViewportSize({ width: 760, height: 1000 });
      await expect.poll(() => page.locator('.rd-epub').getAttribute('data-cfi'), WAIT).not.toBe('');
      await linger(page);
      expect(opened).toMatch(/^epubcfi\(/);
      await page.keyboard.press('Escape');
      await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe(`/books/${novel.id}`);
      await linger(page);
      expect(await readState(novel.id, seriesId)).toEqual(before);
    });
  });
});
