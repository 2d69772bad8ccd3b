/**
 * Release tracking in the web app (issue 32), in Chromium on a phone (390×844) and a desktop, against a real
 * `wrangler dev` whose providers are the fake MangaUpdates and AniList (test/support/provider-fakes on a
 * loopback port): the series page's tracking card with its gap ("3 chapters and 1 volume behind,
 * MangaUpdates") and its edit form, the Releases entry's count, the inbox, marking a release acquired. The
 * same run writes docs/screenshots/<viewport>-series-tracking.png, -tracking-edit.png and -releases.png under
 * `npm run screenshots` (a temporary folder otherwise: support/screenshot-dir.ts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildZip } from '../fixtures/zip-writer';
import { startFakeProviders } from '../support/provider-fakes/node-server.mjs';
import { type LongboxServer, startServer } from '../support/dev-server';
import {
  ADMIN,
  call,
  createLibrary,
  type Session,
  scanAndWait,
  setupAdmin,
  signInContext,
  uploadBook,
} from './support/api';
import { describeWithChromium, launchBrowser, newContext } from './support/browser';
import { SCREENSHOT_DIR } from './support/screenshot-dir';
import { drawPage } from './support/showcase';
import { imagesLoaded } from './support/shots';

/** Screens wait for the server and the event stream: a poll gives them this long. */
const PATIENCE = { timeout: 20_000 };
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 } },
  desktop: {},
} as const;

/** Two manga series: on disk, the chapters they have; upstream, what MangaUpdates lists. */
const MANGA = [
  {
    title: 'Tsuki no Kioku',
    color: '#23395b',
    mangaUpdates: '15180124327',
    aniList: '105778',
    chapters: Array.from({ length: 11 }, (_, i) => ({ chapter: i + 1, volume: i < 6 ? 1 : 2 })),
    upstream: { latestChapter: 14, status: '3 Volumes (Ongoing)', releases: [14, 13, 12] },
  },
  {
    title: 'Kaze no Uta',
    color: '#7a4b1f',
    mangaUpdates: '15180124328',
    aniList: '105779',
    chapters: Array.from({ length: 8 }, (_, i) => ({ chapter: i + 1, volume: 1 })),
    upstream: { latestChapter: 10, status: '1 Volume (Ongoing)', releases: [10, 9] },
  },
];

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function mangaChapter(title: string, chapter: number, volume: number, color: string) {
  const files = [
    { name: '001.jpg', data: await drawPage(title, chapter, 1, color) },
    { name: '002.jpg', data: await drawPage(title, chapter, 2, color) },
    {
      name: 'ComicInfo.xml',
      data: new TextEncoder().encode(
        `<?xml version="1.0"?><ComicInfo><Series>${escapeXml(title)}</Series><Number>${chapter}</Number><Volume>${volume}</Volume><Manga>YesAndRightToLeft</Manga></ComicInfo>`,
      ),
    },
  ];
  return buildZip(files);
}

async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs: number,
  explain: () => Promise<string>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${await explain()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describeWithChromium('release tracking in the web app (issue 32)', () => {
  let fakes: Awaited<ReturnType<typeof startFakeProviders>>;
  let server: LongboxServer;
  let browser: Browser;
  let session: Session;
  const seriesIds: Record<string, string> = {};

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    fakes = await startFakeProviders(ROOT);
    [server, browser] = await Promise.all([startServer({ vars: fakes.vars }), launchBrowser()]);
    session = await setupAdmin(server.url);
    const { token } = session;
    const library = await createLibrary(server.url, token, 'Manga', 'manga');
    for (const manga of MANGA) {
      for (const { chapter, volume } of manga.chapters) {
        const name = `${manga.title}/${manga.title} ch.${String(chapter).padStart(3, '0')}.cbz`;
        await uploadBook(
          server.url,
          token,
          library.id,
          name,
          await mangaChapter(manga.title, chapter, volume, manga.color),
        );
      }
    }
    await scanAndWait(server.url, token, library.id);
    const listed = await call(server.url, 'GET', '/series', { token, query: { pageSize: '100' } });
    for (const series of listed.data) seriesIds[series.title] = series.id;

    for (const manga of MANGA) {
      const put = (control: string, body: unknown) =>
        fetch(`${fakes.url}/__fake/${control}`, { method: 'PUT', body: JSON.stringify(body) });
      await put(`mangaupdates/series/${manga.mangaUpdates}`, {
        title: manga.title,
        latestChapter: manga.upstream.latestChapter,
        status: manga.upstream.status,
        releases: manga.upstream.releases.map((chapter) => ({
          id: Number(`${manga.mangaUpdates.slice(-3)}${chapter}`),
          chapter: String(chapter),
          volume: chapter > 11 ? '3' : '',
          group: 'Lunar Scans',
          releaseDate: `2026-11-${String(chapter + 10).padStart(2, '0')}`,
        })),
      });
      await put(`anilist/media/${manga.aniList}`, {
        title: { romaji: manga.title },
        status: 'RELEASING',
        chapters: null,
        volumes: null,
      });
      const id = seriesIds[manga.title] as string;
      await call(server.url, 'PATCH', `/series/${id}/tracking`, { token, json: { tracked: true } });
      await call(server.url, 'POST', `/series/${id}/external-ids`, {
        token,
        json: { source: 'mangaupdates', externalId: manga.mangaUpdates },
      });
      await call(server.url, 'POST', `/series/${id}/external-ids`, {
        token,
        json: { source: 'anilist', externalId: manga.aniList },
      });
      await call(server.url, 'POST', `/series/${id}/tracking/poll-now`, { token });
    }
    const expected = MANGA.reduce((n, m) => n + m.upstream.releases.length, 0);
    await waitFor(
      'the polls',
      async () => {
        const inbox = await call(server.url, 'GET', '/releases', { token, query: { pageSize: '1' } });
        return inbox.total === expected;
      },
      60_000,
      async () =>
        `${JSON.stringify(await call(server.url, 'GET', `/series/${seriesIds['Tsuki no Kioku']}/tracking`, { token }))}\n${server
          .output()
          .split('\n')
          .filter((l) => /error|fail|refus|connect/i.test(l))
          .slice(-30)
          .join('\n')}`,
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fakes?.stop();
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`shows the gap, edits the tracking, lists and acquires releases on a ${viewport}`, async () => {
      const context = await newContext(browser, viewport, VIEWPORTS[viewport]);
      await signInContext(context, server.url, ADMIN.username, ADMIN.password);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // The app's Content-Security-Policy (no inline script, no eval): Chromium reports what it refused here.
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) errors.push(message.text());
      });
      const shot = (name: string, fullPage = true) =>
        page.screenshot({
          path: path.join(SCREENSHOT_DIR, `${viewport}-${name}.png`),
          fullPage,
          animations: 'disabled',
        });
      /** The tracking card at the top of the screen, just under the sticky header. */
      const scrollToCard = () =>
        card.evaluate((element) => {
          const header = document.querySelector('.header')?.getBoundingClientRect().height ?? 0;
          window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - header - 8);
        });

      // The series page: the gap, the sources, the newest releases.
      const tsuki = seriesIds['Tsuki no Kioku'] as string;
      await page.goto(`${server.url}/series/${tsuki}`);
      const card = page.locator('[data-tracking]');
      await expect
        .poll(() => card.locator('[data-gap]').textContent(), PATIENCE)
        .toBe('3 chapters and 1 volume behind, MangaUpdates');
      await expect
        .poll(() => card.locator('[data-source="mangaupdates"]').textContent(), PATIENCE)
        .toContain('MangaUpdates: id 15180124327');
      await expect.poll(() => card.locator('.tracking__releases li').count(), PATIENCE).toBe(3);
      // The header counts the new releases of both series.
      await expect.poll(() => page.locator('[data-nav-releases] .nav__badge').textContent(), PATIENCE).toBe('5');
      await page.locator('[data-books] a[data-book-id]').first().waitFor();
      await imagesLoaded(page);
      if (viewport === 'desktop') await shot('series-tracking');
      else {
        await scrollToCard();
        await shot('series-tracking', false);
      }

      // The edit form: an alias added through it is on the series at once.
      await card.getByRole('button', { name: 'Edit tracking' }).click();
      const form = card.getByRole('form', { name: 'Edit tracking' });
      await form.getByLabel('MangaUpdates id or page address').waitFor();
      expect(await form.getByLabel('MangaUpdates id or page address').inputValue()).toBe('15180124327');
      const alias = `Moon Memory ${viewport}`;
      await form.getByPlaceholder('New alias').fill(alias);
      await form.getByRole('button', { name: 'Add alias' }).click();
      await form.locator('[data-aliases] li', { hasText: alias }).waitFor();
      const aliases = await call(server.url, 'GET', `/series/${tsuki}/aliases`, { token: session.token });
      expect(aliases.aliases.map((a: { alias: string }) => a.alias)).toContain(alias);
      await scrollToCard();
      await shot('tracking-edit', false);
      // A malformed id is refused with the server's message, next to the form.
      await form.getByLabel('AniList id or page address').fill('not-an-id');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() => form.locator('.error').textContent(), PATIENCE)
        .toContain('External id must be a series id or page address at AniList');
      await form.getByLabel('AniList id or page address').fill('105778');

      // The inbox: five new releases, each with its series and numbers.
      await page.goto(`${server.url}/releases`);
      const rows = page.locator('[data-releases] [data-release]');
      await expect.poll(() => rows.count(), PATIENCE).toBe(5);
      await expect.poll(() => rows.first().textContent(), PATIENCE).toContain('Kaze no Uta');
      expect(await page.locator('[data-releases]').textContent()).toContain('Chapter 14 · Volume 3');
      await imagesLoaded(page);
      await shot('releases');

      // Acquired: the row leaves the New list and the count drops; Acquired lists it.
      const first = rows.first();
      const id = await first.getAttribute('data-release');
      await first.getByRole('button', { name: 'Acquired' }).click();
      await expect.poll(() => rows.count(), PATIENCE).toBe(4);
      await expect.poll(() => page.locator('[data-nav-releases] .nav__badge').textContent(), PATIENCE).toBe('4');
      await page.locator('[data-release-state]').selectOption('marked_acquired');
      await expect.poll(() => page.locator(`[data-release="${id}"]`).count(), PATIENCE).toBe(1);
      // Back to new, for the other viewport's run.
      await page.locator(`[data-release="${id}"]`).getByRole('button', { name: 'Back to new' }).click();
      await expect.poll(() => page.locator('[data-release]').count(), PATIENCE).toBe(0);

      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
