/**
 * DECISIONS.md §Web app: the app is served at / by the API worker, deep links open the app, and the
 * API's own paths keep answering as the API (checked against a real `wrangler dev`, in a real Chromium).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, launchBrowser, newContext } from './support/browser';
import { type LongboxServer, startServer } from './support/server';

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
});
