/**
 * `npm run screenshots`: every shot of test/e2e/shots/*.ts on a phone and a desktop, written to
 * docs/screenshots/<viewport>-<name>.png (committed; the README's "Web app" section shows them). Also a
 * test: each screen must become ready on both viewports without a script error.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, signInContext } from './support/api';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { type LongboxServer, startServer } from '../support/dev-server';
import type { Shot, ShotContext } from './support/shots';
import { SCREENSHOT_DIR } from './support/screenshot-dir';
import { readSome, seedLists, seedShowcase } from './support/showcase';

const OUT = SCREENSHOT_DIR;
const modules = import.meta.glob<{ shots: Shot[] }>('./shots/*.ts', { eager: true });
const SHOTS = Object.values(modules).flatMap((module) => module.shots);

describeWithChromium('screenshots of the web app', () => {
  let server: LongboxServer;
  let browser: Browser;
  let context: ShotContext;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const showcase = await seedShowcase(server.url);
    await readSome(server.url, showcase);
    const { readListId } = await seedLists(server.url, showcase);
    context = { baseUrl: server.url, showcase, readListId };
    mkdirSync(OUT, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
    it.each(SHOTS.map((shot) => [shot.name, shot] as const))(`${viewport}: %s`, async (_name, shot) => {
      const browserContext = await newContext(browser, viewport, { colorScheme: shot.colorScheme ?? 'light' });
      await signInContext(browserContext, server.url, ADMIN.username, ADMIN.password);
      const page = await browserContext.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(server.url + shot.path(context));
      await shot.ready(page, context);
      await page.screenshot({
        path: path.join(OUT, `${viewport}-${shot.name}.png`),
        fullPage: !shot.viewportOnly,
        animations: 'disabled',
      });
      expect(errors).toEqual([]);
      await browserContext.close();
    });
  }
});
