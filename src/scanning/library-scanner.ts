/**
 * One library scan, advanced in bounded slices (each Durable Object alarm runs `step` once), so no
 * request or CPU limit is hit on a 100,000-book library and a restart resumes from stored state:
 *
 *   listing    R2 list pages of the prefix; new or changed objects (etag/size/upload time) are queued
 *              (deep: every object); every key is remembered as seen.
 *   analyzing  queued files analysed in small batches (range reads), written with their series.
 *   finalizing books whose object was not seen are soft-deleted (progress kept); series refreshed.
 */
import type { Database } from '../db/client';
import type { DomainEvent, EventPublisher } from '../events/events';
import { mapLimited } from '../lib/concurrency';
import { removeRenditionsOfVersions } from '../storage/cached-images';
import { CatalogWriter } from '../repositories/catalog-writer.repository';
import { LibrariesRepository } from '../repositories/libraries.repository';
import { formatOfKey, libraryPrefix } from './book-keys';
import { importBook, type ListedObject } from './book-importer';
import type { ScanState, ScanStore } from './scan-store';
import { countSkipped, skipReason } from './skipped-files';
import { sortTitle } from './series-grouping';
import { importStoryArcReadLists } from '../lists/story-arc-import';

/**
 * Files analysed per batch, and how many of them at once: a whole batch in flight hides R2 latency;
 * each analysis holds little (the directory window, ≤ 256 KiB of remembered reads).
 */
export const ANALYSIS_BATCH = 32;
const ANALYSIS_CONCURRENCY = 32;
const LIST_PAGE = 1000;
const FINALIZE_PAGE = 500;

export interface ScanDeps {
  db: Database;
  bucket: R2Bucket;
  /** The CACHE bucket: renditions of a replaced file's old version are removed from it. */
  cache: R2Bucket;
  store: ScanStore;
  events: EventPublisher;
  /** Task row progress (and task_progress/scan_progress events). */
  report: (state: ScanState) => Promise<void>;
  /** Sends written books to the book-work queue (page dimensions, hashes, thumbnail; issue 11). */
  queueBookWork: (state: ScanState, books: Array<{ bookId: string; etag: string }>) => Promise<void>;
  /** Opens the task rows that report the queued work of a completed scan. */
  onCompleted: (state: ScanState) => Promise<void>;
}

export class LibraryScanner {
  private readonly writer: CatalogWriter;
  private readonly libraries: LibrariesRepository;

  constructor(private readonly deps: ScanDeps) {
    this.writer = new CatalogWriter(deps.db);
    this.libraries = new LibrariesRepository(deps.db);
  }

  /** Runs until the phase work or the time budget is used up. Returns true when more work remains. */
  async step(budgetMs: number): Promise<boolean> {
    const { store } = this.deps;
    const deadline = Date.now() + budgetMs;
    let state = store.state();
    if (state?.status !== 'running') return false;
    const library = await this.libraries.forSystem(state.libraryId);
    if (!library) {
      // Deleting a library cancels its scan; its series went with it, so there is nothing to refresh.
      this.deps.store.forgetTouchedSeries();
      return this.finish(state, 'cancelled', 'The library was deleted during the scan');
    }

    // At least one step per slice, however small the budget: progress is guaranteed.
    do {
      if (state.cancelRequested) return this.finish(state, 'cancelled', 'Scan cancelled');
      if (state.phase === 'listing') state = await this.listPage(state, library);
      else if (state.phase === 'analyzing') state = await this.analyzeBatch(state, library);
      else if (state.phase === 'finalizing') state = await this.finalizePage(state);
      else return this.finish(state, 'completed', null);
      store.save(state);
    } while (Date.now() < deadline);
    await this.deps.report(state);
    return true;
  }

  private async listPage(state: ScanState, library: { id: string; path: string }): Promise<ScanState> {
    const listing = await this.deps.bucket.list({
      prefix: libraryPrefix(library.path),
      cursor: state.cursor ?? undefined,
      limit: LIST_PAGE,
    });
    const skipped = listing.objects.map((o) => skipReason(o.key, o.size));
    const objects: ListedObject[] = listing.objects
      .filter((_, i) => skipped[i] === null)
      .map((o) => ({ key: o.key, size: o.size, etag: o.etag, uploaded: o.uploaded.toISOString() }));
    this.deps.store.markSeen(objects.map((o) => o.key));
    // R2 lists keys in byte order, as SQLite compares them: the page's first and last key bound it.
    const existing =
      objects.length === 0
        ? new Map()
        : await this.writer.objectStatesInRange(
            library.id,
            objects[0]?.key as string,
            objects[objects.length - 1]?.key as string,
          );
    const queue = objects.filter((o) => {
      const book = existing.get(o.key);
      if (!book || state.mode === 'deep' || book.deletedAt) return true;
      return book.etag !== o.etag || book.fileSize !== o.size || book.fileModifiedAt !== o.uploaded;
    });
    this.deps.store.enqueue(queue);
    const next = {
      ...state,
      filesTotal: state.filesTotal + objects.length,
      skipped: countSkipped(
        state.skipped ?? [],
        skipped.filter((s) => s !== null && s !== 'ignore'),
      ),
    };
    next.filesProcessed += objects.length - queue.length;
    next.booksFound += objects.length;
    if (listing.truncated) return { ...next, cursor: listing.cursor };
    return { ...next, cursor: null, phase: 'analyzing' };
  }

  private async analyzeBatch(state: ScanState, library: { id: string; path: string }): Promise<ScanState> {
    const batch = this.deps.store.nextBatch(ANALYSIS_BATCH);
    if (batch.length === 0) return { ...state, phase: 'finalizing', cursor: '' };
    const now = new Date().toISOString();
    const existing = await this.writer.booksByPath(
      library.id,
      batch.map((o) => o.key),
    );
    // A timer turn between books lets requests and queue sends in (src/lib/event-loop.ts).
    const imported = await mapLimited(
      batch,
      ANALYSIS_CONCURRENCY,
      (object) =>
        importBook(this.deps.bucket, library, object, formatOfKey(object.key) ?? 'cbz', existing.get(object.key), now),
      { yieldBetween: true },
    );
    const seeds = new Map(imported.map((b) => [b.group.groupKey, { ...b.group, titleSort: sortTitle(b.group.title) }]));
    const seriesIds = await this.writer.ensureSeries(library.id, [...seeds.values()], now);
    const statements = imported.flatMap((book) => {
      const seriesId = seriesIds.get(book.group.groupKey)?.id as string;
      return this.writer.bookStatements({ ...book.row, seriesId }, book.pages, book.terms, book.isNew, book.storyArcs);
    });
    await this.writer.run(statements);
    // Consumers start on these books while the scan goes on; books that failed analysis need nothing more.
    const readyBooks = imported.filter((b) => !b.error).map((b) => ({ bookId: b.row.id, etag: b.row.etag }));
    await this.deps.queueBookWork(state, readyBooks);
    // Renditions are keyed by the etag they were made from: those of a replaced file can never be asked for again.
    const replaced = batch.flatMap((object) => {
      const before = existing.get(object.key);
      return before?.etag && before.etag !== object.etag ? [{ bookId: before.id, etag: before.etag }] : [];
    });
    if (replaced.length > 0) await removeRenditionsOfVersions(this.deps.cache, replaced);

    const events: DomainEvent[] = [];
    for (const [, s] of seriesIds)
      if (s.created) events.push({ type: 'series_created', series_id: s.id, library_id: library.id });
    for (const book of imported) {
      const seriesId = seriesIds.get(book.group.groupKey)?.id as string;
      events.push({
        type: book.isNew ? 'book_created' : 'book_updated',
        book_id: book.row.id,
        series_id: seriesId,
        library_id: library.id,
      });
    }
    this.deps.events.publish(...events);
    const touched = new Set([...seriesIds.values()].map((s) => s.id));
    for (const book of existing.values()) touched.add(book.seriesId); // a book may have moved series
    this.deps.store.touchSeries(touched);
    this.deps.store.dequeue(batch.map((o) => o.key));
    await this.refreshTouchedSeries(library.id);
    return {
      ...state,
      filesProcessed: state.filesProcessed + batch.length,
      seriesFound: state.seriesFound + [...seriesIds.values()].filter((s) => s.created).length,
      booksAdded: state.booksAdded + imported.filter((b) => b.isNew).length,
      booksUpdated: state.booksUpdated + imported.filter((b) => !b.isNew).length,
      errors: state.errors + imported.filter((b) => b.error).length,
      booksQueued: (state.booksQueued ?? 0) + readyBooks.length,
    };
  }

  /** Soft-deletes books whose objects were not listed, a page of live books at a time. */
  private async finalizePage(state: ScanState): Promise<ScanState> {
    const page = await this.writer.liveBookPage(state.libraryId, state.cursor ?? '', FINALIZE_PAGE);
    if (page.length === 0) return { ...state, phase: 'done', cursor: null };
    const seen = this.deps.store.seenAmong(page.map((b) => b.path));
    const gone = page.filter((b) => !seen.has(b.path));
    const now = new Date().toISOString();
    if (gone.length > 0) {
      await this.writer.softDeleteBooks(
        gone.map((b) => b.id),
        now,
      );
      this.deps.store.touchSeries(gone.map((b) => b.seriesId));
      this.deps.events.publish(
        ...gone.map((b) => ({
          type: 'book_deleted' as const,
          book_id: b.id,
          series_id: b.seriesId,
          library_id: state.libraryId,
        })),
      );
    }
    return { ...state, cursor: page[page.length - 1]?.id ?? null, booksDeleted: state.booksDeleted + gone.length };
  }

  private async refreshTouchedSeries(libraryId: string): Promise<void> {
    const now = new Date().toISOString();
    for (
      let ids = this.deps.store.takeTouchedSeries(200);
      ids.length > 0;
      ids = this.deps.store.takeTouchedSeries(200)
    ) {
      const { deleted } = await this.writer.refreshSeries(ids, now);
      const deletedSet = new Set(deleted);
      this.deps.events.publish(
        ...deleted.map((id) => ({ type: 'series_deleted' as const, series_id: id, library_id: libraryId })),
        ...ids
          .filter((id) => !deletedSet.has(id))
          .map((id) => ({ type: 'series_updated' as const, series_id: id, library_id: libraryId })),
      );
    }
  }

  /** Story-arc read lists are a convenience: failing to make them must not fail the scan that read the books. */
  private async importStoryArcs(libraryId: string): Promise<void> {
    try {
      await importStoryArcReadLists(this.deps.db, libraryId, this.deps.events);
    } catch (error) {
      console.error(
        JSON.stringify({ level: 'error', msg: 'story arc read lists failed', libraryId, error: String(error) }),
      );
    }
  }

  private async finish(state: ScanState, status: ScanState['status'], message: string | null): Promise<false> {
    const completedAt = new Date().toISOString();
    await this.refreshTouchedSeries(state.libraryId);
    if (status === 'completed') {
      await this.libraries.markScanned(state.libraryId, completedAt);
      this.deps.events.publish({ type: 'library_updated', library_id: state.libraryId });
      const library = await this.libraries.forSystem(state.libraryId);
      if (library?.importStoryArcReadLists) await this.importStoryArcs(library.id);
    }
    const done: ScanState = { ...state, status, phase: 'done', completedAt, message, cursor: null };
    this.deps.store.save(done);
    await this.deps.report(done);
    if (status === 'completed') await this.deps.onCompleted(done);
    return false;
  }
}
