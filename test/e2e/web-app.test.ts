/**
 * DECISIONS.md §Web app: the app is served at / by the API worker, deep links open the app, and the
 * API's own paths keep answering as the API (checked against a real `wrangler dev`, in a real Chromium).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, launchBrowser, newContext } from './support/browser';
import { type LongboxServer, startServer } from '../support/dev-server';

describeWithChromium('the web app on a fresh server', () => {
  let server: LongboxServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens the first-run wizard from a deep link, while unknown API paths stay JSON 404s', async () => {
    const context = await newContext(browser, 'phone');
    const page = await context.newPage();
    await page.goto(`${server.url}/series/does-not-exist`);
    await expect.poll(() => page.url()).toBe(`${server.url}/setup`);
    await page.getByRole('heading', { name: 'Welcome to Longbox' }).waitFor();

    const missingApi = await fetch(`${server.url}/api/v1/nope`);
    expect(missingApi.status).toBe(404);
    expect((await missingApi.json()).error).toBe('NotFound');
    const staleChunk = await fetch(`${server.url}/assets/gone-1234.js`);
    expect(staleChunk.status).toBe(404);
    await context.close();
  });

  it('on a fresh server, draws the wizard and nothing before it, so what is typed at once stays', async () => {
    // /register and /login lead to the wizard until an administrator exists; /setup is the wizard itself.
    for (const start of ['/register', '/login', '/setup']) {
      const context = await newContext(browser, 'desktop');
      const page = await context.newPage();
      await page.goto(`${server.url}${start}`, { waitUntil: 'commit' });
      const first = await page.locator('main input').first().elementHandle();
      await first!.fill('first-admin');
      await page.waitForLoadState('networkidle');
      expect(page.url(), start).toBe(`${server.url}/setup`);
      const drawn = await first!.evaluate((input: HTMLInputElement) => [input.isConnected, input.name, input.value]);
      expect(drawn, start).toEqual([true, 'username', 'first-admin']);
      await context.close();
    }
  });
});
