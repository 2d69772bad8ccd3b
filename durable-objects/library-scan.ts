/**
 * LibraryScan: one Durable Object per library owns that library's scan (issue 3 point 4). Only one scan
 * runs at a time; the work advances in alarm-driven slices whose state lives in this object's SQLite
 * storage, so an eviction or restart mid-scan resumes where it stopped, and cancel is honoured at the
 * next slice.
 */
import { DurableObject } from 'cloudflare:workers';
import { readConfig } from '../src/config/config';
import { defaultDatabaseFactory } from '../src/middleware/request-context';
import { createEventPublisher } from '../src/events/publisher';
import { queueBookWork } from '../src/ingest/book-work';
import { openIngestTasks } from '../src/ingest/ingest-tasks';
import { TasksRepository } from '../src/repositories/tasks.repository';
import { LibraryScanner } from '../src/scanning/library-scanner';
import {
  type LibraryScanRpc,
  NO_SCAN_COUNTS,
  type ScanMode,
  type ScanState,
  ScanStore,
  scanCountsOf,
} from '../src/scanning/scan-store';
import { skippedFilesOf } from '../src/scanning/skipped-files';

const MAX_CONSECUTIVE_FAILURES = 5;

export class LibraryScan extends DurableObject<Env> implements LibraryScanRpc {
  private readonly store: ScanStore;
  private failures = 0;
  /**
   * The last batch's book-work messages, still being sent. The scan analyses its next batch while they
   * travel (a send crosses to the consumers' process locally, 20–40 ms). At most one send is in flight,
   * and every slice waits for it before it ends. (Sends once waited ~1 s for every consumer batch: the
   * consumers' runtime did not poll its sockets while a batch ran, see src/lib/event-loop.ts.)
   */
  private sending: Promise<void> = Promise.resolve();
  private sendFailure: unknown = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new ScanStore(ctx.storage.sql);
  }

  /** Starts a scan unless one is running; returns the running scan's state either way. */
  async start(libraryId: string, taskId: string, mode: ScanMode): Promise<{ started: boolean; state: ScanState }> {
    const current = this.store.state();
    if (current?.status === 'running') return { started: false, state: current };
    const state: ScanState = {
      taskId,
      libraryId,
      mode,
      phase: 'listing',
      status: 'running',
      cursor: null,
      cancelRequested: false,
      startedAt: new Date().toISOString(),
      completedAt: null,
      ...NO_SCAN_COUNTS,
      skipped: [],
      message: null,
    };
    this.store.begin(state);
    await this.report(state);
    await this.ctx.storage.setAlarm(Date.now() + 1);
    return { started: true, state };
  }

  async status(): Promise<ScanState | null> {
    return this.store.state();
  }

  /** Requests cancellation; the next slice stops the scan (books already written stay). */
  async cancel(): Promise<ScanState | null> {
    const state = this.store.state();
    if (state?.status !== 'running') return state;
    const next = { ...state, cancelRequested: true };
    this.store.save(next);
    await this.ctx.storage.setAlarm(Date.now() + 1);
    return next;
  }

  override async alarm(): Promise<void> {
    const db = await defaultDatabaseFactory(this.env);
    const scanner = new LibraryScanner({
      db,
      bucket: this.env.LIBRARY,
      cache: this.env.CACHE,
      store: this.store,
      events: createEventPublisher(this.env.EVENT_HUB, (work) => this.ctx.waitUntil(work())),
      report: (state) => this.report(state),
      queueBookWork: async (state, books) => {
        const messages = books.map((book) => ({
          ...book,
          thumbnailsSince: state.mode === 'deep' ? state.startedAt : null,
        }));
        // One send in flight: the next batch is analysed while this one travels, then waits for it.
        await this.sending;
        this.sending = queueBookWork(db, this.env.BOOK_WORK, messages).catch((error) => {
          this.sendFailure ??= error;
        });
      },
      onCompleted: (state) => this.queueFollowUps(state),
    });
    try {
      // Each alarm runs one slice (LONGBOX_SCAN__SLICE_MS of wall time) and schedules the next.
      const more = await scanner.step(readConfig(this.env).LONGBOX_SCAN__SLICE_MS);
      await this.sending;
      // A send that failed fails the slice (logged, retried with backoff); its books are already
      // analysed, so the cron re-queues them as work whose message got lost.
      const failure = this.sendFailure;
      this.sendFailure = null;
      if (failure) throw failure;
      this.failures = 0;
      // `+ 1`: an alarm re-armed at exactly now from inside alarm() is dropped by workerd.
      if (more) await this.ctx.storage.setAlarm(Date.now() + 1);
    } catch (error) {
      this.failures += 1;
      console.error(
        JSON.stringify({ level: 'error', msg: 'scan slice failed', error: String(error), failures: this.failures }),
      );
      const state = this.store.state();
      if (state?.status !== 'running') return;
      if (this.failures >= MAX_CONSECUTIVE_FAILURES) {
        const failed: ScanState = {
          ...state,
          status: 'failed',
          phase: 'done',
          completedAt: new Date().toISOString(),
          message: 'The scan failed repeatedly; see the server log',
        };
        this.store.save(failed);
        await this.report(failed);
        return;
      }
      await this.ctx.storage.setAlarm(Date.now() + 1000 * 2 ** this.failures);
    }
  }

  /**
   * The books were queued batch by batch during the scan (consumers are already at work); the
   * hash_files and generate_thumbnails rows report that work until every queued book is complete.
   */
  private async queueFollowUps(state: ScanState): Promise<void> {
    await openIngestTasks(
      await defaultDatabaseFactory(this.env),
      createEventPublisher(this.env.EVENT_HUB, (work) => this.ctx.waitUntil(work())),
      {
        libraryId: state.libraryId,
        booksQueued: state.booksQueued ?? 0,
        queuedSince: state.startedAt,
        thumbnailsSince: state.mode === 'deep' ? state.startedAt : null,
      },
    );
  }

  /** Mirrors the scan into its task row and the scan/task streams. */
  private async report(state: ScanState): Promise<void> {
    const db = await defaultDatabaseFactory(this.env);
    const status = state.status === 'running' ? 'running' : state.status;
    const skipped = skippedFilesOf(state);
    const message =
      state.message ??
      (state.status === 'running'
        ? `${state.phase}: ${state.filesProcessed} of ${state.filesTotal} files`
        : [
            `${state.booksAdded} added, ${state.booksUpdated} updated, ${state.booksDeleted} removed, ${state.errors} with errors`,
            ...skipped.skipped.map((group) => group.message),
          ].join('; '));
    const tasks = new TasksRepository(db);
    // Progress never revives a task row cancelled through POST /tasks/{id}/cancel; the final state always lands.
    const write = state.status === 'running' ? tasks.updateIfActive.bind(tasks) : tasks.update.bind(tasks);
    await write(state.taskId, {
      status,
      progressCurrent: state.filesProcessed,
      progressTotal: state.filesTotal,
      progressMessage: message,
      startedAt: state.startedAt,
      completedAt: state.completedAt,
      error: state.status === 'failed' ? message : null,
      result: { ...scanCountsOf(state), ...skipped },
    });
    createEventPublisher(this.env.EVENT_HUB, (work) => this.ctx.waitUntil(work())).publish(
      {
        type: 'scan_progress',
        library_id: state.libraryId,
        task_id: state.taskId,
        status,
        files_total: state.filesTotal,
        files_processed: state.filesProcessed,
        series_found: state.seriesFound,
        books_found: state.booksFound,
        errors: state.errors,
        files_skipped: skipped.filesSkipped,
        skipped: skipped.skipped,
        started_at: state.startedAt,
        completed_at: state.completedAt,
      },
      {
        type: 'task_progress',
        task_id: state.taskId,
        task_type: 'scan_library',
        status,
        progress: { current: state.filesProcessed, total: state.filesTotal, message },
      },
    );
  }
}
