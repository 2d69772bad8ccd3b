/**
 * Screenshots of the Statistics screen (light and dark) and of Admin → Reading (issue 35). The showcase has no
 * reading history: the first of these shots seeds one (support/reading.ts) and reloads the screen.
 */
import type { Page } from 'playwright-core';
import { call } from '../support/api';
import { seedReading } from '../support/reading';
import type { Shot, ShotContext } from '../support/shots';

/** Seeds the showcase's reading once per server (a later shot finds the inferring app's device already there). */
async function ensureReading(page: Page, context: ShotContext): Promise<void> {
  const { baseUrl, showcase } = context;
  const stats = await call(baseUrl, 'GET', '/reading-stats', { token: showcase.token });
  if (!stats.devices.some((device: { deviceName: string | null }) => device.deviceName === 'Mihon')) {
    const books = Object.entries(showcase.books)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, book]) => book.id);
    // The book the showcase left on page 4 is saved on page 4 again: the home screen's shots stay the same.
    const inProgress = showcase.books['Harbor Lights 001']!;
    await seedReading(baseUrl, showcase.token, books, { bookId: inProgress.id, page: 4 });
  }
  await page.reload();
}

/** The screen has drawn its calendar, its charts and its devices (a bar of nothing is a line of no height: attached, never visible). */
export async function statisticsDrawn(page: Page): Promise<void> {
  await page.locator('[data-chart="calendar"] rect[data-level="4"]').first().waitFor();
  await page.locator('[data-chart="time-month"] .ct-bar').first().waitFor({ state: 'attached' });
  await page.locator('[data-chart="finished-month"] .ct-bar').first().waitFor({ state: 'attached' });
  await page.locator('[data-devices] [data-device]').first().waitFor();
}

const statistics = {
  path: () => '/statistics',
  ready: async (page: Page, context: ShotContext) => {
    await ensureReading(page, context);
    await statisticsDrawn(page);
  },
};

export const shots: Shot[] = [
  { name: 'statistics', ...statistics },
  { name: 'statistics-dark', ...statistics, colorScheme: 'dark' },
  {
    name: 'admin-reading',
    path: () => '/admin/reading',
    ready: async (page, context) => {
      await ensureReading(page, context);
      await page.locator('[data-server-totals]').waitFor();
      await page.locator('[data-chart="time-month"] .ct-bar').first().waitFor({ state: 'attached' });
    },
  },
];
