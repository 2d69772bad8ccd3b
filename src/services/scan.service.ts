/**
 * Starting, watching and cancelling library scans (API.md §4 Scanning). The library's LibraryScan
 * Durable Object is the authority on whether a scan runs; a task row mirrors each scan.
 */
import type { LibraryScan } from '../../durable-objects/library-scan';
import { conflict, notFound } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type { LibrariesRepository } from '../repositories/libraries.repository';
import type { TasksRepository } from '../repositories/tasks.repository';
import type { ScanMode, ScanState } from '../scanning/scan-store';
import { skippedFilesOf } from '../scanning/skipped-files';
import type { ScanStatusDto } from '../schemas/scan.schema';

export class ScanService {
  constructor(
    private readonly scans: DurableObjectNamespace<LibraryScan>,
    private readonly libraries: LibrariesRepository,
    private readonly tasks: TasksRepository,
  ) {}

  private stub(libraryId: string) {
    return this.scans.get(this.scans.idFromName(libraryId));
  }

  async start(
    libraryId: string,
    requestedMode: ScanMode | undefined,
    createdBy: string | null,
  ): Promise<ScanStatusDto> {
    const library = await this.libraries.getRecord(libraryId);
    if (!library) throw notFound('Library');
    const stub = this.stub(libraryId);
    const current = await stub.status();
    if (current?.status === 'running') throw conflict('A scan of this library is already running');
    const mode = requestedMode ?? library.scanningConfig.default_mode ?? 'normal';
    const task = await this.tasks.create({
      id: newId(),
      type: 'scan_library',
      status: 'pending',
      uniqueKey: `scan_library:${libraryId}`,
      libraryId,
      targetId: libraryId,
      payload: { mode },
      priority: 10,
      createdBy,
      createdAt: nowIso(),
    });
    const { started, state } = await stub.start(libraryId, task.id, mode);
    if (!started) {
      // Another request started a scan between our check and start.
      await this.tasks.update(task.id, {
        status: 'cancelled',
        completedAt: nowIso(),
        error: 'Superseded by a running scan',
      });
      throw conflict('A scan of this library is already running');
    }
    return toDto(libraryId, state);
  }

  async status(libraryId: string): Promise<ScanStatusDto> {
    if (!(await this.libraries.getRecord(libraryId))) throw notFound('Library');
    return toDto(libraryId, await this.stub(libraryId).status());
  }

  async cancel(libraryId: string): Promise<ScanStatusDto> {
    if (!(await this.libraries.getRecord(libraryId))) throw notFound('Library');
    const state = await this.stub(libraryId).cancel();
    if (state?.status !== 'running') throw conflict('No scan of this library is running');
    return toDto(libraryId, state);
  }

  /** Scans that are running now, with their live progress. */
  async active(): Promise<ScanStatusDto[]> {
    const { rows } = await this.tasks.list({ type: 'scan_library', status: 'running' }, 0, 500);
    const pending = await this.tasks.list({ type: 'scan_library', status: 'pending' }, 0, 500);
    const libraryIds = [
      ...new Set([...rows, ...pending.rows].map((t) => t.libraryId).filter((id): id is string => !!id)),
    ];
    const states = await Promise.all(libraryIds.map(async (id) => toDto(id, await this.stub(id).status())));
    return states.filter((s) => s.status === 'running');
  }
}

function toDto(libraryId: string, state: ScanState | null): ScanStatusDto {
  if (!state) {
    return {
      libraryId,
      taskId: null,
      status: 'idle',
      cancelRequested: false,
      mode: null,
      phase: null,
      filesTotal: 0,
      filesProcessed: 0,
      seriesFound: 0,
      booksFound: 0,
      booksAdded: 0,
      booksUpdated: 0,
      booksDeleted: 0,
      errors: 0,
      filesSkipped: 0,
      skipped: [],
      startedAt: null,
      completedAt: null,
      message: null,
    };
  }
  return {
    libraryId,
    taskId: state.taskId,
    status: state.status,
    cancelRequested: state.cancelRequested,
    mode: state.mode,
    phase: state.phase,
    filesTotal: state.filesTotal,
    filesProcessed: state.filesProcessed,
    seriesFound: state.seriesFound,
    booksFound: state.booksFound,
    booksAdded: state.booksAdded,
    booksUpdated: state.booksUpdated,
    booksDeleted: state.booksDeleted,
    errors: state.errors,
    ...skippedFilesOf(state),
    startedAt: state.startedAt,
    completedAt: state.completedAt,
    message: state.message,
  };
}
