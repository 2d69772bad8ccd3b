/**
 * Debian's Chromium driven by playwright-core (Playwright cannot download its own browsers here). Tests
 * call `describeWithChromium`, which skips the suite with a message saying what to install when no
 * Chromium exists; `.ci/run` installs it.
 */
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';
import { describe } from 'vitest';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const chromiumPath: string | undefined = CANDIDATES.find((candidate) => candidate && existsSync(candidate));

export const MISSING_CHROMIUM =
  "browser tests skipped: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH";

/** `describe`, skipped with MISSING_CHROMIUM printed when there is no browser. */
export function describeWithChromium(name: string, body: () => void): void {
  if (!chromiumPath) console.warn(MISSING_CHROMIUM);
  describe.skipIf(!chromiumPath)(name, body);
}

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error(MISSING_CHROMIUM);
  return chromium.launch({ executablePath: chromiumPath, args: ['--headless=new', '--no-sandbox'] });
}

/** The two screens every walk runs on: a small phone (360 px CSS wide) and a desktop. */
export const VIEWPORTS = {
  phone: { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
} satisfies Record<string, BrowserContextOptions>;

export type ViewportName = keyof typeof VIEWPORTS;

export async function newContext(
  browser: Browser,
  viewport: ViewportName,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ ...VIEWPORTS[viewport], colorScheme: 'light', ...options });
  context.setDefaultTimeout(20_000);
  return context;
}
