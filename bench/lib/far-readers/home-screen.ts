/**
 * The web app's home screen as a far reader's browser loads it (far-readers row `home`): Debian's Chromium, a
 * fresh context each time (cold browser cache; service workers blocked, as on a first visit), against the
 * far-readers server (warm: one load before the measured ones). Every response the page gets carries its
 * far depth (`X-Far-Depth`, bench/workers/far-readers.ts); the screen's critical path is the heaviest chain of
 * requests in which each was *issued* after the previous one's response ended (issue time, not start on the
 * wire: Chromium's six connections per host would otherwise chain requests that only queued), and each link's
 * first request is one whose answer the page can act on — the document, a script or style sheet, a JSON call.
 * A cover image or the event stream causes no request: without that rule, a cover that happened to finish
 * before another row's cover was asked for (CPU order, at small delays) would chain the two. The event stream
 * is left out: nothing on the screen waits for it (it only brings later changes), and its opening has a row of
 * its own (`sse`). Time: navigation start to the home rows on screen with their visible covers loaded.
 */
import type { Browser } from 'playwright-core';
import { signInContext } from '../../../test/e2e/support/api';
import { newContext } from '../../../test/e2e/support/browser';
import { whenInPage } from '../in-page';

export interface HomeLoad {
  /** Far calls on the critical path. */
  depth: number;
  /** The critical path, e.g. `GET /api/v1/books/on-deck (2) → GET /api/v1/books/…/thumbnail (3)`. */
  chain: string[];
  requests: number;
  ms: number;
}

interface Seen {
  label: string;
  issued: number;
  ended: number;
  depth: number;
  /** Whether the page can act on its answer by asking for more (not an image). */
  causes: boolean;
}

/** Playwright's resource types whose answers the page can read and act on. */
const CAUSES = new Set(['document', 'script', 'stylesheet', 'fetch', 'xhr']);

const visibleImagesLoaded = `[...document.images].filter((i) => { const r = i.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0 && r.left < innerWidth; }).every((i) => i.complete && i.naturalWidth > 0)`;
const HOME_READY = `document.querySelector('[data-row="recently-added"] a[data-book-id]') && document.querySelector('[data-row="recently-updated"] a[data-series-id]') && document.querySelector('[data-row="keep-reading"] a[data-book-id]') && ${visibleImagesLoaded}`;

/** Loads the home screen once, signed in as `user`. */
export async function loadHome(browser: Browser, url: string, user: { username: string; password: string }) {
  const context = await newContext(browser, 'desktop', { serviceWorkers: 'block' });
  try {
    await signInContext(context, url, user.username, user.password);
    const page = await context.newPage();
    const seen = new Map<object, Seen>();
    page.on('response', (response) => {
      const request = response.request();
      if (request.resourceType() === 'eventsource') return;
      const timing = request.timing();
      const depth = Number(response.headers()['x-far-depth'] ?? Number.NaN);
      const path = new URL(request.url()).pathname.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}');
      seen.set(request, {
        label: `${request.method()} ${path}`,
        issued: timing.startTime,
        // Until the headers for now; the whole body once it has arrived (requestfinished).
        ended: timing.startTime + Math.max(0, timing.responseStart),
        depth: Number.isFinite(depth) ? depth : 0,
        causes: CAUSES.has(request.resourceType()),
      });
    });
    page.on('requestfinished', (request) => {
      const entry = seen.get(request);
      const timing = request.timing();
      if (entry && timing.responseEnd >= 0) entry.ended = timing.startTime + timing.responseEnd;
    });
    await page.goto(`${url}/`, { waitUntil: 'commit' });
    const ms = await whenInPage(page, HOME_READY, 60_000);
    return { ...criticalPath([...seen.values()]), requests: seen.size, ms } satisfies HomeLoad;
  } finally {
    await context.close();
  }
}

/** The heaviest chain of requests each issued after the previous one ended, by far depth. */
export function criticalPath(requests: Seen[]): { depth: number; chain: string[] } {
  const sorted = [...requests].sort((a, b) => a.issued - b.issued);
  const best: Array<{ weight: number; previous: number }> = [];
  sorted.forEach((request, i) => {
    let previous = -1;
    let weight = 0;
    for (let j = 0; j < i; j++) {
      const before = sorted[j]!;
      // Among equally heavy predecessors, the one that ended last: the likeliest cause (a cover's list, not a
      // call that happened to answer earlier).
      const chosen = previous < 0 ? undefined : sorted[previous];
      const heavier = best[j]!.weight > weight || (best[j]!.weight === weight && before.ended > (chosen?.ended ?? -1));
      if (before.causes && before.ended <= request.issued && heavier) {
        weight = best[j]!.weight;
        previous = j;
      }
    }
    best.push({ weight: weight + request.depth, previous });
  });
  let last = -1;
  best.forEach((entry, i) => {
    if (last < 0 || entry.weight > best[last]!.weight) last = i;
  });
  const chain: string[] = [];
  for (let i = last; i >= 0; i = best[i]!.previous) {
    const request = sorted[i]!;
    if (request.depth > 0) chain.unshift(`${request.label} (${request.depth})`);
  }
  return { depth: last < 0 ? 0 : best[last]!.weight, chain };
}
