/**
 * Starting, watching and cancelling library scans (API.md §4 Scanning). The library's LibraryScan
 * Durable Object is the authority on whether a scan runs; a task row mirrors each scan.
 */
import { conflict, notFound } from '../lib/errors';
import type { NamedObjects } from '../lib/named-objects';
import { newId, nowIso } from '../lib/ids';
import type { LibrariesRepository, LibraryRecord } from '../repositories/libraries.repository';
import { assertSeesAllContent, type Viewer } from '../repositories/visibility';
import type { TasksRepository } from '../repositories/tasks.repository';
import {
  type LibraryScanRpc,
  NO_SCAN_COUNTS,
  type ScanMode,
  type ScanState,
  scanCountsOf,
} from '../scanning/scan-store';
import { skippedFilesOf } from '../scanning/skipped-files';
import type { ScanStatusDto } from '../schemas/scan.schema';

export class ScanService {
  constructor(
    private readonly scans: NamedObjects<LibraryScanRpc>,
    private readonly libraries: LibrariesRepository,
    private readonly tasks: TasksRepository,
  ) {}

  private stub(libraryId: string) {
    return this.scans.get(this.scans.idFromName(libraryId));
  }

  /** POST /libraries/{id}/scan: a library the viewer sees all of (a scan reports what it finds in it). */
  async start(viewer: Viewer, libraryId: string, requestedMode: ScanMode | undefined): Promise<ScanStatusDto> {
    const library = await this.visibleLibrary(viewer, libraryId);
    return this.begin(library, requestedMode, viewer.userId);
  }

  /** A scan the schedule starts (scanning_config), on behalf of nobody. */
  async startScheduled(library: LibraryRecord, mode: ScanMode | undefined): Promise<ScanStatusDto> {
    return this.begin(library, mode, null);
  }

  private async begin(
    library: LibraryRecord,
    requestedMode: ScanMode | undefined,
    createdBy: string | null,
  ): Promise<ScanStatusDto> {
    const libraryId = library.id;
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

  async status(viewer: Viewer, libraryId: string): Promise<ScanStatusDto> {
    await this.visibleLibrary(viewer, libraryId);
    return toDto(libraryId, await this.stub(libraryId).status());
  }

  async cancel(viewer: Viewer, libraryId: string): Promise<ScanStatusDto> {
    await this.visibleLibrary(viewer, libraryId);
    const state = await this.stub(libraryId).cancel();
    if (state?.status !== 'running') throw conflict('No scan of this library is running');
    return toDto(libraryId, state);
  }

  /**
   * A scan counts everything in its library: a library the viewer sees, and all of it (404 for one they do
   * not see, 403 for a viewer with content restrictions).
   */
  private async visibleLibrary(viewer: Viewer, libraryId: string): Promise<LibraryRecord> {
    const library = await this.libraries.getRecord(viewer, libraryId);
    if (!library) throw notFound('Library');
    assertSeesAllContent(viewer, "see or run a library's scans");
    return library;
  }

  /** Scans that are running now in the libraries the viewer sees, with their live progress. */
  async active(viewer: Viewer): Promise<ScanStatusDto[]> {
    assertSeesAllContent(viewer, "see the libraries' scans");
    const { rows } = await this.tasks.list(viewer, { type: 'scan_library', status: 'running' }, 0, 500);
    const pending = await this.tasks.list(viewer, { type: 'scan_library', status: 'pending' }, 0, 500);
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
      ...NO_SCAN_COUNTS,
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
    ...scanCountsOf(state),
    ...skippedFilesOf(state),
    startedAt: state.startedAt,
    completedAt: state.completedAt,
    message: state.message,
  };
}
