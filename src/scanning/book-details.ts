/**
 * The deferred part of a book's analysis, completed after a scan so first scans stay fast: page
 * dimensions (from each page's first bytes), fileHash and readerHash. All three come from one
 * sequential read of the file (sequential-object-reader.ts), pages asked in file order. Reading and
 * recording are apart so a queue consumer can read many books and record them all in one D1 batch
 * (page sizes of many books in one statement). When it succeeds the book is `analyzed` (API.md §2:
 * analysis done and page dimensions available).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { bookPages, books } from '../db/schema';
import { containerFor } from '../media';
import type { PageLocator } from '../media/container';
import { isBookAnalysisError } from '../media/errors';
import { r2RangeReader } from '../media/range-reader';
import type { BookRow } from '../repositories/catalog-writer.repository';
import { type OnePassStats, openOnePassReader } from './sequential-object-reader';

/** Page sizes per UPDATE: one JSON parameter of ~40 bytes a page, far below D1's value limits. */
const SIZES_PER_UPDATE = 1000;
/** Book ids per SELECT … IN: D1 binds at most 100 parameters per statement. */
const IDS_PER_SELECT = 90;

export interface PageToMeasure {
  number: number;
  mediaType: string;
  locator: PageLocator;
}

export type BookDetails =
  | { kind: 'measured'; sizes: Array<[number, number, number]>; fileHash: string; readerHash: string }
  | { kind: 'unreadable'; message: string };

/** Where a page's bytes start, for reading in file order (ZIP and RAR locators carry it; PDF needs none). */
const locatorOffset = (locator: PageLocator): number =>
  typeof locator.offset === 'number' ? locator.offset : Number.MAX_SAFE_INTEGER;

/** The page rows of some books, by book id, in one query per 90 books. */
export async function loadPagesOf(db: Database, bookIds: string[]): Promise<Map<string, PageToMeasure[]>> {
  const byBook = new Map<string, PageToMeasure[]>();
  for (let i = 0; i < bookIds.length; i += IDS_PER_SELECT) {
    const rows = await db
      .select({
        bookId: bookPages.bookId,
        number: bookPages.number,
        mediaType: bookPages.mediaType,
        locator: bookPages.locator,
      })
      .from(bookPages)
      .where(inArray(bookPages.bookId, bookIds.slice(i, i + IDS_PER_SELECT)));
    for (const { bookId, ...page } of rows) {
      const list = byBook.get(bookId) ?? [];
      if (list.length === 0) byBook.set(bookId, list);
      list.push(page as PageToMeasure);
    }
  }
  return byBook;
}

/**
 * The one read: every page's dimensions and both hashes, nothing written. A file that cannot be read
 * as a book is a result (`unreadable`); anything else (storage unreachable) is thrown.
 */
export async function readBookDetails(
  bucket: R2Bucket,
  book: BookRow,
  pages: PageToMeasure[],
  stats: OnePassStats = { requests: 0, fallbackReads: 0 },
): Promise<BookDetails> {
  let pass: Awaited<ReturnType<typeof openOnePassReader>> | undefined;
  try {
    pass = await openOnePassReader(bucket, book.path, book.etag, () => r2RangeReader(bucket, book.path, book.fileSize));
    const container = containerFor(book.fileFormat);
    const ordered = [...pages].sort((a, b) => locatorOffset(a.locator) - locatorOffset(b.locator));
    const sizes: Array<[number, number, number]> = [];
    for (const page of ordered) {
      const size = await container.readPageHeader(pass.reader, page.locator, book.containerIndex as never);
      if (size) sizes.push([page.number, size.width, size.height]);
    }
    const { fileHash, readerHash } = await pass.finish();
    Object.assign(stats, pass.stats);
    return { kind: 'measured', sizes, fileHash, readerHash };
  } catch (error) {
    pass?.abort();
    if (pass) Object.assign(stats, pass.stats);
    if (!isBookAnalysisError(error)) throw error;
    return { kind: 'unreadable', message: error.message };
  }
}

/** The book row as it is once `details` are recorded (for what comes next in the same pass). */
export function withDetails(book: BookRow, details: BookDetails, now: string): BookRow {
  return details.kind === 'measured'
    ? {
        ...book,
        fileHash: details.fileHash,
        readerHash: details.readerHash,
        analyzed: book.analysisError === null,
        updatedAt: now,
      }
    : { ...book, analysisError: details.message, analyzed: false, updatedAt: now };
}

/** The statements that record the details of some books: their page sizes together, then each book row. */
export function detailsStatements(db: Database, measured: Array<{ book: BookRow; details: BookDetails }>, now: string) {
  const sizes: Array<[string, number, number, number]> = [];
  const statements = [];
  for (const { book, details } of measured) {
    if (details.kind === 'measured') {
      for (const [number, width, height] of details.sizes) sizes.push([book.id, number, width, height]);
    }
    const row = withDetails(book, details, now);
    const set =
      details.kind === 'measured'
        ? { fileHash: row.fileHash, readerHash: row.readerHash, analyzed: row.analyzed, updatedAt: now }
        : { analysisError: row.analysisError, analyzed: false, updatedAt: now };
    statements.push(db.update(books).set(set).where(eq(books.id, book.id)));
  }
  const pageUpdates = [];
  for (let i = 0; i < sizes.length; i += SIZES_PER_UPDATE) {
    const json = JSON.stringify(sizes.slice(i, i + SIZES_PER_UPDATE));
    // One statement for many books: SQLite walks the JSON array and finds each row by its primary key.
    pageUpdates.push(
      db
        .update(bookPages)
        .set({ width: sql`s.value ->> 2`, height: sql`s.value ->> 3` })
        .from(sql`json_each(${json}) as s`)
        .where(and(sql`${bookPages.bookId} = s.value ->> 0`, sql`${bookPages.number} = s.value ->> 1`)),
    );
  }
  return [...pageUpdates, ...statements];
}

/** One book, read and recorded (re-analysis, tests); queue consumers batch the same steps. */
export async function completeBookDetails(db: Database, bucket: R2Bucket, book: BookRow): Promise<OnePassStats> {
  const stats: OnePassStats = { requests: 0, fallbackReads: 0 };
  const pages = (await loadPagesOf(db, [book.id])).get(book.id) ?? [];
  const details = await readBookDetails(bucket, book, pages, stats);
  await db.batch(
    detailsStatements(db, [{ book, details }], new Date().toISOString()) as unknown as Parameters<Database['batch']>[0],
  );
  return stats;
}
