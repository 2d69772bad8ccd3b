/**
 * Progress locator (DECISIONS.md §Reader apps; issue 9 point 5): PUT /books/{id}/progress takes an
 * optional `locator` (an EPUB CFI or a KOReader xpointer, at most 4 KiB) that GET returns, so any client
 * reopens an ebook at the exact place; the device that wrote it is recorded (API.md §2).
 */
import { describe, expect, it } from 'vitest';
import { seedBook, seedLibrary, seedSeries } from '../support/catalog-factory';
import { createApiKey, setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';

const CFI = 'epubcfi(/6/14!/4/2/10/1:321)';

async function seedEpub() {
  const library = await seedLibrary();
  const series = await seedSeries(library, { title: 'Novels' });
  return seedBook(series, { fileFormat: 'epub', pageCount: 40 });
}

describe('PUT/GET /books/{id}/progress with a locator (DECISIONS.md §Reader apps)', () => {
  it('a locator sent is returned by GET, in the book list, and replaced or cleared by the next PUT', async () => {
    const admin = await setupAdmin();
    const book = await seedEpub();
    const put = await api(`/books/${book.id}/progress`, {
      method: 'PUT',
      auth: admin.auth,
      json: { current_page: 12, progress_percentage: 0.3, locator: CFI },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ currentPage: 12, progressPercentage: 0.3, locator: CFI });
    expect((await api(`/books/${book.id}/progress`, { auth: admin.auth })).body.locator).toBe(CFI);
    expect((await api(`/books/${book.id}`, { auth: admin.auth })).body.readProgress.locator).toBe(CFI);

    // Another device reads on: its locator replaces the first one.
    const key = await createApiKey(admin.auth, { name: 'KOReader' });
    const xpointer = '/body/DocFragment[7]/body/p[3]/text().0';
    await api(`/books/${book.id}/progress`, {
      method: 'PUT',
      auth: { apiKey: key.key },
      json: { current_page: 20, progress_percentage: 0.5, locator: xpointer },
    });
    expect((await api(`/books/${book.id}/progress`, { auth: admin.auth })).body.locator).toBe(xpointer);

    // A page-only update (a client without locators) leaves none behind that points elsewhere.
    await api(`/books/${book.id}/progress`, { method: 'PUT', auth: admin.auth, json: { current_page: 25 } });
    expect((await api(`/books/${book.id}/progress`, { auth: admin.auth })).body.locator).toBeNull();
  });

  it('bad locators → 400 and nothing stored: too long (4 KiB), empty, not a string', async () => {
    const admin = await setupAdmin();
    const book = await seedEpub();
    for (const locator of ['x'.repeat(4097), 'é'.repeat(2049), '', 42, { cfi: CFI }]) {
      const res = await api(`/books/${book.id}/progress`, {
        method: 'PUT',
        auth: admin.auth,
        json: { current_page: 3, locator },
      });
      const error = expectError(res, 400, 'BadRequest');
      expect(error.details?.[0]?.path).toBe('locator');
    }
    expect((await api(`/books/${book.id}/progress`, { auth: admin.auth })).status).toBe(404);
    const exactly = await api(`/books/${book.id}/progress`, {
      method: 'PUT',
      auth: admin.auth,
      json: { current_page: 3, locator: 'x'.repeat(4096) },
    });
    expect(exactly.status).toBe(200);
  });
});
