/**
 * axe-core on every screen of the web app (issue 31 "Done when": axe reports no violation on every screen),
 * in Chromium on a phone and a desktop, with the app's Content-Security-Policy in force (no inline script,
 * no eval: axe's source is added by the browser's own init-script channel, and every evaluation passes a
 * function). The screens are the screenshot gallery's (test/e2e/shots), plus the sign-in screen and the
 * comic reader with its menu open.
 */
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { readerKeysReady } from './support/reader-keys';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, signInContext } from './support/api';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { type LongboxServer, startServer } from '../support/dev-server';
import type { Shot, ShotContext } from './support/shots';
import { readSome, seedLists, seedShowcase } from './support/showcase';

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const modules = import.meta.glob<{ shots: Shot[] }>('./shots/*.ts', { eager: true });
const SHOTS = Object.values(modules).flatMap((module) => module.shots);

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** axe's violations on the page as it stands, each with the first few elements it names. */
async function violations(page: Page): Promise<string[]> {
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }
    ).axe;
    const result = await axe.run(document, { iframes: false, resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 3).map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
    }));
  });
  return found.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`,
  );
}

describeWithChromium('accessibility of every screen (axe-core)', () => {
  let server: LongboxServer;
  let browser: Browser;
  let context: ShotContext;
  const contexts: BrowserContext[] = [];

  async function pageFor(viewport: ViewportName, colorScheme: 'light' | 'dark', signedIn = true): Promise<Page> {
    const browserContext = await newContext(browser, viewport, { colorScheme });
    contexts.push(browserContext);
    await browserContext.addInitScript({ path: AXE_SOURCE });
    if (signedIn) await signInContext(browserContext, server.url, ADMIN.username, ADMIN.password);
    const page = await browserContext.newPage();
    return page;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const showcase = await seedShowcase(server.url);
    await readSome(server.url, showcase);
    const { readListId } = await seedLists(server.url, showcase);
    context = { baseUrl: server.url, showcase, readListId };
  });
  afterAll(async () => {
    for (const browserContext of contexts) await browserContext.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
    it(`${viewport}: no violation on any screen of the gallery`, async () => {
      const report: Record<string, string[]> = {};
      const light = await pageFor(viewport, 'light');
      const dark = await pageFor(viewport, 'dark');
      const cspViolations: string[] = [];
      for (const page of [light, dark]) {
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
        });
      }
      for (const shot of SHOTS) {
        const page = shot.colorScheme === 'dark' ? dark : light;
        await page.goto(server.url + shot.path(context));
        await shot.ready(page, context);
        report[shot.name] = await violations(page);
      }
      expect(report).toEqual(Object.fromEntries(SHOTS.map((shot) => [shot.name, []])));
      // axe ran under the app's policy, which it did not have to weaken.
      expect(cspViolations).toEqual([]);
    });

    it(`${viewport}: no violation on the sign-in screen or in the comic reader with its menu open`, async () => {
      const signedOut = await pageFor(viewport, 'light', false);
      await signedOut.goto(`${server.url}/login`);
      await signedOut.getByRole('button', { name: 'Log in' }).waitFor();
      expect(await violations(signedOut)).toEqual([]);

      const page = await pageFor(viewport, 'dark');
      const book = context.showcase.books['Harbor Lights 001']!;
      await page.goto(`${server.url}/read/${book.id}`);
      await page.locator('img[data-page]').first().waitFor();
      await readerKeysReady(page);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Settings' }).click();
      expect(await violations(page)).toEqual([]);
    });
  }
});
