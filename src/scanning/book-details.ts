/**
 * The deferred part of a book's analysis, completed after a scan so first scans stay fast: page
 * dimensions (from each page's first bytes), fileHash and readerHash. All three come from one
 * sequential read of the file (sequential-object-reader.ts), pages asked in file order, and the page
 * sizes are written with one statement per few hundred pages. When it succeeds the book is `analyzed`
 * (API.md §2: analysis done and page dimensions available).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { bookPages, books } from '../db/schema';
import { containerFor } from '../media';
import type { ImageDimensions, PageLocator } from '../media/container';
import { isBookAnalysisError } from '../media/errors';
import { r2RangeReader } from '../media/range-reader';
import type { BookRow } from '../repositories/catalog-writer.repository';
import { type OnePassStats, openOnePassReader } from './sequential-object-reader';

/** Page sizes per UPDATE: one JSON parameter each, far below D1's value limits. */
const SIZES_PER_UPDATE = 500;

/** Where a page's bytes start, for reading in file order (ZIP and RAR locators carry it; PDF needs none). */
const locatorOffset = (locator: PageLocator): number =>
  typeof locator.offset === 'number' ? locator.offset : Number.MAX_SAFE_INTEGER;

export async function completeBookDetails(db: Database, bucket: R2Bucket, book: BookRow): Promise<OnePassStats> {
  const now = new Date().toISOString();
  const stats: OnePassStats = { requests: 0, fallbackReads: 0 };
  let pass: Awaited<ReturnType<typeof openOnePassReader>> | undefined;
  try {
    pass = await openOnePassReader(bucket, book.path, book.etag, () => r2RangeReader(bucket, book.path, book.fileSize));
    const container = containerFor(book.fileFormat);
    const pages = await db
      .select({ number: bookPages.number, locator: bookPages.locator })
      .from(bookPages)
      .where(eq(bookPages.bookId, book.id));
    pages.sort((a, b) => locatorOffset(a.locator as PageLocator) - locatorOffset(b.locator as PageLocator));
    const sizes: Array<[number, number, number]> = [];
    for (const page of pages) {
      const size: ImageDimensions | null = await container.readPageHeader(
        pass.reader,
        page.locator as PageLocator,
        book.containerIndex as never,
      );
      if (size) sizes.push([page.number, size.width, size.height]);
    }
    const { fileHash, readerHash } = await pass.finish();
    Object.assign(stats, pass.stats);
    const updates = [];
    for (let i = 0; i < sizes.length; i += SIZES_PER_UPDATE) {
      const json = JSON.stringify(sizes.slice(i, i + SIZES_PER_UPDATE));
      // Array positions are inlined: a bound number reaches SQLite as a REAL, which is no JSON path.
      const field = (index: 1 | 2) =>
        sql<number>`(select s.value ->> ${sql.raw(String(index))} from json_each(${json}) s where s.value ->> 0 = ${bookPages.number})`;
      updates.push(
        db
          .update(bookPages)
          .set({ width: field(1), height: field(2) })
          .where(
            and(
              eq(bookPages.bookId, book.id),
              sql`${bookPages.number} in (select s.value ->> 0 from json_each(${json}) s)`,
            ),
          ),
      );
    }
    await db.batch([
      ...updates,
      db
        .update(books)
        .set({ fileHash, readerHash, analyzed: book.analysisError === null, updatedAt: now })
        .where(eq(books.id, book.id)),
    ] as unknown as Parameters<Database['batch']>[0]);
  } catch (error) {
    pass?.abort();
    if (pass) Object.assign(stats, pass.stats);
    if (!isBookAnalysisError(error)) throw error;
    await db
      .update(books)
      .set({ analysisError: error.message, analyzed: false, updatedAt: now })
      .where(eq(books.id, book.id));
  }
  return stats;
}
