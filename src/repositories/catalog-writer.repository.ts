/**
 * The write side of the catalog, and the one writer of book rows: scans and re-analysis (series creation,
 * book rows with their pages and terms, soft deletion and restoration, series aggregates), the per-book work
 * of the queue consumers (deferred details, thumbnails, what could not be done), and the purge of the trash.
 * Every book write and its search-index rows go into one D1 batch, so the catalog never shows half a book.
 */
import { and, eq, gte, inArray, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import {
  bookAuthors,
  bookPages,
  bookStoryArcs,
  books,
  bookTerms,
  collectionSeries,
  readListBooks,
  readingSessions,
  readProgress,
  series,
  seriesSharingLabels,
  seriesTerms,
  wantToRead,
} from '../db/schema';
import type { BookFileMetadata } from '../db/tables/books';
import type { TermKind } from '../db/tables/metadata-values';
import { newId } from '../lib/ids';
import { firstBookOf } from './catalog-sql';
import {
  BOOK_LOCKED_COLUMNS,
  type BookLockedColumn,
  bookTermLocked,
  derivedSeriesAuthors,
  reindexBookAuthors,
  reindexSeriesAuthors,
  seriesTermLocked,
  unlessLocked,
} from './metadata-sql';
import { bookSearchRowStatements, deleteSearchRow, seriesSearchRowStatements } from './search-index';
import { ReleaseLedgerRepository } from './release-ledger.repository';
import { forgetSeriesProgress, recountSeriesProgress, seriesIdList } from './series-read-progress';
import { forgetTrackingStatements } from './series-tracking.repository';

export type { BookFileMetadata, TermKind };
export type BookRow = typeof books.$inferSelect;
export type NewBookRow = typeof books.$inferInsert;
export type SeriesRecord = typeof series.$inferSelect;
/** A book's terms of every kind (genres, tags, characters, teams, locations). */
export type BookTerms = Record<TermKind, string[]>;
/** Columns of a book or series an edit may set: metadata values and their locks. */
export type BookChanges = Partial<Omit<NewBookRow, 'id' | 'libraryId' | 'seriesId'>>;
export type SeriesChanges = Partial<Omit<typeof series.$inferInsert, 'id' | 'libraryId'>>;
export type PageRow = typeof bookPages.$inferInsert;
/** A story arc a book's file places it in (ComicInfo StoryArc/StoryArcNumber). */
export interface StoryArcPlacement {
  name: string;
  number: number | null;
}

/** One statement of a D1 batch: built here, run by `run` or `runAtomically`. */
export type Statement = BatchItem<'sqlite'>;

/** One book's edit as CatalogWriter.editBooksOfSeries writes it. */
export interface BookEditWrite {
  bookId: string;
  changes: BookChanges;
  terms: Partial<BookTerms>;
  /** Unlocked fields and term kinds that take the file's values back. */
  restore: { fields: BookLockedColumn[]; kinds: TermKind[] };
}

/** One series' edit as CatalogWriter.editSeries writes it. */
export interface SeriesEditWrite {
  seriesId: string;
  changes: SeriesChanges;
  terms: Partial<Record<'genre' | 'tag', string[]>>;
  rederive: boolean;
}

/** Statements per batch of series edits (a rederived series takes about a dozen). */
const SERIES_EDIT_BATCH = 200;

/**
 * Pages travel as one JSON parameter per insert (a row per page would bind 8 parameters, so a 50-page
 * book took 5 statements); the cap keeps each parameter far below D1's size limits.
 */
const PAGES_PER_INSERT = 250;
/** D1 binds at most 100 parameters per statement. */
const MAX_PARAMS = 99;

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A value computed over the series' live books (`b`), for an UPDATE of `series`. */
const ofLiveBooks = (col: SQL) =>
  sql`(select ${col} from ${books} b where b.series_id = ${series.id} and b.deleted_at is null)`;

/**
 * A series' age rating while unlocked: its strictest live book's (docs/DECISIONS.md §Enforcement), so
 * an unlocked series is never rated below what its books say.
 */
const booksAgeRating = ofLiveBooks(sql`max(b.age_rating)`);

/** Page sizes per UPDATE: one JSON parameter of ~40 bytes a page, far below D1's value limits. */
const SIZES_PER_UPDATE = 1000;

/** What the one read of a book found (scanning/book-details.ts), as it is recorded. */
export interface BookDetailsRecord {
  bookId: string;
  changes: Pick<NewBookRow, 'updatedAt'> &
    Partial<Pick<NewBookRow, 'fileHash' | 'readerHash' | 'analyzed' | 'analysisError'>>;
  /**
   * [page number, width, height, media type] of every page whose header could be read; the type is the one
   * the bytes are in (null: keep the one the name gave), so a page is served and listed as what it is.
   */
  pageSizes: Array<[number, number, number, string | null]>;
}

/** What a listing compares with an object to decide whether the file changed. */
export type StoredObjectState = Pick<BookRow, 'etag' | 'fileSize' | 'fileModifiedAt' | 'deletedAt'>;

export interface SeriesSeed {
  groupKey: string;
  path: string;
  title: string;
  titleSort: string;
}

/**
 * The SET of a scan's update of a book: the metadata columns through their locks (a locked column keeps its
 * value), everything else as given.
 */
function lockGuarded(row: NewBookRow): Record<string, unknown> {
  const set: Record<string, unknown> = { ...row };
  for (const [field, lock] of Object.entries(BOOK_LOCKED_COLUMNS) as Array<[BookLockedColumn, SQL | SQLiteColumn]>) {
    if (field in row) set[field] = unlessLocked(lock, books[field], row[field]);
  }
  return set;
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

  /**
   * Statements that write one analysed book (insert, or replace what the file says) with its pages, terms,
   * credits, story-arc placements and search row. A replaced book keeps every field whose lock is set
   * (metadata-sql.ts): the locks are tested in the statements themselves.
   */
  bookStatements(
    row: NewBookRow & { id: string },
    pages: PageRow[],
    terms: BookTerms,
    isNew: boolean,
    storyArcs: readonly StoryArcPlacement[] = [],
  ): Statement[] {
    const statements: Statement[] = [];
    // A new book has no pages, terms or search row yet: deleting them first would be wasted statements.
    if (isNew) statements.push(this.db.insert(books).values(row));
    else {
      statements.push(this.db.update(books).set(lockGuarded(row)).where(eq(books.id, row.id)));
      statements.push(this.db.delete(bookPages).where(eq(bookPages.bookId, row.id)));
      statements.push(
        this.db
          .delete(bookTerms)
          .where(and(eq(bookTerms.bookId, row.id), sql`NOT ${bookTermLocked(sql`${bookTerms.kind}`, row.id)}`)),
      );
      statements.push(this.db.delete(bookStoryArcs).where(eq(bookStoryArcs.bookId, row.id)));
    }
    for (const part of chunk(pages, PAGES_PER_INSERT)) statements.push(this.insertPages(row.id, part));
    statements.push(this.insertTerms(row.id, terms, isNew ? undefined : row.id));
    const arcs = storyArcs.map((arc) => ({ bookId: row.id, name: arc.name, number: arc.number }));
    for (const part of chunk(arcs, Math.floor(MAX_PARAMS / 3)))
      statements.push(this.db.insert(bookStoryArcs).values(part).onConflictDoNothing());
    statements.push(...reindexBookAuthors(this.db, row.id, isNew));
    statements.push(...bookSearchRowStatements(this.db, row.id, isNew));
    return statements;
  }

  /**
   * The terms of a book as one INSERT … SELECT over a JSON parameter (duplicates within a kind dropped);
   * `guardedBy`: only kinds whose lock is off on that book (a scan's write).
   */
  private insertTerms(bookId: string, terms: Partial<BookTerms>, guardedBy?: string): Statement {
    const rows = JSON.stringify(
      Object.entries(terms).flatMap(([kind, values]) => [...new Set(values)].map((value) => [kind, value])),
    );
    // An INSERT … SELECT with ON CONFLICT needs a WHERE (SQLite's parser would read ON as a join's).
    const guard = guardedBy ? sql`WHERE NOT ${bookTermLocked(sql`t.value ->> 0`, guardedBy)}` : sql`WHERE true`;
    return this.db
      .insert(bookTerms)
      .select(sql`SELECT ${bookId}, t.value ->> 0, t.value ->> 1 FROM json_each(${rows}) t ${guard}`)
      .onConflictDoNothing();
  }

  /**
   * Users' edits of books of one series (values and locks, as the service decided them; terms of the kinds
   * given replaced), with their credits and search rows, then the series' credits (seriesCreditsStatements),
   * in one batch: a bulk edit of many books refreshes their series once. The series' other derived values
   * follow with refreshSeries.
   */
  async editBooksOfSeries(seriesId: string, edits: readonly BookEditWrite[]): Promise<void> {
    if (edits.length === 0) return;
    await this.runAtomically([
      ...edits.flatMap((edit) => this.bookEditStatements(edit)),
      ...this.seriesCreditsStatements(seriesId),
    ]);
  }

  /**
   * `editSeries` and `editBooksOfSeries` as statements for a caller's own batch (a migration's metadata, with
   * what it remembers: services/peer-import/peer-catalog.service.ts).
   */
  editStatements(
    seriesEdits: readonly SeriesEditWrite[],
    bookEdits: ReadonlyArray<{ seriesId: string; edits: readonly BookEditWrite[] }>,
    now: string,
  ): Statement[] {
    return [
      ...seriesEdits.flatMap((edit) => this.seriesEditStatements(edit, now)),
      ...bookEdits.flatMap(({ seriesId, edits }) =>
        edits.length === 0
          ? []
          : [...edits.flatMap((edit) => this.bookEditStatements(edit)), ...this.seriesCreditsStatements(seriesId)],
      ),
    ];
  }

  private bookEditStatements({ bookId, changes, terms, restore }: BookEditWrite): Statement[] {
    const kinds = Object.keys(terms) as TermKind[];
    return [
      ...(Object.keys(changes).length > 0 ? [this.db.update(books).set(changes).where(eq(books.id, bookId))] : []),
      ...this.restoreFileValues(bookId, restore.fields, restore.kinds),
      ...(kinds.length > 0
        ? [
            this.db.delete(bookTerms).where(and(eq(bookTerms.bookId, bookId), inArray(bookTerms.kind, kinds))),
            this.insertTerms(bookId, terms),
          ]
        : []),
      ...reindexBookAuthors(this.db, bookId),
      ...bookSearchRowStatements(this.db, bookId),
    ];
  }

  /**
   * Statements that put back what the book's file states (books.file_metadata, kept by every analysis)
   * into the given columns and term kinds: what unlocking a field does. A book analysed before the file's
   * values were kept is left as it is; its next analysis writes them.
   */
  private restoreFileValues(bookId: string, fields: BookLockedColumn[], kinds: TermKind[]): Statement[] {
    const statements: Statement[] = [];
    if (fields.length > 0) {
      const set = Object.fromEntries(
        fields.map((field) => [
          field,
          sql`CASE WHEN ${books.fileMetadata} IS NULL THEN ${books[field]} ELSE json_extract(${books.fileMetadata}, ${`$.${field}`}) END`,
        ]),
      );
      statements.push(this.db.update(books).set(set).where(eq(books.id, bookId)));
    }
    if (kinds.length > 0) {
      const kept = sql`EXISTS (SELECT 1 FROM books WHERE id = ${bookId} AND file_metadata IS NOT NULL)`;
      statements.push(
        this.db.delete(bookTerms).where(and(eq(bookTerms.bookId, bookId), inArray(bookTerms.kind, kinds), kept)),
        this.db
          .insert(bookTerms)
          .select(
            sql`SELECT b.id, k.value, t.value FROM books b, json_each(${JSON.stringify(kinds)}) k,
              json_each(b.file_metadata, '$.terms.' || k.value) t WHERE b.id = ${bookId} AND b.file_metadata IS NOT NULL`,
          )
          .onConflictDoNothing(),
      );
    }
    return statements;
  }

  /**
   * Users' edits of series (values and locks; genres/tags replaced when given). With `rederive` (a lock was
   * turned off), the derived values left unlocked are computed again in the same batch, as a scan would.
   * Each series' statements stay in one batch (all of them, or none); many series go in a few batches.
   */
  async editSeries(edits: readonly SeriesEditWrite[], now: string): Promise<void> {
    let batch: Statement[] = [];
    for (const edit of edits) {
      const statements = this.seriesEditStatements(edit, now);
      if (batch.length + statements.length > SERIES_EDIT_BATCH) {
        await this.runAtomically(batch);
        batch = [];
      }
      batch.push(...statements);
    }
    await this.runAtomically(batch);
  }

  private seriesEditStatements({ seriesId, changes, terms, rederive }: SeriesEditWrite, now: string): Statement[] {
    const rows = JSON.stringify(
      Object.entries(terms).flatMap(([kind, values]) => [...new Set(values)].map((value) => [kind, value])),
    );
    const kinds = Object.keys(terms) as TermKind[];
    return [
      this.db.update(series).set(changes).where(eq(series.id, seriesId)),
      ...(kinds.length > 0
        ? [
            this.db
              .delete(seriesTerms)
              .where(and(eq(seriesTerms.seriesId, seriesId), inArray(seriesTerms.kind, kinds))),
            this.db
              .insert(seriesTerms)
              .select(sql`SELECT ${seriesId}, t.value ->> 0, t.value ->> 1 FROM json_each(${rows}) t WHERE true`)
              .onConflictDoNothing(),
          ]
        : []),
      ...(rederive ? this.derivationStatements([seriesId], now) : seriesSearchRowStatements(this.db, seriesId)),
    ];
  }

  /**
   * An edit of a series' age rating and its lock (Komga's series metadata PATCH), in one statement. A
   * series left locked keeps the rating given (or its current one); a series left unlocked is rated from
   * its live books at once, whatever value was sent: unlocking or clearing a rating never leaves a series
   * rated below its books (what an `EXCLUDE` restriction hides; docs/DECISIONS.md §Enforcement).
   */
  async editSeriesAgeRating(seriesId: string, edit: { ageRating?: number | null; lock?: boolean }): Promise<void> {
    await this.runAtomically(this.seriesAgeRatingStatements(seriesId, edit));
  }

  /** `editSeriesAgeRating` for a caller's own batch: its statement (none when the edit changes nothing). */
  seriesAgeRatingStatements(seriesId: string, edit: { ageRating?: number | null; lock?: boolean }): Statement[] {
    if (edit.ageRating === undefined && edit.lock === undefined) return [];
    const locked = edit.lock === undefined ? sql`${series.ageRatingLock}` : sql`${edit.lock ? 1 : 0}`;
    const kept = edit.ageRating === undefined ? sql`${series.ageRating}` : sql`${edit.ageRating}`;
    return [
      this.db
        .update(series)
        .set({
          ...(edit.lock === undefined ? {} : { ageRatingLock: edit.lock }),
          ageRating: sql`case when ${locked} then ${kept} else ${booksAgeRating} end`,
        })
        .where(eq(series.id, seriesId)),
    ];
  }

  /**
   * After a book edit: the series' credits (unless locked) and its search row follow the books. The other
   * derived values wait for the next scan of the series, so that a value a Komga client set on the series
   * (unlocked, as Komga clients do) is not replaced by the books' the moment it edits them.
   */
  private seriesCreditsStatements(seriesId: string): Statement[] {
    const ids = sql`(SELECT ${seriesId})`;
    return [
      this.db
        .update(series)
        .set({
          authors: sql`CASE WHEN ${series.authorsLock} THEN ${series.authors} ELSE ${derivedSeriesAuthors(series.id)} END`,
        })
        .where(eq(series.id, seriesId)),
      ...reindexSeriesAuthors(this.db, ids),
      ...seriesSearchRowStatements(this.db, seriesId),
    ];
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
      pageSizes.map(([number, width, height, mediaType]) => [bookId, number, width, height, mediaType]),
    );
    const statements: Statement[] = [];
    for (const part of chunk(sizes, SIZES_PER_UPDATE)) {
      statements.push(
        this.db
          .update(bookPages)
          .set({
            width: sql`s.value ->> 2`,
            height: sql`s.value ->> 3`,
            mediaType: sql`coalesce(s.value ->> 4, ${bookPages.mediaType})`,
          })
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

  /** An EPUB's Readium index, built again for a book analysed before Longbox stored one. */
  readiumIndexRecorded(bookId: string, index: unknown) {
    return this.db.update(books).set({ readiumIndex: index }).where(eq(books.id, bookId));
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

  /** Removes books for good with their search rows, pages, terms, reading progress and sittings, in one batch. */
  async purgeBooks(ids: string[]): Promise<void> {
    await this.runAtomically([
      ...ids.map((id) => deleteSearchRow(this.db, 'book', id)),
      this.db.delete(bookPages).where(inArray(bookPages.bookId, ids)),
      this.db.delete(bookTerms).where(inArray(bookTerms.bookId, ids)),
      this.db.delete(bookAuthors).where(inArray(bookAuthors.bookId, ids)),
      this.db.delete(readProgress).where(inArray(readProgress.bookId, ids)),
      this.db.delete(readingSessions).where(inArray(readingSessions.bookId, ids)),
      this.db.delete(wantToRead).where(inArray(wantToRead.bookId, ids)),
      this.db.delete(bookStoryArcs).where(inArray(bookStoryArcs.bookId, ids)),
      this.db.delete(readListBooks).where(inArray(readListBooks.bookId, ids)),
      this.db.delete(books).where(inArray(books.id, ids)),
    ]);
  }

  /** Removes soft-deleted series (of one library, or all) for good, with their places in lists and queues. */
  async purgeTrashedSeries(libraryId: string | null): Promise<void> {
    const trashed = this.db
      .select({ id: series.id })
      .from(series)
      .where(and(isNotNull(series.deletedAt), libraryId ? eq(series.libraryId, libraryId) : undefined));
    await this.runAtomically([
      forgetSeriesProgress(this.db, trashed),
      ...forgetTrackingStatements(this.db, trashed),
      this.db.delete(collectionSeries).where(inArray(collectionSeries.seriesId, trashed)),
      this.db.delete(wantToRead).where(inArray(wantToRead.seriesId, trashed)),
      this.db.delete(seriesSharingLabels).where(inArray(seriesSharingLabels.seriesId, trashed)),
      this.db
        .delete(series)
        .where(and(isNotNull(series.deletedAt), libraryId ? eq(series.libraryId, libraryId) : undefined)),
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
   * localMaxVolume, volumesOwned), the metadata a series derives from its books while unlocked (summary,
   * publisher, imprint, year, language, total book count, credits, terms; DECISIONS.md §Organise and share),
   * and soft-deletes series left without live books (restoring those that have some again). Returns the
   * series whose deletion state changed. One D1 batch per 40 series (a scan refreshes after every batch of
   * books).
   */
  async refreshSeries(seriesIds: string[], now: string): Promise<{ deleted: string[]; restored: string[] }> {
    const changes = { deleted: [] as string[], restored: [] as string[] };
    for (const part of chunk(seriesIds, 40)) {
      const results = await this.db.batch(this.refreshStatements(part, now) as [Statement, ...Statement[]]);
      this.readRefresh(results, changes);
    }
    return changes;
  }

  /**
   * Books put in the trash (`deletedAt`) or taken out of it (null) as files that disappeared or came back are,
   * with their series refreshed as `refreshSeries` does — one batch, for files an administrator deleted
   * (services/file-deletion.service.ts). Returns the series whose deletion state changed.
   */
  async setBooksDeleted(
    bookIds: string[],
    seriesIds: string[],
    deletedAt: string | null,
    now: string,
  ): Promise<{ deleted: string[]; restored: string[] }> {
    const marks = chunk(bookIds, 90).map((part) =>
      this.db.update(books).set({ deletedAt, updatedAt: now }).where(inArray(books.id, part)),
    );
    const refreshes = chunk(seriesIds, 40).map((part) => this.refreshStatements(part, now));
    const results = await this.db.batch([...marks, ...refreshes.flat()] as [Statement, ...Statement[]]);
    const changes = { deleted: [] as string[], restored: [] as string[] };
    let at = marks.length;
    for (const statements of refreshes) {
      this.readRefresh(results.slice(at, at + statements.length), changes);
      at += statements.length;
    }
    return changes;
  }

  /** A refresh of at most 40 series: their deletion state, the derivation statements, their state again. */
  private refreshStatements(seriesIds: string[], now: string): Statement[] {
    const state = () =>
      this.db.select({ id: series.id, deletedAt: series.deletedAt }).from(series).where(inArray(series.id, seriesIds));
    return [state(), ...this.derivationStatements(seriesIds, now), state()];
  }

  /** Which series a refresh's results show deleted or restored by it (added to `changes`). */
  private readRefresh(results: readonly unknown[], changes: { deleted: string[]; restored: string[] }): void {
    const before = results[0] as Array<{ id: string; deletedAt: string | null }>;
    const after = results[results.length - 1] as Array<{ id: string; deletedAt: string | null }>;
    const wasDeleted = new Map(before.map((r) => [r.id, r.deletedAt !== null]));
    for (const row of after) {
      const isDeleted = row.deletedAt !== null;
      if (isDeleted && !wasDeleted.get(row.id)) changes.deleted.push(row.id);
      if (!isDeleted && wasDeleted.get(row.id)) changes.restored.push(row.id);
    }
  }

  /**
   * The statements that bring series up to date with their live books: aggregates and unlocked derived
   * metadata, terms (the union of the books' terms, for kinds not locked), credits, search rows.
   */
  private derivationStatements(seriesIds: string[], now: string): Statement[] {
    const ids = sql`(SELECT value FROM json_each(${JSON.stringify(seriesIds)}))`;
    return [
      this.updateAggregates(seriesIds, now),
      this.db
        .delete(seriesTerms)
        .where(
          and(
            inArray(seriesTerms.seriesId, seriesIds),
            sql`NOT ${seriesTermLocked(sql`${seriesTerms.kind}`, seriesTerms.seriesId)}`,
          ),
        ),
      // Values that differ only in case are one term (the first book's spelling wins nothing: any one).
      this.db
        .insert(seriesTerms)
        .select(
          sql`SELECT b.series_id, t.kind, t.value FROM book_terms t JOIN books b ON b.id = t.book_id
            WHERE b.deleted_at IS NULL AND b.series_id IN ${ids} AND NOT ${seriesTermLocked(sql`t.kind`, sql`b.series_id`)}
            GROUP BY b.series_id, t.kind, t.value COLLATE NOCASE`,
        )
        .onConflictDoNothing(),
      ...reindexSeriesAuthors(this.db, ids),
      ...seriesIds.flatMap((id) => seriesSearchRowStatements(this.db, id)),
      // Books gone, back or moved change what each reader has read of these series (and book_count, above).
      ...recountSeriesProgress(this.db, seriesIdList(seriesIds), null),
      // A release the library now holds (a chapter scanned in) leaves the inbox as acquired.
      ReleaseLedgerRepository.acquireHeldStatement(this.db, seriesIdList(seriesIds)),
    ];
  }

  private updateAggregates(seriesIds: string[], now: string) {
    const live = ofLiveBooks;
    /** The value of the first live book in reading order that has one (catalog-sql.ts firstBookOf). */
    const firstBooks = (column: 'summary' | 'publisher' | 'imprint' | 'language') =>
      sql`(select ${sql.raw(`fb.${column}`)} from ${books} fb where fb.id = ${firstBookOf(
        series.id,
        (b) => sql`coalesce(${b[column]}, '') <> ''`,
      )})`;
    /** The stored value while its lock is on, else the one derived from the books. */
    const derived = (lock: SQLiteColumn, column: SQLiteColumn, value: SQL) =>
      sql`case when ${lock} then ${column} else ${value} end`;
    return this.db
      .update(series)
      .set({
        bookCount: live(sql`count(*)`),
        pageCount: live(sql`coalesce(sum(b.page_count), 0)`),
        fileSize: live(sql`coalesce(sum(b.file_size), 0)`),
        localMaxChapter: live(sql`max(b.chapter)`),
        localMaxVolume: live(sql`max(b.volume)`),
        volumesOwned: sql`case when ${live(sql`count(*)`)} = 0 then null else ${live(sql`count(*) filter (where b.volume is not null and b.chapter is null)`)} end`,
        summary: derived(series.summaryLock, series.summary, firstBooks('summary')),
        publisher: derived(series.publisherLock, series.publisher, firstBooks('publisher')),
        imprint: derived(series.imprintLock, series.imprint, firstBooks('imprint')),
        language: derived(series.languageLock, series.language, firstBooks('language')),
        year: derived(series.yearLock, series.year, live(sql`min(b.year)`)),
        totalBookCount: derived(series.totalBookCountLock, series.totalBookCount, live(sql`max(b.count)`)),
        authors: derived(series.authorsLock, series.authors, derivedSeriesAuthors(series.id)),
        // The series is rated as its strictest live book, unless an admin's rating is locked in.
        ageRating: derived(series.ageRatingLock, series.ageRating, booksAgeRating),
        deletedAt: sql`case when ${live(sql`count(*)`)} = 0 then coalesce(${series.deletedAt}, ${now}) else null end`,
        updatedAt: now,
      })
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
