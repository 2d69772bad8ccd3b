/**
 * The deferred part of a book's analysis, run by background tasks after a scan so first scans stay
 * fast: page dimensions (from each page's first bytes), fileHash and readerHash. When it succeeds
 * the book is `analyzed` (API.md §2: analysis done and page dimensions available).
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { bookPages, books } from '../db/schema';
import type { PageLocator } from '../media/container';
import { isBookAnalysisError } from '../media/errors';
import { containerFor } from '../media';
import { r2RangeReader } from '../media/range-reader';
import type { BookRow } from '../repositories/catalog-writer.repository';
import { koreaderPartialMd5, sha256OfObject } from './file-hashes';

export async function completeBookDetails(db: Database, bucket: R2Bucket, book: BookRow): Promise<void> {
  const now = new Date().toISOString();
  try {
    const reader = await r2RangeReader(bucket, book.path, book.fileSize);
    const container = containerFor(book.fileFormat);
    const pages = await db
      .select({ number: bookPages.number, locator: bookPages.locator })
      .from(bookPages)
      .where(eq(bookPages.bookId, book.id))
      .orderBy(bookPages.number);
    const updates = [];
    for (const page of pages) {
      const size = await container.readPageHeader(reader, page.locator as PageLocator, book.containerIndex as never);
      if (size) {
        updates.push(
          db
            .update(bookPages)
            .set({ width: size.width, height: size.height })
            .where(and(eq(bookPages.bookId, book.id), eq(bookPages.number, page.number))),
        );
      }
    }
    const [fileHash, readerHash] = await Promise.all([sha256OfObject(bucket, book.path), koreaderPartialMd5(reader)]);
    await db.batch([
      ...updates,
      db
        .update(books)
        .set({
          fileHash: fileHash ?? '',
          readerHash,
          analyzed: book.analysisError === null,
          updatedAt: now,
        })
        .where(eq(books.id, book.id)),
    ] as unknown as Parameters<Database['batch']>[0]);
  } catch (error) {
    if (!isBookAnalysisError(error)) throw error;
    await db
      .update(books)
      .set({ analysisError: error.message, analyzed: false, updatedAt: now })
      .where(eq(books.id, book.id));
  }
}
