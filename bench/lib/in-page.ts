import type { Page } from 'playwright-core';

/**
 * Milliseconds since navigation start when `condition` (a JavaScript expression, page code) first holds,
 * checked at every animation frame. The app answers with `script-src 'self'` and no `'unsafe-eval'` (docs/
 * DECISIONS.md §Security), and Playwright's `waitForFunction` with a string evaluates it with `eval` inside the
 * page, which that policy refuses; a script handed to `evaluate` runs through the browser's debugging protocol,
 * which the page's policy does not govern. Page code stays a string: this file is typed for Node, and the
 * bundler's helpers (`__name`) do not exist in the page.
 */
export async function whenInPage(page: Page, condition: string, timeoutMs = 30_000): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const deadline = performance.now() + ${timeoutMs};
    requestAnimationFrame(function check() {
      if (${condition}) resolve(performance.now());
      else if (performance.now() > deadline) reject(new Error('timed out waiting for: ' + ${JSON.stringify(condition)}));
      else requestAnimationFrame(check);
    });
  })`);
}
