/**
 * Issue 12's web app budgets, in the Chromium of the browser tests against `wrangler dev`:
 * - initial JS: every script the home page loads, gzip -9 (budget 80 KB; the reader must not be among them);
 * - home usable: from navigation start until the home rows are on screen with their covers loaded
 *   (budget 1 s), next to a static HTML page of the same server showing the same covers as plain <img>.
 * Each run is a fresh browser context (empty HTTP cache), pages interleaved app/reference.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { ADMIN, call, signInContext } from '../test/e2e/support/api';
import { chromiumPath, launchBrowser, newContext } from '../test/e2e/support/browser';
import { startServer } from '../test/support/dev-server';
import { readSome, seedShowcase } from '../test/e2e/support/showcase';
import { environmentLines, markdownTable, ROOT, summarize, writeSection } from './lib/report.mjs';
import { whenInPage } from './lib/in-page';
import { SMOKE, sized } from './lib/smoke.mjs';

const RUNS = sized(9, 1);
const DIST = path.join(ROOT, 'dist', 'web');
const REFERENCE_PAGE = 'bench-static.html';
const JS_BUDGET_BYTES = 80 * 1024;
const HOME_BUDGET_MS = 1000;

if (!chromiumPath) {
  console.error("web-app bench needs Debian's chromium (apt-get install chromium)");
  process.exit(1);
}

// A smoke run finds the build `npm test` (or `npm run bench`) just made, and must not rebuild it under a
// test server that may still be reading it.
if (!SMOKE) {
  const { spawnSync } = await import('node:child_process');
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-web.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const showcase = await seedShowcase(server.url);
  await readSome(server.url, showcase);
  // The reference: the same covers the home page shows first, as a hand-written static page.
  const recent = await call(server.url, 'GET', '/books/recently-added', {
    token: showcase.token,
    query: { pageSize: '20' },
  });
  const images = recent.data
    .map(
      (book: { id: string; title: string }) =>
        `<img src="/api/v1/books/${book.id}/thumbnail" width="136" height="204" alt="${book.title}">`,
    )
    .join('\n');
  writeFileSync(
    path.join(DIST, REFERENCE_PAGE),
    `<!doctype html><html><head><meta charset="utf-8"><title>Static reference</title></head><body><h1>Recently added</h1>${images}</body></html>`,
  );
  // wrangler dev reloads when its assets directory changes: wait until the new file is served.
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${server.url}/${REFERENCE_PAGE}`).catch(() => null);
    if (response?.ok && (await response.text()).includes('Static reference')) break;
    if (attempt > 120) throw new Error('the reference page was never served');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));

  /** Time from navigation start until `ready()` first holds in the page, checked every frame. */
  async function timeUntil(page: Page, url: string, ready: string): Promise<number> {
    await page.goto(url, { waitUntil: 'commit' });
    return whenInPage(page, ready);
  }

  const visibleImagesLoaded = `[...document.images].filter((i) => { const r = i.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0 && r.left < innerWidth; }).every((i) => i.complete && i.naturalWidth > 0)`;
  const homeReady = `document.querySelector('[data-row="recently-added"] a[data-book-id]') && document.querySelector('[data-row="recently-updated"] a[data-series-id]') && document.querySelector('[data-row="keep-reading"] a[data-book-id]') && ${visibleImagesLoaded}`;
  const referenceReady = `document.images.length > 0 && ${visibleImagesLoaded}`;

  const app: number[] = [];
  const reference: number[] = [];
  const scripts = new Map<string, number>();
  for (let run = 0; run < RUNS; run++) {
    for (const variant of ['app', 'reference'] as const) {
      const context = await newContext(browser, 'desktop');
      await signInContext(context, server.url, ADMIN.username, ADMIN.password);
      const page = await context.newPage();
      if (variant === 'app') {
        page.on('response', (response) => {
          const url = new URL(response.url());
          if (url.pathname.endsWith('.js')) scripts.set(url.pathname, 0);
        });
        app.push(await timeUntil(page, `${server.url}/`, homeReady));
      } else {
        reference.push(await timeUntil(page, `${server.url}/${REFERENCE_PAGE}`, referenceReady));
      }
      await context.close();
    }
  }

  for (const script of scripts.keys()) {
    scripts.set(script, gzipSync(readFileSync(path.join(DIST, script)), { level: 9 }).length);
  }
  const initialJs = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  const readerLoaded = [...scripts.keys()].some((name) => /reader|foliate|zip/i.test(name));
  const a = summarize(app);
  const r = summarize(reference);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const f = (value: number) => value.toFixed(0);

  const body = [
    'Initial JavaScript of the home page (every `.js` the browser requested, gzip -9) and the time until the home',
    'page is usable (rows on screen, visible covers loaded), from navigation start, in Chromium (desktop viewport,',
    `fresh context per run), against \`wrangler dev\` on loopback with a seeded library of ${Object.keys(showcase.books).length} books.`,
    'The reference is a static HTML page served by the same server showing the same covers as plain `<img>` tags.',
    '',
    markdownTable(
      ['Measure', 'Budget', 'Result'],
      [
        [
          'Initial JS (gzip)',
          kb(JS_BUDGET_BYTES),
          `${kb(initialJs)} in ${scripts.size} files${readerLoaded ? ' (reader loaded!)' : ', reader not loaded'}`,
        ],
        ['Home usable, median (ms)', String(HOME_BUDGET_MS), f(a.median)],
      ],
    ),
    '',
    markdownTable(
      ['Page', 'n', 'median ms', 'p95 ms', 'min ms', 'max ms'],
      [
        ['Web app home (usable)', String(a.n), f(a.median), f(a.p95), f(a.min), f(a.max)],
        ['Static HTML reference (same covers loaded)', String(r.n), f(r.median), f(r.p95), f(r.min), f(r.max)],
      ],
    ),
    '',
    `Scripts: ${[...scripts.entries()].map(([name, size]) => `\`${path.basename(name)}\` ${kb(size)}`).join(', ')}.`,
    '',
    ...environmentLines('npm run bench -- web-app'),
  ].join('\n');
  writeSection('Web app: initial JS and home page', body);
  console.log(body);
  if (initialJs > JS_BUDGET_BYTES || readerLoaded) process.exitCode = 1;
} finally {
  await browser.close();
  await server.stop();
  rmSync(path.join(DIST, REFERENCE_PAGE), { force: true });
}
