/**
 * The Statistics screen and Admin → Reading in Chromium against `wrangler dev` (issue 35, Done when: "the heatmap,
 * period charts and year card render in Chromium on phone and desktop with the numbers the API returns"). Reading
 * is seeded as clients send it — measured sessions from two devices through `POST /reading-sessions`, progress
 * saves from an app whose time is inferred — then each figure on screen is compared with `GET /reading-stats` asked
 * for the window the screen shows (its year, in the browser's time zone, which is not UTC here). Then a device is
 * renamed, recording paused and resumed, the sessions downloaded and, last, deleted. The screenshots of these
 * screens are the gallery's (test/e2e/shots/statistics.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LongboxServer, startServer } from '../support/dev-server';
import { statisticsDrawn } from './shots/statistics';
import { ADMIN, call, signInContext } from './support/api';
import { describeWithChromium, launchBrowser, newContext, type ViewportName } from './support/browser';
import { INFERRING_AGENT, MEASURING_DEVICES, seedReading } from './support/reading';
import { type Showcase, seedShowcase } from './support/showcase';

const TIME_ZONE = 'Pacific/Auckland';
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PHONE = { viewport: { width: 390, height: 844 } };

interface Figures {
  duration: { measuredMs: number; inferredMs: number; totalMs: number };
  pagesRead: number;
  sessions: number;
  booksFinished: number;
}
type Period = Figures & { bucket: string };
type Device = Figures & { deviceId: string; deviceName: string | null };

/** Minutes as the screen writes a duration: "2 h 05 min", "45 min", "under a minute" (under one: 0). */
function minutesIn(text: string | null | undefined): number {
  const trimmed = (text ?? '').trim();
  if (trimmed === 'under a minute') return 0;
  const match = trimmed.match(/^(?:(\d+) h )?(\d+) min$/);
  if (!match) throw new Error(`not a duration: "${trimmed}"`);
  return Number(match[1] ?? 0) * 60 + Number(match[2]);
}
/** What the screen must say for a duration, in minutes ("under a minute" for a few seconds). */
const minutesOf = (ms: number) => (ms < 60_000 ? 0 : Math.round(ms / 60_000));
const countIn = (text: string | null | undefined) => Number((text ?? '').replace(/[^\d]/g, ''));

describeWithChromium('the Statistics screen (issue 35)', () => {
  let server: LongboxServer;
  let browser: Browser;
  let showcase: Showcase;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    showcase = await seedShowcase(server.url);
    const books = Object.entries(showcase.books)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, book]) => book.id);
    await seedReading(server.url, showcase.token, books, { bookId: showcase.books['Iron Meadow 001']!.id, page: 3 });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  const api = <T = any>(path: string, query: Record<string, string> = {}) =>
    call<T>(server.url, 'GET', path, { token: showcase.token, query });

  async function open(
    viewport: ViewportName,
    path: string,
    user: { username: string; password: string } = ADMIN,
  ): Promise<{ page: Page; errors: string[] }> {
    const context = await newContext(browser, viewport, {
      ...(viewport === 'phone' ? PHONE : {}),
      timezoneId: TIME_ZONE,
      locale: 'en-US',
    });
    contexts.push(context);
    await signInContext(context, server.url, user.username, user.password);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url + path);
    return { page, errors };
  }

  /** The window the screen shows, and the API's statistics for it at a granularity. */
  async function shownWindow(page: Page) {
    const window = await page.locator('[data-stats-window]').evaluate((element: HTMLElement) => ({
      from: element.dataset.from ?? '',
      to: element.dataset.to ?? '',
      tz: element.dataset.tz ?? '',
    }));
    const stats = (granularity: string) => api('/reading-stats', { ...window, granularity, seriesLimit: '5' });
    return { window, stats };
  }

  /** A chart's table of numbers: each row's key and its cells' text. */
  async function numbers(page: Page, chart: string): Promise<Map<string, string[]>> {
    const rows = await page
      .locator(`[data-chart="${chart}"] tr[data-row]`)
      .evaluateAll((elements: HTMLElement[]) =>
        elements.map((row) => [
          row.dataset.row ?? '',
          [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''),
        ]),
      );
    return new Map(rows as [string, string[]][]);
  }

  /** The values Chartist drew for one series of a chart (its `ct:value` attribute per bar). */
  async function bars(page: Page, chart: string, tone: string): Promise<number[]> {
    return page
      .locator(`[data-chart="${chart}"] .chart-tone-${tone} .ct-bar`)
      .evaluateAll((elements: Element[]) => elements.map((bar) => Number(bar.getAttribute('ct:value'))));
  }

  /** The time and pages charts of a granularity against the API's periods (zero where it has none). */
  async function expectPeriodCharts(page: Page, granularity: 'week' | 'month', periods: Period[]) {
    const byBucket = new Map(periods.map((period) => [period.bucket, period]));
    const time = await numbers(page, `time-${granularity}`);
    const pages = await numbers(page, `pages-${granularity}`);
    expect(time.size).toBe(granularity === 'month' ? 12 : pages.size);
    expect(time.size).toBeGreaterThanOrEqual(granularity === 'month' ? 12 : 52);
    for (const period of periods) expect(time.has(period.bucket), period.bucket).toBe(true);
    for (const [bucket, [measured, inferred, total]] of time) {
      const period = byBucket.get(bucket);
      expect(minutesIn(measured!), `${bucket} measured`).toBe(minutesOf(period?.duration.measuredMs ?? 0));
      expect(minutesIn(inferred!), `${bucket} inferred`).toBe(minutesOf(period?.duration.inferredMs ?? 0));
      expect(minutesIn(total!), `${bucket} total`).toBe(minutesOf(period?.duration.totalMs ?? 0));
      expect(countIn(pages.get(bucket)![0]!), `${bucket} pages`).toBe(period?.pagesRead ?? 0);
    }
    // The bars are the same numbers, in hours, one per period and series, in order.
    const measuredBars = await bars(page, `time-${granularity}`, 'measured');
    const inferredBars = await bars(page, `time-${granularity}`, 'inferred');
    const buckets = [...time.keys()];
    expect(measuredBars).toHaveLength(buckets.length);
    buckets.forEach((bucket, index) => {
      const period = byBucket.get(bucket);
      // Bars are drawn in hours to one decimal.
      expect(Math.abs(measuredBars[index]! - (period?.duration.measuredMs ?? 0) / 3_600_000)).toBeLessThanOrEqual(
        0.0501,
      );
      expect(Math.abs(inferredBars[index]! - (period?.duration.inferredMs ?? 0) / 3_600_000)).toBeLessThanOrEqual(
        0.0501,
      );
    });
    expect(await bars(page, `pages-${granularity}`, 'plain')).toEqual(
      buckets.map((b) => byBucket.get(b)?.pagesRead ?? 0),
    );
  }

  /**
   * The labels written under a chart's bars, each with the period (its key, from the chart's table, in order)
   * whose bar it stands under: Chartist centres a label's box on its bar.
   */
  async function axisLabels(page: Page, chart: string): Promise<{ text: string; bucket: string }[]> {
    const buckets = [...(await numbers(page, chart)).keys()];
    const drawn = await page.locator(`[data-chart="${chart}"] .chart__plot`).evaluate((plot: HTMLElement) => {
      const middles = [...(plot.querySelector('.ct-series')?.querySelectorAll('.ct-bar') ?? [])].map((bar) =>
        Number(bar.getAttribute('x1')),
      );
      return {
        middles,
        labels: [...plot.querySelectorAll('.ct-label.ct-horizontal')].map((label) => {
          const box = label.parentElement!;
          const range = document.createRange();
          range.selectNodeContents(label);
          const words = range.getBoundingClientRect();
          return {
            text: label.textContent ?? '',
            middle: Number(box.getAttribute('x')) + Number(box.getAttribute('width')) / 2,
            left: words.left,
            right: words.right,
          };
        }),
      };
    });
    expect(drawn.middles).toHaveLength(buckets.length);
    // Written apart: no label runs into the next.
    drawn.labels.slice(1).forEach((label, index) => {
      const before = drawn.labels[index]!;
      expect(label.left, `"${before.text}" and "${label.text}" under ${chart}`).toBeGreaterThan(before.right);
    });
    return drawn.labels.map(({ text, middle }) => {
      const nearest = drawn.middles.reduce(
        (best, x, index) => (Math.abs(x - middle) < Math.abs(drawn.middles[best]! - middle) ? index : best),
        0,
      );
      return { text, bucket: buckets[nearest]! };
    });
  }

  /**
   * Labels a reader can tell apart: none written twice, each naming its own period, and the year written on the
   * first and wherever it differs from the label before ("Nov 2025" … "Jan 2026" … "Nov"), nowhere else.
   */
  function expectUnambiguous(labels: { text: string; bucket: string }[], granularity: 'week' | 'month') {
    expect(labels.length).toBeGreaterThan(1);
    expect(new Set(labels.map((label) => label.text)).size, labels.map((l) => l.text).join(', ')).toBe(labels.length);
    labels.forEach(({ text, bucket }, index) => {
      const withYear = index === 0 || labels[index - 1]!.bucket.slice(0, 4) !== bucket.slice(0, 4);
      const expected = new Intl.DateTimeFormat('en-US', {
        timeZone: 'UTC',
        month: 'short',
        ...(granularity === 'week' ? { day: 'numeric' } : {}),
        ...(withYear ? { year: 'numeric' } : {}),
      }).format(new Date(`${bucket}T00:00:00Z`));
      expect(text, `the label under ${bucket}`).toBe(expected);
    });
  }

  /** The longest run of consecutive local days in the API's day periods. */
  function longestRun(periods: Period[]): number {
    const days = periods.map((period) => Date.parse(`${period.bucket}T00:00:00Z`) / 86_400_000).sort((a, b) => a - b);
    let best = 0;
    let run = 0;
    days.forEach((day, index) => {
      run = index > 0 && day === days[index - 1]! + 1 ? run + 1 : 1;
      best = Math.max(best, run);
    });
    return best;
  }

  for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
    it(`${viewport}: the calendar, the period charts, the year in review and the devices show what the API returns`, async () => {
      const { page, errors } = await open(viewport, '/statistics');
      await statisticsDrawn(page);
      // The year holding the day 60 days ago has at least 60 of the 120 seeded days, whatever the date today.
      const year = new Intl.DateTimeFormat('en', { timeZone: TIME_ZONE, year: 'numeric' }).format(
        Date.now() - 60 * 86_400_000,
      );
      if ((await page.locator('[data-year-select]').inputValue()) !== year) {
        await page.locator('[data-year-select]').selectOption(year);
        await page
          .locator(`[data-stats-window][data-from^="${Number(year) - 1}-12"]`)
          .or(page.locator(`[data-stats-window][data-from^="${year}-01"]`))
          .waitFor();
        await statisticsDrawn(page);
      }
      const { window, stats } = await shownWindow(page);
      expect(window.tz).toBe(TIME_ZONE);
      const [days, months, weeks] = await Promise.all([stats('day'), stats('month'), stats('week')]);
      expect(days.summary.sessions).toBeGreaterThan(20);

      // The calendar: a shaded cell for each day the API has, the busiest day darkest, each day's time in its table.
      const cells = await page
        .locator('[data-chart="calendar"] rect[data-day]')
        .evaluateAll((elements: Element[]) =>
          elements.map(
            (cell) => [cell.getAttribute('data-day') ?? '', Number(cell.getAttribute('data-level'))] as const,
          ),
        );
      expect(cells.length).toBeGreaterThanOrEqual(365);
      const readDays = (days.periods as Period[]).map((period) => period.bucket);
      expect(cells.filter(([, level]) => level > 0).map(([day]) => day)).toEqual(readDays);
      const busiest = (days.periods as Period[]).reduce((best, period) =>
        period.duration.totalMs > best.duration.totalMs ? period : best,
      );
      expect(cells.find(([day]) => day === busiest.bucket)?.[1]).toBe(4);
      // Its months named once each, the first with the year.
      const monthLabels = await page
        .locator('[data-chart="calendar"] text[data-month]')
        .evaluateAll((elements: Element[]) =>
          elements.map((label) => [Number(label.getAttribute('data-month')), label.textContent ?? ''] as const),
        );
      expect(monthLabels).toHaveLength(12);
      expectUnambiguous(
        monthLabels.map(([month, text]) => ({ text, bucket: `${year}-${String(month + 1).padStart(2, '0')}-01` })),
        'month',
      );
      const dayRows = await numbers(page, 'calendar');
      expect([...dayRows.keys()]).toEqual(readDays);
      for (const period of days.periods as Period[]) {
        const [time, inferred, pages, sessions] = dayRows.get(period.bucket)!;
        expect(minutesIn(time!), period.bucket).toBe(minutesOf(period.duration.totalMs));
        expect(minutesIn(inferred!), period.bucket).toBe(minutesOf(period.duration.inferredMs));
        expect(countIn(pages!)).toBe(period.pagesRead);
        expect(countIn(sessions!)).toBe(period.sessions);
      }

      // Time and pages per month, then per week; books finished per month.
      await expectPeriodCharts(page, 'month', months.periods);
      expectUnambiguous(await axisLabels(page, 'time-month'), 'month');
      await page.locator('[data-granularity="week"]').click();
      await page.locator('[data-chart="time-week"] .ct-bar').first().waitFor({ state: 'attached' });
      await expectPeriodCharts(page, 'week', weeks.periods);
      // A year's first week mostly starts in December of the year before: its label says which December.
      expectUnambiguous(await axisLabels(page, 'time-week'), 'week');
      const finished = await numbers(page, 'finished-month');
      const finishedBy = new Map((months.periods as Period[]).map((period) => [period.bucket, period.booksFinished]));
      for (const [bucket, [count]] of finished) expect(countIn(count!), bucket).toBe(finishedBy.get(bucket) ?? 0);
      expect(await bars(page, 'finished-month', 'plain')).toEqual(
        [...finished.keys()].map((b) => finishedBy.get(b) ?? 0),
      );
      expect([...finishedBy.values()].some((count) => count > 0)).toBe(true);
      expectUnambiguous(await axisLabels(page, 'finished-month'), 'month');

      // The year in review.
      const fact = (name: string) => page.locator(`[data-year-review] [data-fact="${name}"] strong`).textContent();
      expect(minutesIn(await fact('time'))).toBe(minutesOf(days.summary.duration.totalMs));
      expect(countIn(await fact('finished'))).toBe(days.summary.booksFinished);
      expect(countIn(await fact('started'))).toBe(days.summary.booksStarted);
      expect(countIn(await fact('pages'))).toBe(days.summary.pagesRead);
      expect(countIn(await fact('streak'))).toBe(longestRun(days.periods));
      expect(minutesIn(await fact('busiest'))).toBe(minutesOf(busiest.duration.totalMs));
      expect(await fact('top-series')).toBe(days.series[0].seriesName);

      // Devices: the two that measure and the app whose time is inferred, each with its own time.
      const devices = days.devices as Device[];
      expect(devices.map((device) => device.deviceName).sort()).toEqual(
        [MEASURING_DEVICES.tablet.name, MEASURING_DEVICES.phone.name, 'Mihon'].sort(),
      );
      const mihon = devices.find((device) => device.deviceName === 'Mihon')!;
      expect(mihon.duration.measuredMs).toBe(0);
      expect(mihon.duration.inferredMs).toBeGreaterThan(0);
      for (const device of devices) {
        const row = page.locator(`[data-devices] tr[data-device="${device.deviceId}"]`);
        expect(await row.locator('[data-device-name]').textContent()).toBe(device.deviceName);
        expect(minutesIn(await row.locator('[data-device-measured]').textContent())).toBe(
          minutesOf(device.duration.measuredMs),
        );
        expect(minutesIn(await row.locator('[data-device-inferred]').textContent())).toBe(
          minutesOf(device.duration.inferredMs),
        );
      }
      expect(errors).toEqual([]);
    });
  }

  for (const [viewport, colorScheme] of [
    ['phone', 'dark'],
    ['desktop', 'light'],
  ] as const) {
    it(`${viewport}, ${colorScheme}: axe finds nothing with every table of numbers open, weeks shown and a device being renamed`, async () => {
      // The gallery's axe run (accessibility.test.ts) sees the tables closed; here they are open.
      const context = await newContext(browser, viewport, {
        ...(viewport === 'phone' ? PHONE : {}),
        timezoneId: TIME_ZONE,
        colorScheme,
      });
      contexts.push(context);
      await context.addInitScript({ path: AXE_SOURCE });
      await signInContext(context, server.url, ADMIN.username, ADMIN.password);
      const page = await context.newPage();
      await page.goto(`${server.url}/statistics`);
      await statisticsDrawn(page);
      await page.locator('[data-granularity="week"]').click();
      await page.locator('[data-chart="time-week"] .ct-bar').first().waitFor({ state: 'attached' });
      for (const summary of await page.locator('details.chart__numbers > summary').all()) await summary.click();
      await page.getByRole('button', { name: `Rename ${MEASURING_DEVICES.tablet.name}` }).click();
      const found = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run(context: Document, options: object): Promise<{ violations: { id: string; nodes: unknown[] }[] }>;
            };
          }
        ).axe;
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.slice(0, 2))}`);
      });
      expect(found).toEqual([]);
      expect(await page.locator('details.chart__numbers[open] tr[data-row]').count()).toBeGreaterThan(60);
    });
  }

  it("phone: the calendar's weekday names stay beside their rows when the grid is scrolled to its latest weeks", async () => {
    const { page } = await open('phone', '/statistics');
    await statisticsDrawn(page);
    const scroller = page.locator('[data-chart="calendar"] .heatmap__scroll');
    // Scrolled to its end by hand, as a reader's thumb would, though the screen opens there.
    await scroller.evaluate((element: HTMLElement) => element.scrollTo({ left: 0 }));
    await expect.poll(() => scroller.evaluate((element: HTMLElement) => element.scrollLeft)).toBe(0);
    await scroller.evaluate((element: HTMLElement) => element.scrollTo({ left: element.scrollWidth }));
    await expect
      .poll(() =>
        scroller.evaluate(
          (element: HTMLElement) => element.scrollLeft + element.clientWidth >= element.scrollWidth - 1,
        ),
      )
      .toBe(true);
    // The grid is wider than the phone: it did scroll, by more than the width of the weekday names.
    expect(await scroller.evaluate((element: HTMLElement) => element.scrollLeft)).toBeGreaterThan(100);

    const viewport = page.viewportSize()!;
    const grid = (await scroller.boundingBox())!;
    const days = await page
      .locator('[data-chart="calendar"] rect[data-day]')
      .evaluateAll((cells: Element[]) => cells.map((cell) => cell.getAttribute('data-day') ?? ''));
    for (const weekday of [0, 2, 4]) {
      const label = page.locator(`[data-chart="calendar"] text[data-weekday="${weekday}"]`);
      expect(await label.isVisible()).toBe(true);
      const box = (await label.boundingBox())!;
      expect(box.x, `weekday ${weekday}`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      // Left of the cells, not under them…
      expect(box.x + box.width).toBeLessThanOrEqual(grid.x + 1);
      // …and level with its own row, whose latest day is in view beside it.
      const latest = days.findLast((day) => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7 === weekday)!;
      const cell = (await page.locator(`[data-chart="calendar"] rect[data-day="${latest}"]`).boundingBox())!;
      expect(cell.x).toBeGreaterThanOrEqual(grid.x);
      expect(cell.x + cell.width).toBeLessThanOrEqual(grid.x + grid.width + 1);
      const middle = box.y + box.height / 2;
      expect(middle, `weekday ${weekday} beside ${latest}`).toBeGreaterThan(cell.y);
      expect(middle).toBeLessThan(cell.y + cell.height);
    }
  });

  it('renames a device in its row, and an empty name gives it back its own', async () => {
    const { page } = await open('desktop', '/statistics');
    await statisticsDrawn(page);
    const phone = (await api('/reading-stats')).devices.find(
      (device: Device) => device.deviceName === MEASURING_DEVICES.phone.name,
    ) as Device;
    const name = page.locator(`tr[data-device="${phone.deviceId}"] [data-device-name]`);

    await page.getByRole('button', { name: `Rename ${MEASURING_DEVICES.phone.name}` }).click();
    const field = page.getByLabel(`Name of ${MEASURING_DEVICES.phone.name}`);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe(`Name of ${MEASURING_DEVICES.phone.name}`);
    await field.fill('Reading phone');
    await field.press('Enter');
    await expect.poll(() => name.textContent()).toBe('Reading phone');
    const renamed = (await api('/reading-stats')).devices.find((device: Device) => device.deviceId === phone.deviceId);
    expect(renamed.deviceName).toBe('Reading phone');

    await page.getByRole('button', { name: 'Rename Reading phone' }).click();
    await page.getByLabel('Name of Reading phone').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => name.textContent()).toBe(MEASURING_DEVICES.phone.name);
  });

  it('pauses recording: progress saves then add no reading, until it is resumed', async () => {
    const { page } = await open('desktop', '/statistics');
    const recording = page.getByLabel('Record my reading');
    await expect.poll(() => recording.isChecked()).toBe(true);
    const mihonFigures = async () => {
      const device = (await api('/reading-stats')).devices.find((d: Device) => d.deviceName === 'Mihon') as Device;
      return { sessions: device.sessions, inferredMs: device.duration.inferredMs };
    };
    const twoSaves = async () => {
      for (const currentPage of [5, 6]) {
        await fetch(new URL(`/api/v1/books/${showcase.books['Iron Meadow 001']!.id}/progress`, server.url), {
          method: 'PUT',
          headers: {
            Authorization: `Bearer ${showcase.token}`,
            'Content-Type': 'application/json',
            'User-Agent': INFERRING_AGENT,
          },
          body: JSON.stringify({ current_page: currentPage }),
        });
        await new Promise((resolve) => setTimeout(resolve, 2_100));
      }
    };

    await recording.uncheck();
    await page.locator('[data-recording-state="paused"]').waitFor();
    // The box answers the click at once; the server has it a moment later.
    await expect.poll(async () => (await api('/user/preferences'))['stats.recording']).toBe(false);
    const before = await mihonFigures();
    await twoSaves();
    expect(await mihonFigures()).toEqual(before);

    await recording.check();
    await page.locator('[data-recording-state="on"]').waitFor();
    await expect.poll(async () => (await api('/user/preferences'))['stats.recording']).toBe(true);
    await twoSaves();
    const after = await mihonFigures();
    expect(after.sessions + after.inferredMs).toBeGreaterThan(before.sessions + before.inferredMs);
  });

  it('downloads the sessions as JSON and as CSV', async () => {
    const { page } = await open('desktop', '/statistics');
    const exported = await api<unknown[]>('/reading-sessions/export', { format: 'json' });
    expect(exported.length).toBeGreaterThan(20);
    const download = async (format: string) => {
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.locator(`[data-export="${format}"]`).click(),
      ]);
      return readFileSync((await file.path())!, 'utf8');
    };
    expect(JSON.parse(await download('json'))).toHaveLength(exported.length);
    const csv = (await download('csv')).trim().split(/\r\n/);
    expect(csv[0]).toMatch(/^id,bookId,bookTitle,seriesName,deviceId,deviceName,startedAt,endedAt/);
    expect(csv).toHaveLength(exported.length + 1);
  });

  for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
    it(`${viewport}: Admin → Reading shows the server's totals, series, readers and libraries as the API returns them`, async () => {
      const { page, errors } = await open(viewport, '/admin/reading');
      await page.locator('[data-server-totals]').waitFor();
      await page.locator('[data-chart="time-month"] .ct-bar').first().waitFor({ state: 'attached' });
      const serverStats = await api('/admin/reading-stats', { granularity: 'month', seriesLimit: '10', tz: TIME_ZONE });
      const fact = (name: string) => page.locator(`[data-server-totals] [data-fact="${name}"] strong`).textContent();
      expect(minutesIn(await fact('time'))).toBe(minutesOf(serverStats.summary.duration.totalMs));
      expect(countIn(await fact('readers'))).toBe(serverStats.summary.readers);
      expect(countIn(await fact('pages'))).toBe(serverStats.summary.pagesRead);
      expect(countIn(await fact('finished'))).toBe(serverStats.summary.booksFinished);
      const column = (table: string) =>
        page
          .locator(`[data-figures="${table}"] tbody th`)
          .evaluateAll((cells: Element[]) => cells.map((c) => c.textContent));
      expect(await column('series')).toEqual(serverStats.series.map((s: { seriesName: string }) => s.seriesName));
      expect(await column('users')).toEqual([ADMIN.username]);
      expect(await column('libraries')).toEqual(['Comics']);

      // The last 12 months run from this month last year to this one: the same month stands at both ends, and
      // its two labels must not read alike.
      const months = [...(await numbers(page, 'time-month')).keys()];
      expect(months[0]!.slice(0, 4)).not.toBe(months.at(-1)!.slice(0, 4));
      const labels = await axisLabels(page, 'time-month');
      expect(labels[0]!.bucket).toBe(months[0]);
      expectUnambiguous(labels, 'month');
      expect(errors).toEqual([]);
    });
  }

  it('a new reader sees what will appear and how it is recorded', async () => {
    const reader = { username: 'newreader', password: 'a long new passphrase' };
    await call(server.url, 'POST', '/users', {
      token: showcase.token,
      json: { ...reader, email: 'newreader@example.test', role: 'reader' },
    });
    const { page } = await open('phone', '/statistics', reader);
    const empty = page.locator('[data-stats-empty]');
    await empty.waitFor();
    for (const words of ['calendar', 'KOReader', 'Kobo', 'this app'])
      expect(await empty.textContent()).toContain(words);
    expect(await page.locator('[data-chart]').count()).toBe(0);
    await page.getByRole('link', { name: 'Statistics' }).waitFor();
  });

  it('deleting everything asks first, keeps it all when refused, and deletes every session when confirmed', async () => {
    const { page } = await open('desktop', '/statistics');
    await statisticsDrawn(page);
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.locator('[data-delete-stats]').click();
    expect((await api('/reading-stats/coverage')).firstReadAt).not.toBeNull();
    await expect.poll(() => page.locator('[data-chart="calendar"]').count()).toBe(1);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('[data-delete-stats]').click();
    await page.locator('[data-stats-empty]').waitFor();
    expect(await api('/reading-stats/coverage')).toEqual({ firstReadAt: null, lastReadAt: null });
    expect(await api('/reading-sessions/export', { format: 'json' })).toEqual([]);
  });
});
