/**
 * Library use cases (API.md §4 Libraries, DECISIONS.md §Storage): a library is a key prefix in the
 * library bucket, unique by name and never overlapping another library's prefix. Deleting a library
 * removes catalog rows only; the book objects in R2 are never touched.
 */
import type { EventPublisher } from '../events/events';
import { conflict, notFound } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type {
  LibrariesRepository,
  LibraryChanges,
  LibraryRecord,
  LibraryWithCounts,
  ScanningConfig,
} from '../repositories/libraries.repository';
import { assertSeesAllContent, assertSeesEverything, type Viewer } from '../repositories/visibility';
import type { CreateLibraryBody, LibraryDto, ScanningConfigInput, UpdateLibraryBody } from '../schemas/library.schema';
import { keyPathsOverlap, libraryFolderFor } from '../storage/key-paths';

const DEFAULT_SCANNING_CONFIG: ScanningConfig = {
  enabled: false,
  cron_schedule: null,
  default_mode: 'normal',
  scan_on_start: false,
};

export class LibrariesService {
  constructor(
    private readonly libraries: LibrariesRepository,
    private readonly events: EventPublisher,
  ) {}

  /** The libraries the viewer sees, with the counts of what the viewer sees in them. */
  async list(viewer: Viewer): Promise<LibraryDto[]> {
    return (await this.libraries.list(viewer)).map(toLibraryDto);
  }

  async get(viewer: Viewer, id: string): Promise<LibraryDto> {
    return toLibraryDto(await this.require(viewer, id));
  }

  /** The stored row, for services that work inside a library (uploads, scans); 404 when the viewer does not see it. */
  async getRecord(viewer: Viewer, id: string): Promise<LibraryRecord> {
    const library = await this.libraries.getRecord(viewer, id);
    if (!library) throw notFound('Library');
    return library;
  }

  /** Those of `ids` that are not libraries the viewer sees. */
  async unknownIds(viewer: Viewer, ids: readonly string[]): Promise<string[]> {
    const known = await this.libraries.visibleIds(viewer, ids);
    return [...new Set(ids)].filter((id) => !known.has(id));
  }

  /** A library is a prefix of the whole bucket: only a viewer who sees every library may place one. */
  async create(viewer: Viewer, body: CreateLibraryBody): Promise<LibraryDto> {
    assertSeesEverything(viewer, 'create a library');
    const path = body.path ?? libraryFolderFor(body.name);
    await this.assertAvailable({ name: body.name, path });
    const now = nowIso();
    const id = newId();
    await this.libraries
      .create({
        id,
        name: body.name,
        path,
        defaultReadingDirection: body.defaultReadingDirection ?? 'ltr',
        scanningConfig: mergeScanningConfig(DEFAULT_SCANNING_CONFIG, body.scanning_config),
        importStoryArcReadLists: body.importStoryArcReadLists ?? false,
        thumbnailKey: null,
        thumbnailUpdatedAt: null,
        lastScannedAt: null,
        createdAt: now,
        updatedAt: now,
      })
      .catch(rethrowUniqueViolation);
    this.events.publish({ type: 'library_created', library_id: id });
    return this.get(viewer, id);
  }

  async update(viewer: Viewer, id: string, body: UpdateLibraryBody): Promise<LibraryDto> {
    const current = await this.require(viewer, id);
    await this.assertAvailable({ name: body.name, path: body.path, exceptId: id });
    const changes: LibraryChanges = { updatedAt: nowIso() };
    if (body.name !== undefined) changes.name = body.name;
    if (body.path !== undefined) changes.path = body.path;
    if (body.defaultReadingDirection !== undefined) changes.defaultReadingDirection = body.defaultReadingDirection;
    if (body.importStoryArcReadLists !== undefined) changes.importStoryArcReadLists = body.importStoryArcReadLists;
    if (body.scanning_config !== undefined) {
      changes.scanningConfig = mergeScanningConfig(current.scanningConfig, body.scanning_config);
    }
    await this.libraries.update(id, changes).catch(rethrowUniqueViolation);
    this.events.publish({ type: 'library_updated', library_id: id });
    return this.get(viewer, id);
  }

  /** Deleting a library removes everything in it, so it takes a viewer who sees all of it. */
  async delete(viewer: Viewer, id: string): Promise<void> {
    await this.require(viewer, id);
    assertSeesAllContent(viewer, 'delete a library');
    if (!(await this.libraries.delete(id))) throw notFound('Library');
  }

  private async require(viewer: Viewer, id: string): Promise<LibraryWithCounts> {
    const library = await this.libraries.get(viewer, id);
    if (!library) throw notFound('Library');
    return library;
  }

  /** Names are unique ignoring case; prefixes may not equal, contain or sit inside another library's. */
  private async assertAvailable({ name, path, exceptId }: { name?: string; path?: string; exceptId?: string }) {
    const others = (await this.libraries.listPaths()).filter((library) => library.id !== exceptId);
    if (name !== undefined) {
      const taken = others.find((library) => library.name.toLowerCase() === name.toLowerCase());
      if (taken) {
        throw conflict(`A library named "${taken.name}" already exists`, [
          { path: 'name', message: 'already used by another library' },
        ]);
      }
    }
    if (path !== undefined) {
      const overlapping = others.find((library) => keyPathsOverlap(library.path, path));
      if (overlapping) {
        // A library over the whole bucket leaves no room for another: say which one and what to do.
        const why =
          overlapping.path === ''
            ? `library "${overlapping.name}" uses the whole storage ("/"): give it a folder of its own first`
            : path === ''
              ? `the whole storage ("/") would include library "${overlapping.name}" at "${overlapping.path}"`
              : `it overlaps library "${overlapping.name}" at "${overlapping.path}"`;
        throw conflict(`Folder "${path || '/'}" cannot be used: ${why}`, [
          { path: 'path', message: `overlaps library ${overlapping.id}` },
        ]);
      }
    }
  }
}

function mergeScanningConfig(base: ScanningConfig, input: ScanningConfigInput | undefined): ScanningConfig {
  if (!input) return { ...base };
  return {
    enabled: input.enabled ?? base.enabled,
    cron_schedule: input.cron_schedule === undefined ? base.cron_schedule : input.cron_schedule,
    default_mode: input.default_mode ?? base.default_mode,
    scan_on_start: input.scan_on_start ?? base.scan_on_start,
  };
}

/** Two concurrent creates can both pass the checks; the unique indexes decide, as a 409. */
function rethrowUniqueViolation(error: unknown): never {
  // drizzle wraps the driver's error; the SQLite message may sit on either.
  const messages = `${error} ${(error as { cause?: unknown } | null)?.cause ?? ''}`;
  if (/UNIQUE constraint failed/i.test(messages)) throw conflict('A library with this name or path already exists');
  throw error;
}

export function toLibraryDto(library: LibraryWithCounts): LibraryDto {
  return {
    id: library.id,
    name: library.name,
    path: library.path,
    scanning_config: { ...DEFAULT_SCANNING_CONFIG, ...library.scanningConfig },
    defaultReadingDirection: library.defaultReadingDirection,
    importStoryArcReadLists: library.importStoryArcReadLists,
    seriesCount: library.seriesCount,
    bookCount: library.bookCount,
    lastScannedAt: library.lastScannedAt,
    createdAt: library.createdAt,
    updatedAt: library.updatedAt,
  };
}
