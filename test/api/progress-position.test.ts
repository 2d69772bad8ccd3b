/**
 * A progress write works its position out from the book's row inside the statement that writes it
 * (src/repositories/progress-position.ts: the rules of src/progress/rules.ts restated in SQL, so the write
 * is one round trip; docs/ARCHITECTURE.md, "The credential check beside the request"). Here both forms
 * meet: for books of every kind (paged formats, reflowable, image-only and unlabelled EPUBs, no pages yet)
 * and many positions, what `PUT /books/{id}/progress`, KOReader's push and a Kobo's reading state store — or
 * refuse — is what rules.ts says, computed by the test from the same book.
 */
import { describe, expect, it } from 'vitest';
import { bookPages } from '../../src/db/schema';
import {
  completesAtFraction,
  completesAtPage,
  isPageInRange,
  isReflowable,
  lastPage,
  type PagedBook,
  pageAtFraction,
  progressFraction,
} from '../../src/progress/rules';
import { MAX_LOCATOR_BYTES } from '../../src/schemas/read-progress.schema';
import { db, seedBook, seedLibrary, seedSeries } from '../support/catalog-factory';
import { createApiKey, setupAdmin } from '../support/factories';
import { api } from '../support/http';

const KINDS: PagedBook[] = [
  { fileFormat: 'cbz', epubLayout: null, pageCount: 20 },
  { fileFormat: 'pdf', epubLayout: null, pageCount: 7 },
  { fileFormat: 'cbr', epubLayout: null, pageCount: 1 },
  { fileFormat: 'epub', epubLayout: 'reflowable', pageCount: 311 },
  { fileFormat: 'epub', epubLayout: 'image', pageCount: 24 },
  { fileFormat: 'epub', epubLayout: null, pageCount: 3 },
  { fileFormat: 'cbz', epubLayout: null, pageCount: 0 },
  { fileFormat: 'epub', epubLayout: 'reflowable', pageCount: 0 },
];

const label = (book: PagedBook) => `${book.fileFormat}/${book.epubLayout ?? '-'}/${book.pageCount}`;

async function seedKinds() {
  const owner = await seedSeries(await seedLibrary(), { title: 'Positions' });
  return Promise.all(
    KINDS.map(async (kind, i) => {
      const hash = `${i.toString(16).padStart(2, '0')}${'ab'.repeat(15)}`;
      const book = await seedBook(owner, { title: `Kind ${i}`, ...kind, readerHash: hash });
      return { ...kind, id: book.id, hash };
    }),
  );
}

describe('PUT /books/{id}/progress against rules.ts', () => {
  it('stores the fraction and page rules.ts gives, and refuses the pages a book does not have', async () => {
    const admin = await setupAdmin();
    for (const book of await seedKinds()) {
      for (const page of [1, 2, 3, 7, 8, 20, 21, 311, 312]) {
        for (const sent of [undefined, 0.4375]) {
          const res = await api(`/books/${book.id}/progress`, {
            method: 'PUT',
            auth: admin.auth,
            json: {
              current_page: page,
              is_completed: page === 3,
              ...(sent === undefined ? {} : { progress_percentage: sent }),
            },
          });
          const what = `${label(book)} page ${page} sent ${sent}`;
          if (!isPageInRange(page, book.pageCount)) {
            expect(res.status, what).toBe(400);
            expect(res.body.details[0].path, what).toBe('current_page');
            continue;
          }
          expect(res.status, `${what}: ${res.text}`).toBe(200);
          expect(res.body, what).toMatchObject({
            currentPage: page,
            completed: page === 3,
            progressPercentage: progressFraction(book, page, sent),
          });
        }
      }
    }
  }, 120_000);
});

describe("KOReader's push against rules.ts", () => {
  it('moves an EPUB by the fraction and anything else by a page number, as rules.ts says', async () => {
    const admin = await setupAdmin();
    const key = (await createApiKey(admin.auth, { name: 'kobo' })).key;
    const push = (document: string, progress: string, percentage: number) =>
      api('http://longbox.test/koreader/syncs/progress', {
        method: 'PUT',
        headers: { accept: 'application/vnd.koreader.v1+json', 'x-auth-user': key, 'x-auth-key': 'x' },
        json: { document, progress, percentage, device: 'Kobo', device_id: 'k1' },
      });
    for (const book of await seedKinds()) {
      const pages = lastPage(book.pageCount);
      const epub = book.fileFormat === 'epub';
      const positions: Array<[string, number]> = epub
        ? [0, 0.001, 0.25, 0.5, 0.9999, 1].map((f) => [`/body/DocFragment[${Math.round(f * 9)}]/p[1]`, f])
        : ['0', '1', '2', '7', '20', '21', 'x3', '00012'].map((p) => [p, 0.5]);
      if (epub) positions.push(['x'.repeat(MAX_LOCATOR_BYTES + 1), 0.5]);
      for (const [progress, fraction] of positions) {
        const what = `${label(book)} progress ${progress.slice(0, 20)} ${fraction}`;
        const res = await push(book.hash, progress, fraction);
        const page = epub ? pageAtFraction(fraction, pages) : Number(progress);
        const valid = epub
          ? new TextEncoder().encode(progress).length <= MAX_LOCATOR_BYTES
          : /^[0-9]+$/.test(progress) && isPageInRange(page, pages);
        if (!valid) {
          expect(res.status, what).toBe(403);
          expect(res.body.code, what).toBe(2003);
          continue;
        }
        expect(res.status, `${what}: ${res.text}`).toBe(200);
        const stored = await api(`/books/${book.id}/progress`, { auth: admin.auth });
        expect(stored.body, what).toMatchObject({
          currentPage: page,
          completed: epub ? completesAtFraction(fraction) : completesAtPage(page, pages),
          progressPercentage: progressFraction(book, page, epub ? fraction : undefined),
          locator: epub ? progress : null,
        });
      }
    }
  }, 120_000);
});

describe("a Kobo's reading state against rules.ts (DECISIONS.md §Kobo e-readers, reading state)", () => {
  it('places a comic by its page file, any other book by the percentage, and keeps a reflowable EPUB’s locator', async () => {
    const admin = await setupAdmin();
    const key = (await createApiKey(admin.auth, { name: 'Kobo Clara' })).key;
    // The books a Kobo may have: analysed, with pages; comics with an index of JPEG pages (an EPUB can hold them).
    const owner = await seedSeries(await seedLibrary(), { title: 'Kobo positions' });
    const kinds = KINDS.filter((kind) => kind.pageCount > 0 && kind.fileFormat !== 'pdf');
    const seeded = await Promise.all(
      kinds.map(async (kind, i) => {
        const book = await seedBook(owner, { title: `Kobo kind ${i}`, ...kind });
        if (kind.fileFormat !== 'epub') {
          const pages = Array.from({ length: kind.pageCount }, (_, n) => ({
            bookId: book.id,
            number: n + 1,
            fileName: `${n + 1}.jpg`,
            mediaType: 'image/jpeg',
            width: 800,
            height: 1200,
            size: 1000,
            locator: {
              kind: 'zip',
              name: `${n + 1}.jpg`,
              offset: n * 2000,
              method: 0,
              compressedSize: 1000,
              size: 1000,
            },
          }));
          for (let n = 0; n < pages.length; n += 10) await db.insert(bookPages).values(pages.slice(n, n + 10));
        }
        return { ...kind, id: book.id };
      }),
    );
    const put = (bookId: string, status: string, bookmark: Record<string, unknown> | null) =>
      api(`http://longbox.test/kobo/${key}/v1/library/${bookId}/state`, {
        method: 'PUT',
        json: {
          ReadingStates: [{ StatusInfo: { Status: status }, ...(bookmark ? { CurrentBookmark: bookmark } : {}) }],
        },
      });
    const sources = [
      null,
      'OEBPS/page-0001.xhtml',
      'OEBPS/page-0007.xhtml',
      'OEBPS/page-0021.xhtml',
      'OEBPS/ch2.xhtml',
    ];
    for (const book of seeded) {
      const pages = lastPage(book.pageCount);
      const comic = book.fileFormat !== 'epub';
      const reflowable = isReflowable(book);
      for (const percent of [undefined, 0, 0.1, 25, 50, 99.99, 100]) {
        for (const source of sources) {
          const bookmark = {
            ...(percent === undefined ? {} : { ProgressPercent: percent }),
            ...(source
              ? { ContentSourceProgressPercent: 40, Location: { Source: source, Type: 'KoboSpan', Value: 'kobo.3.1' } }
              : {}),
          };
          const what = `${label(book)} ${percent}% ${source}`;
          const res = await put(book.id, 'Reading', bookmark);
          expect(res.status, `${what}: ${res.text}`).toBe(200);
          const fraction = (percent ?? 0) / 100;
          const named = source ? Number(/page-(\d+)/.exec(source)?.[1] ?? Number.NaN) : Number.NaN;
          const page = comic && isPageInRange(named, pages) ? named : pageAtFraction(fraction, pages);
          const stored = await api(`/books/${book.id}/progress`, { auth: admin.auth });
          expect(stored.body, what).toMatchObject({
            currentPage: page,
            completed: reflowable ? completesAtFraction(fraction) : completesAtPage(page, pages),
            progressPercentage: progressFraction(book, page, reflowable ? fraction : undefined),
          });
          const locator = stored.body.locator === null ? null : JSON.parse(stored.body.locator);
          expect(locator, what).toEqual(
            reflowable && source
              ? {
                  href: source,
                  type: 'application/xhtml+xml',
                  locations: { progression: 0.4, totalProgression: fraction },
                  koboSpan: 'kobo.3.1',
                }
              : null,
          );
        }
      }
      const finished = await put(book.id, 'Finished', null);
      expect(finished.status, finished.text).toBe(200);
      expect((await api(`/books/${book.id}/progress`, { auth: admin.auth })).body, label(book)).toMatchObject({
        currentPage: pages,
        completed: true,
        progressPercentage: 1,
        locator: null,
      });
      expect((await put(book.id, 'ReadyToRead', null)).status).toBe(200);
      expect((await api(`/books/${book.id}/progress`, { auth: admin.auth })).status, label(book)).toBe(404);
    }
  }, 180_000);
});
