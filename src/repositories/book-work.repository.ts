/**
 * Per-book work as D1 records it (issue 11): which books still miss their deferred details (page sizes and
 * hashes) or their thumbnail, and the rows a consumer batch or a re-analysis reads. D1 is the source of truth
 * and a queue message only a hint, so every decision about what is left to do is one of these reads. The
 * books are written through CatalogWriter, the one writer of book rows.
 */
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { bookPages, books } from '../db/schema';
import { BOOKS_INCOMPLETE_INDEX } from '../db/tables/books';
import type { BookRow } from './catalog-writer.repository';

/** What per-book work makes: the details of the one read, or the thumbnail. */
export type BookWork = 'details' | 'thumbnail';

/** A page as the one read needs it; `locator` is the format container's own (media/container.ts). */
export interface StoredPageRef {
  number: number;
  mediaType: string;
  locator: unknown;
}

/** Book ids per SELECT … IN: D1 binds at most 100 parameters per statement. */
const IDS_PER_SELECT = 90;

/**
 * Live books of a library still missing what `work` makes (not those whose analysis failed: they are done).
 * Deep scans redo thumbnails: with `thumbnailsSince`, a thumbnail made before that instant counts as missing.
 */
function incomplete(work: BookWork, libraryId: string, thumbnailsSince: string | null): SQL {
  const live = and(eq(books.libraryId, libraryId), isNull(books.deletedAt), isNull(books.analysisError)) as SQL;
  if (work === 'details') return and(live, or(eq(books.fileHash, ''), eq(books.analyzed, false))) as SQL;
  return and(
    live,
    isNull(books.thumbnailError),
    thumbnailsSince
      ? or(isNull(books.thumbnailKey), isNull(books.thumbnailUpdatedAt), lt(books.thumbnailUpdatedAt, thumbnailsSince))
      : isNull(books.thumbnailKey),
  ) as SQL;
}

/** Not queued since `cutoff` (or never): work whose message may be lost. */
const queuedBefore = (cutoff: string) => or(isNull(books.workQueuedAt), lt(books.workQueuedAt, cutoff));

export class BookWorkRepository {
  constructor(private readonly db: Database) {}

  async book(id: string): Promise<BookRow | undefined> {
    return this.db.select().from(books).where(eq(books.id, id)).get();
  }

  /** The rows of some books (deleted ones too), by id, in one query per 90 books. */
  async books(ids: string[]): Promise<Map<string, BookRow>> {
    const byId = new Map<string, BookRow>();
    for (let i = 0; i < ids.length; i += IDS_PER_SELECT) {
      const rows = await this.db
        .select()
        .from(books)
        .where(inArray(books.id, ids.slice(i, i + IDS_PER_SELECT)));
      for (const row of rows) byId.set(row.id, row);
    }
    return byId;
  }

  /** The page rows of some books, by book id, in one query per 90 books. */
  async pagesOf(bookIds: string[]): Promise<Map<string, StoredPageRef[]>> {
    const byBook = new Map<string, StoredPageRef[]>();
    for (let i = 0; i < bookIds.length; i += IDS_PER_SELECT) {
      const rows = await this.db
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
        list.push(page);
      }
    }
    return byBook;
  }

  /** How many live books of the library still miss what `work` makes. */
  async countIncomplete(work: BookWork, libraryId: string, thumbnailsSince: string | null): Promise<number> {
    const row = await this.db
      .select({ n: count() })
      .from(books)
      .where(incomplete(work, libraryId, thumbnailsSince))
      .get();
    return row?.n ?? 0;
  }

  /** The library's live books left without a thumbnail because it could not be made (no image, gave up). */
  async countThumbnailFailures(libraryId: string): Promise<number> {
    const row = await this.db
      .select({ n: count() })
      .from(books)
      .where(
        and(
          eq(books.libraryId, libraryId),
          isNull(books.deletedAt),
          isNull(books.analysisError),
          isNotNull(books.thumbnailError),
        ),
      )
      .get();
    return row?.n ?? 0;
  }

  /** Incomplete books (any library, any work) not queued since `cutoff`, at most `limit`. */
  async lostWork(cutoff: string, limit: number): Promise<Array<{ id: string; etag: string }>> {
    // Rows of the same shape as the partial index's condition, so SQLite walks only incomplete books.
    return this.db.all<{ id: string; etag: string }>(sql`
      select id, etag from ${books} indexed by ${sql.identifier(BOOKS_INCOMPLETE_INDEX)}
      where deleted_at is null and analysis_error is null
        and (file_hash = '' or analyzed = 0 or (thumbnail_key is null and thumbnail_error is null))
        and (work_queued_at is null or work_queued_at < ${cutoff})
      limit ${limit}`);
  }

  /** Books of the library still missing what `work` makes and not queued since `cutoff`, at most `limit`. */
  async lostWorkOf(
    work: BookWork,
    libraryId: string,
    thumbnailsSince: string | null,
    cutoff: string,
    limit: number,
  ): Promise<Array<{ id: string; etag: string }>> {
    return this.db
      .select({ id: books.id, etag: books.etag })
      .from(books)
      .where(and(incomplete(work, libraryId, thumbnailsSince), queuedBefore(cutoff)))
      .limit(limit);
  }

  async countLiveBooksOfSeries(seriesId: string): Promise<number> {
    const row = await this.db
      .select({ n: count() })
      .from(books)
      .where(and(eq(books.seriesId, seriesId), isNull(books.deletedAt)))
      .get();
    return row?.n ?? 0;
  }

  /** The series' next live book by id after `afterId` (a keyset walk that survives slices). */
  async nextLiveBookOfSeries(seriesId: string, afterId: string): Promise<BookRow | undefined> {
    const [book] = await this.db
      .select()
      .from(books)
      .where(and(eq(books.seriesId, seriesId), isNull(books.deletedAt), gt(books.id, afterId)))
      .orderBy(asc(books.id))
      .limit(1);
    return book;
  }
}
