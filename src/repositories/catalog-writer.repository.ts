/**
 * The write side of the catalog, and the one writer of book rows: scans and re-analysis (series creation,
 * book rows with their pages and terms, soft deletion and restoration, series aggregates), the per-book work
 * of the queue consumers (deferred details, thumbnails, what could not be done), and the purge of the trash.
 * Every book write and its search-index rows go into one D1 batch, so the catalog never shows half a book.
 */
import { and, eq, gte, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import {
  bookPages,
  books,
  bookTerms,
  readProgress,
  series,
  seriesSharingLabels,
  seriesTerms,
  wantToRead,
} from '../db/schema';
import { newId } from '../lib/ids';
import { deleteSearchRow, insertSearchRow, upsertSearchRow } from './search-index';

export type BookRow = typeof books.$inferSelect;
export type NewBookRow = typeof books.$inferInsert;
export type PageRow = typeof bookPages.$inferInsert;
/** One statement of a D1 batch: built here, run by `run` or `runAtomically`. */
export type Statement = BatchItem<'sqlite'>;

/** D1 binds at most 100 parameters per statement: multi-row inserts are chunked below that. */
const MAX_PARAMS = 99;
/**
 * Pages travel as one JSON parameter per insert (a row per page would bind 8 parameters, so a 50-page
 * book took 5 statements); the cap keeps each parameter far below D1's size limits.
 */
const PAGES_PER_INSERT = 250;

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Page sizes per UPDATE: one JSON parameter of ~40 bytes a page, far below D1's value limits. */
const SIZES_PER_UPDATE = 1000;

/** What the one read of a book found (scanning/book-details.ts), as it is recorded. */
export interface BookDetailsRecord {
  bookId: string;
  changes: Pick<NewBookRow, 'updatedAt'> &
    Partial<Pick<NewBookRow, 'fileHash' | 'readerHash' | 'analyzed' | 'analysisError'>>;
  /** [page number, width, height] of every page whose header could be read. */
  pageSizes: Array<[number, number, number]>;
}

/** What a listing compares with an object to decide whether the file changed. */
export type StoredObjectState = Pick<BookRow, 'etag' | 'fileSize' | 'fileModifiedAt' | 'deletedAt'>;

export interface SeriesSeed {
  groupKey: string;
  path: string;
  title: string;
  titleSort: string;
}

export class CatalogWriter {
  constructor(private readonly db: Database) {}

  /** Existing books of a library by key (deleted ones too, so returning files are restored). */
  async booksByPath(libraryId: string, paths: string[]): Promise<Map<string, BookRow>> {
    const found = new Map<string, BookRow>();
    for (const part of chunk(paths, 90)) {
      const rows = await this.db
        .select()
        .from(books)
        .where(and(eq(books.libraryId, libraryId), inArray(books.path, part)));
      for (const row of rows) found.set(row.path, row);
    }
    return found;
  }

  /**
   * The stored object identity of every book (deleted ones too) whose key lies in [fromPath, toPath].
   * A listing page comes in key order, so one range read of the (library_id, path) index covers it,
   * instead of one `IN (…)` lookup per 90 keys; only the compared columns are read.
   */
  async objectStatesInRange(
    libraryId: string,
    fromPath: string,
    toPath: string,
  ): Promise<Map<string, StoredObjectState>> {
    const rows = await this.db
      .select({
        path: books.path,
        etag: books.etag,
        fileSize: books.fileSize,
        fileModifiedAt: books.fileModifiedAt,
        deletedAt: books.deletedAt,
      })
      .from(books)
      .where(and(eq(books.libraryId, libraryId), gte(books.path, fromPath), lte(books.path, toPath)));
    return new Map(rows.map(({ path, ...state }) => [path, state]));
  }

  /** Series ids for the given groups, creating missing series and restoring deleted ones. */
  async ensureSeries(libraryId: string, seeds: SeriesSeed[], now: string) {
    const byKey = new Map(seeds.map((s) => [s.groupKey, s]));
    const ids = new Map<string, { id: string; created: boolean }>();
    for (const part of chunk([...byKey.keys()], 90)) {
      const rows = await this.db
        .select({ id: series.id, groupKey: series.groupKey, deletedAt: series.deletedAt })
        .from(series)
        .where(and(eq(series.libraryId, libraryId), inArray(series.groupKey, part)));
      for (const row of rows) ids.set(row.groupKey, { id: row.id, created: false });
    }
    const missing = [...byKey.values()].filter((s) => !ids.has(s.groupKey));
    const inserts = missing.map((seed) => {
      const id = newId();
      ids.set(seed.groupKey, { id, created: true });
      return this.db.insert(series).values({
        id,
        libraryId,
        groupKey: seed.groupKey,
        path: seed.path,
        title: seed.title,
        titleSort: seed.titleSort,
        createdAt: now,
        updatedAt: now,
      });
    });
    if (inserts.length > 0) await this.db.batch(inserts as unknown as [Statement, ...Statement[]]);
    return ids;
  }

  /** Statements that write one book (insert or replace) with its pages, terms and search row. */
  bookStatements(
    row: NewBookRow & { id: string },
    pages: PageRow[],
    terms: { genres: string[]; tags: string[] },
    isNew: boolean,
    seriesTitle: string,
  ): Statement[] {
    const statements: Statement[] = [];
    // A new book has no pages, terms or search row yet: deleting them first would be wasted statements.
    if (isNew) statements.push(this.db.insert(books).values(row));
    else {
      statements.push(this.db.update(books).set(row).where(eq(books.id, row.id)));
      statements.push(this.db.delete(bookPages).where(eq(bookPages.bookId, row.id)));
      statements.push(this.db.delete(bookTerms).where(eq(bookTerms.bookId, row.id)));
    }
    for (const part of chunk(pages, PAGES_PER_INSERT)) statements.push(this.insertPages(row.id, part));
    const termRows = [
      ...new Set(terms.genres.map((g) => `genre\u0000${g}`)),
      ...new Set(terms.tags.map((t) => `tag\u0000${t}`)),
    ].map((joined) => {
      const [kind, value] = joined.split('\u0000') as ['genre' | 'tag', string];
      return { bookId: row.id, kind, value };
    });
    for (const part of chunk(termRows, Math.floor(MAX_PARAMS / 3)))
      statements.push(this.db.insert(bookTerms).values(part));
    const search = {
      entityType: 'book' as const,
      entityId: row.id,
      libraryId: row.libraryId,
      title: row.title,
      seriesTitle,
      summary: row.summary ?? null,
      authors: (row.authors ?? []).map((a) => a.name),
      publishers: row.publisher ? [row.publisher] : [],
    };
    if (isNew) statements.push(insertSearchRow(this.db, search));
    else statements.push(...upsertSearchRow(this.db, search));
    return statements;
  }

  /** One INSERT … SELECT over json_each: columns in book_pages' order, the locator kept as JSON text. */
  private insertPages(bookId: string, pages: PageRow[]): Statement {
    const rows = JSON.stringify(
      pages.map((p) => [p.number, p.fileName, p.mediaType, p.width ?? null, p.height ?? null, p.size, p.locator]),
    );
    return this.db.insert(bookPages).select(
      sql`select ${bookId}, p.value ->> 0, p.value ->> 1, p.value ->> 2, p.value ->> 3, p.value ->> 4,
        p.value ->> 5, p.value -> 6 from json_each(${rows}) p`,
    );
  }

  async run(statements: Statement[]): Promise<void> {
    for (const part of chunk(statements, 200)) {
      if (part.length > 0) await this.db.batch(part as [Statement, ...Statement[]]);
    }
  }

  /** Runs the statements in one D1 batch (one transaction): all of them are recorded, or none. */
  async runAtomically(statements: Statement[]): Promise<void> {
    const [first, ...rest] = statements;
    if (first) await this.db.batch([first, ...rest]);
  }

  /** The series' title (a re-analysed book's search row carries it). */
  async seriesTitle(seriesId: string): Promise<string | undefined> {
    const row = await this.db.select({ title: series.title }).from(series).where(eq(series.id, seriesId)).get();
    return row?.title;
  }

  // ---- per-book work (the queue consumers, re-analysis) ------------------------------------------

  /** Stamps the books as queued at `at`, so the cron can tell lost work from queued work (one batch). */
  async markWorkQueued(ids: string[], at: string): Promise<void> {
    await this.runAtomically(
      chunk(ids, 90).map((part) => this.db.update(books).set({ workQueuedAt: at }).where(inArray(books.id, part))),
    );
  }

  /**
   * The statements that record the details of some books: their page sizes together (one statement per 1,000
   * pages, SQLite walking the JSON array and finding each row by its primary key), then each book row.
   */
  detailsStatements(records: BookDetailsRecord[]): Statement[] {
    const sizes = records.flatMap(({ bookId, pageSizes }) =>
      pageSizes.map(([number, width, height]) => [bookId, number, width, height]),
    );
    const statements: Statement[] = [];
    for (const part of chunk(sizes, SIZES_PER_UPDATE)) {
      statements.push(
        this.db
          .update(bookPages)
          .set({ width: sql`s.value ->> 2`, height: sql`s.value ->> 3` })
          .from(sql`json_each(${JSON.stringify(part)}) as s`)
          .where(and(sql`${bookPages.bookId} = s.value ->> 0`, sql`${bookPages.number} = s.value ->> 1`)),
      );
    }
    for (const { bookId, changes } of records) {
      statements.push(this.db.update(books).set(changes).where(eq(books.id, bookId)));
    }
    return statements;
  }

  /** Points a book at its new thumbnail (await the statement, or batch it with others). */
  thumbnailRecorded(bookId: string, key: string, at: string) {
    return this.db.update(books).set({ thumbnailKey: key, thumbnailUpdatedAt: at }).where(eq(books.id, bookId));
  }

  /** The book's thumbnail cannot be made: the reason is recorded and the book's thumbnail work is done. */
  thumbnailFailed(bookId: string, reason: string) {
    return this.db.update(books).set({ thumbnailError: reason }).where(eq(books.id, bookId));
  }

  /** The book cannot be analysed: the reason is recorded, the book is not `analyzed`, and its work is done. */
  analysisFailed(bookId: string, reason: string) {
    return this.db.update(books).set({ analysisError: reason, analyzed: false }).where(eq(books.id, bookId));
  }

  // ---- the trash (purge_deleted) -------------------------------------------------------------------

  /** Soft-deleted books (of one library, or all), at most `limit`. */
  async trashedBookIds(libraryId: string | null, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: books.id })
      .from(books)
      .where(and(isNotNull(books.deletedAt), libraryId ? eq(books.libraryId, libraryId) : undefined))
      .limit(limit);
    return rows.map((row) => row.id);
  }

  /** Removes books for good with their search rows, pages, terms and reading progress, in one batch. */
  async purgeBooks(ids: string[]): Promise<void> {
    await this.runAtomically([
      ...ids.map((id) => deleteSearchRow(this.db, 'book', id)),
      this.db.delete(bookPages).where(inArray(bookPages.bookId, ids)),
      this.db.delete(bookTerms).where(inArray(bookTerms.bookId, ids)),
      this.db.delete(readProgress).where(inArray(readProgress.bookId, ids)),
      this.db.delete(wantToRead).where(inArray(wantToRead.bookId, ids)),
      this.db.delete(books).where(inArray(books.id, ids)),
    ]);
  }

  /** Removes soft-deleted series (of one library, or all) for good. */
  async purgeTrashedSeries(libraryId: string | null): Promise<void> {
    const trashed = and(isNotNull(series.deletedAt), libraryId ? eq(series.libraryId, libraryId) : undefined);
    await this.db.batch([
      this.db
        .delete(seriesSharingLabels)
        .where(inArray(seriesSharingLabels.seriesId, this.db.select({ id: series.id }).from(series).where(trashed))),
      this.db.delete(series).where(trashed),
    ]);
  }

  // ---- scans -------------------------------------------------------------------------------------

  /** Books whose object disappeared: soft-deleted, progress kept (DECISIONS.md §Storage). */
  async softDeleteBooks(ids: string[], now: string): Promise<void> {
    for (const part of chunk(ids, 90)) {
      await this.db.update(books).set({ deletedAt: now, updatedAt: now }).where(inArray(books.id, part));
    }
  }

  /** Live book ids and keys of a library, a page at a time (keyset on id). */
  async liveBookPage(libraryId: string, afterId: string, limit: number) {
    return this.db
      .select({ id: books.id, path: books.path, seriesId: books.seriesId })
      .from(books)
      .where(and(eq(books.libraryId, libraryId), isNull(books.deletedAt), sql`${books.id} > ${afterId}`))
      .orderBy(books.id)
      .limit(limit);
  }

  /**
   * Recomputes series aggregates from their live books (API.md §2 Series: bookCount, localMaxChapter,
   * localMaxVolume, volumesOwned) and soft-deletes series left without live books (restoring those
   * that have some again). Returns the series whose deletion state changed. Aggregates, terms and the
   * search rows' inputs are one D1 batch per 40 series (a scan refreshes after every batch of books).
   */
  async refreshSeries(seriesIds: string[], now: string): Promise<{ deleted: string[]; restored: string[] }> {
    const deleted: string[] = [];
    const restored: string[] = [];
    for (const part of chunk(seriesIds, 40)) {
      const state = () =>
        this.db.select({ id: series.id, deletedAt: series.deletedAt }).from(series).where(inArray(series.id, part));
      const [before, , after, , , searchRows] = await this.db.batch([
        state(),
        this.updateAggregates(part, now),
        state(),
        // Series genres/tags are the union of their live books' terms.
        this.db.delete(seriesTerms).where(inArray(seriesTerms.seriesId, part)),
        this.db
          .insert(seriesTerms)
          .select(
            sql`select b.series_id, t.kind, t.value from book_terms t join books b on b.id = t.book_id
              where b.deleted_at is null and b.series_id in ${part}`,
          )
          .onConflictDoNothing(),
        this.seriesSearchInputs(part),
      ]);
      const wasDeleted = new Map(before.map((r) => [r.id, r.deletedAt !== null]));
      for (const row of after) {
        const isDeleted = row.deletedAt !== null;
        if (isDeleted && !wasDeleted.get(row.id)) deleted.push(row.id);
        if (!isDeleted && wasDeleted.get(row.id)) restored.push(row.id);
      }
      await this.run(
        searchRows.flatMap((r) =>
          r.deletedAt
            ? [deleteSearchRow(this.db, 'series', r.id)]
            : upsertSearchRow(this.db, {
                entityType: 'series',
                entityId: r.id,
                libraryId: r.libraryId,
                title: r.title,
                seriesTitle: null,
                summary: r.summary,
                authors: r.authors ? r.authors.split(',') : [],
                publishers: r.publishers ? r.publishers.split(',') : [],
              }),
        ),
      );
    }
    return { deleted, restored };
  }

  private updateAggregates(seriesIds: string[], now: string) {
    const live = (col: ReturnType<typeof sql>) =>
      sql`(select ${col} from ${books} b where b.series_id = ${series.id} and b.deleted_at is null)`;
    return this.db
      .update(series)
      .set({
        bookCount: live(sql`count(*)`),
        pageCount: live(sql`coalesce(sum(b.page_count), 0)`),
        fileSize: live(sql`coalesce(sum(b.file_size), 0)`),
        localMaxChapter: live(sql`max(b.chapter)`),
        localMaxVolume: live(sql`max(b.volume)`),
        volumesOwned: sql`case when ${live(sql`count(*)`)} = 0 then null else ${live(sql`count(*) filter (where b.volume is not null and b.chapter is null)`)} end`,
        publisher: sql`coalesce(${series.publisher}, ${live(sql`max(b.publisher)`)})`,
        year: sql`coalesce(${series.year}, ${live(sql`min(b.year)`)})`,
        language: sql`coalesce(${series.language}, ${live(sql`max(b.language)`)})`,
        // The series is rated as its strictest live book, unless an admin's rating is locked in.
        ageRating: sql`case when ${series.ageRatingLock} then ${series.ageRating} else ${live(sql`max(b.age_rating)`)} end`,
        deletedAt: sql`case when ${live(sql`count(*)`)} = 0 then coalesce(${series.deletedAt}, ${now}) else null end`,
        updatedAt: now,
      })
      .where(inArray(series.id, seriesIds));
  }

  /** A series' search row carries its title, summary, and its live books' authors and publishers. */
  private seriesSearchInputs(seriesIds: string[]) {
    // Qualified by hand: drizzle leaves columns of a one-table select unqualified, and `id` alone would
    // mean the subqueries' books.id.
    const seriesId = sql.raw('"series"."id"');
    return this.db
      .select({
        id: series.id,
        libraryId: series.libraryId,
        title: series.title,
        summary: series.summary,
        deletedAt: series.deletedAt,
        authors: sql<string | null>`(select group_concat(distinct json_extract(a.value, '$.name'))
          from books b, json_each(b.authors) a where b.series_id = ${seriesId} and b.deleted_at is null)`,
        publishers: sql<string | null>`(select group_concat(distinct b.publisher) from books b
          where b.series_id = ${seriesId} and b.deleted_at is null)`,
      })
      .from(series)
      .where(inArray(series.id, seriesIds));
  }

  async deletedSeriesIds(libraryId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: series.id })
      .from(series)
      .where(and(eq(series.libraryId, libraryId), isNotNull(series.deletedAt)));
    return rows.map((r) => r.id);
  }
}
