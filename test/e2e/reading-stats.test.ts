import { expect, it } from 'vitest';
import { koreaderStatisticsFile } from '../support/koreader-statistics-db.mjs';
import { pagesRead } from '../support/koreader-statistics-spec.mjs';
import { call } from './support/api';
import { describeWithChromium, type ViewportName } from './support/browser';
import { openComicReader, readerSuite } from './support/open-reader';

describeWithChromium('reading statistics from the web readers', () => {
  const suite = readerSuite();

  /** Turns three pages 1.2 s or more apart on a new browser (its own device), then closes the reader. */
  async function readOn(viewport: ViewportName): Promise<number> {
    const page = await suite.signedInPage(viewport);
    await openComicReader(page, suite.server.url, suite.library.book1.id);
    const started = Date.now();
    await page.keyboard.press('Home');
    for (let turn = 0; turn < 3; turn++) {
      await page.waitForTimeout(1_200);
      await page.keyboard.press('ArrowRight');
    }
    const span = Date.now() - started;
    // Leaving the page ends the stretch: the beacon goes out as the page is unloaded.
    await page.close({ runBeforeUnload: true });
    return span;
  }

  /** KOReader on an e-reader of its own: 12 pages of 75 s an hour ago, its statistics database sent with its key. */
  async function readInKoreader(): Promise<{ deviceId: string; measuredMs: number }> {
    const key = await call(suite.server.url, 'POST', '/api-keys', {
      token: suite.session.token,
      json: { name: 'Libra KOReader' },
    });
    const book = await call(suite.server.url, 'GET', `/books/${suite.library.book1.id}`, {
      token: suite.session.token,
    });
    const start = Math.floor(Date.now() / 1000) - 3600;
    const file = koreaderStatisticsFile([
      { title: suite.library.book1.title, md5: book.readerHash, totalPages: 20, visits: pagesRead(1, 12, start, 75) },
    ]);
    const response = await fetch(`${suite.server.url}/api/v1/reading-sessions/koreader`, {
      method: 'POST',
      headers: { 'X-API-Key': key.key, 'Content-Type': 'application/vnd.sqlite3' },
      body: file.slice(),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json()).accepted).toBe(1);
    return { deviceId: `api-key:${key.id}`, measuredMs: 12 * 75_000 };
  }

  it('a phone and a desktop browser and KOReader are three devices, each with the time it measured', async () => {
    const phoneSpan = await readOn('phone');
    const desktopSpan = await readOn('desktop');
    const koreader = await readInKoreader();
    const measuring = async () => {
      const stats = await call(suite.server.url, 'GET', '/reading-stats', { token: suite.session.token });
      return (
        stats.devices as Array<{ deviceId: string; duration: { measuredMs: number; inferredMs: number } }>
      ).filter((d) => d.duration.measuredMs > 0);
    };
    await expect.poll(async () => (await measuring()).length, { timeout: 20_000 }).toBe(3);
    const all = await measuring();
    // KOReader's own figure, to the second: what its database says was read.
    expect(all.find((d) => d.deviceId === koreader.deviceId)?.duration).toEqual(
      expect.objectContaining({ measuredMs: koreader.measuredMs, inferredMs: 0 }),
    );
    const browsers = all.filter((d) => d.deviceId.startsWith('client:'));
    expect(browsers).toHaveLength(2);
    for (const device of browsers) {
      // The first turn starts the clock; the two after it come 1.2 s or more apart: at least 2.4 s measured,
      // never more than the time the test spent reading.
      expect(device.duration.measuredMs).toBeGreaterThanOrEqual(2_400);
      expect(device.duration.measuredMs).toBeLessThanOrEqual(Math.max(phoneSpan, desktopSpan));
      expect(device.duration.inferredMs).toBe(0);
    }
  }, 180_000);
});
