/**
 * Uploads from the admin screen (issue 12 point 5): a file larger than one request goes through the
 * multipart upload routes in parts with one progress bar, and files dropped on the drop zone upload too
 * (non-book files left out); the books arrive intact and are scanned in.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jpeg, noise } from '../fixtures/images';
import { buildZip } from '../fixtures/zip-writer';
import { ADMIN, call, createLibrary, type Session, setupAdmin, signInContext, uploadBook } from './support/api';
import { comicBook } from './support/books';
import { describeWithChromium, launchBrowser, newContext } from './support/browser';
import { type LongboxServer, startServer } from '../support/dev-server';

/** Larger than the web app's single-request limit (16 MiB): two 8 MiB parts and a short last one. */
const BIG_BYTES = 17 * 1024 * 1024;

describeWithChromium('uploading books from the web app', () => {
  let server: LongboxServer;
  let browser: Browser;
  let admin: Session;
  let libraryId: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'longbox-upload-'));
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    admin = await setupAdmin(server.url);
    libraryId = (await createLibrary(server.url, admin.token, 'Comics', 'comics')).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function adminPage() {
    const context = await newContext(browser, 'desktop');
    await signInContext(context, server.url, ADMIN.username, ADMIN.password);
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/libraries?library=${libraryId}`);
    const panel = page.locator('[data-library="Comics"]');
    await panel.locator('[data-dropzone]').waitFor();
    return { context, page, panel };
  }

  it('sends a large file in parts through the multipart routes, with progress, and it arrives whole', async () => {
    const big = buildZip([
      { name: '001.jpg', data: jpeg(400, 600, { seed: 1 }) },
      { name: 'extras.bin', data: noise(BIG_BYTES, 7) },
    ]);
    const file = path.join(dir, 'Big Book 001.cbz');
    writeFileSync(file, big);
    const { context, page, panel } = await adminPage();
    const parts: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.includes('/files/') && request.method() === 'PUT')
        parts.push(url.searchParams.get('partNumber') ?? 'single');
    });
    await panel.locator('input[type="file"][accept]').setInputFiles(file);
    await panel.locator('[data-upload-progress]').waitFor();
    await expect
      .poll(() => panel.locator('[data-upload-report]').textContent(), { timeout: 60_000 })
      .toContain('Uploaded 1');
    expect(parts).toEqual(['1', '2', '3']);

    const listing = await call(server.url, 'GET', '/filesystem/browse', {
      token: admin.token,
      query: { path: 'comics' },
    });
    const stored = listing.files.find((entry: { name: string }) => entry.name === 'Big Book 001.cbz');
    expect(stored?.size).toBe(big.length);
    await context.close();
  });

  it('uploads files dropped on the drop zone, leaving out what is not a book', async () => {
    const { context, page, panel } = await adminPage();
    const files = [
      { name: 'Dropped 001.cbz', bytes: [...comicBook(2)] },
      { name: 'Dropped 002.cbz', bytes: [...comicBook(3)] },
      { name: 'readme.txt', bytes: [...new TextEncoder().encode('hello')] },
    ];
    await page.evaluate((dropped) => {
      const transfer = new DataTransfer();
      for (const file of dropped) transfer.items.add(new File([new Uint8Array(file.bytes)], file.name));
      const zone = document.querySelector('[data-library="Comics"] [data-dropzone]')!;
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, files);
    await expect
      .poll(() => panel.locator('[data-upload-report]').textContent(), { timeout: 30_000 })
      .toContain('Uploaded 2');
    // The upload started a scan: the dropped books (and the big one) are in the catalogue.
    await expect
      .poll(
        async () =>
          (await call(server.url, 'GET', '/books', { token: admin.token })).data
            .map((b: { title: string }) => b.title)
            .sort(),
        { timeout: 60_000 },
      )
      .toEqual(['Big Book 001', 'Dropped 001', 'Dropped 002']);
    await context.close();
  });

  it('edits a library, picking its folder in the storage browser', async () => {
    await uploadBook(server.url, admin.token, libraryId, 'Browsed 001.cbz', comicBook(1));
    const { context, page, panel } = await adminPage();
    await panel.getByRole('button', { name: 'Edit' }).click();
    await panel.getByRole('button', { name: 'Browse storage' }).click();
    const browser = panel.locator('fieldset.browser');
    await browser.getByRole('button', { name: '↑ ..' }).click(); // from /comics up to the root
    await browser.getByRole('button', { name: /comics/ }).waitFor();
    await browser.getByRole('button', { name: /comics/ }).click();
    await browser.getByText('Browsed 001.cbz').waitFor(); // the folder's books, for orientation
    await browser.getByRole('button', { name: 'Use this folder' }).click();
    expect(await panel.getByLabel('Folder', { exact: true }).inputValue()).toMatch(/^comics\/?$/);
    await panel.getByLabel('Name', { exact: true }).fill('My Comics');
    await panel.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-library="My Comics"]').waitFor();
    const library = await call(server.url, 'GET', `/libraries/${libraryId}`, { token: admin.token });
    expect(library.name).toBe('My Comics');
    await context.close();
  });
});
