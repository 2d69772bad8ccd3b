/**
 * Durable scan state in the LibraryScan Durable Object's SQLite storage: the run's counters, the keys
 * seen by the listing, and the queue of files still to analyse. Everything a restarted object needs
 * to resume where it stopped.
 */
import type { ListedObject } from './book-importer';
import type { SkippedGroup } from './skipped-files';

export type ScanMode = 'normal' | 'deep';
export type ScanPhase = 'listing' | 'analyzing' | 'finalizing' | 'done';
export type ScanStatus = 'running' | 'completed' | 'cancelled' | 'failed';

/** What a scan has counted so far. */
export interface ScanCounts {
  filesTotal: number;
  filesProcessed: number;
  seriesFound: number;
  booksFound: number;
  booksAdded: number;
  booksUpdated: number;
  booksDeleted: number;
  errors: number;
}

/** The counts of a scan that has counted nothing: a new run's, and what a library never scanned shows. */
export const NO_SCAN_COUNTS: Readonly<ScanCounts> = {
  filesTotal: 0,
  filesProcessed: 0,
  seriesFound: 0,
  booksFound: 0,
  booksAdded: 0,
  booksUpdated: 0,
  booksDeleted: 0,
  errors: 0,
};

/** A state's counts alone: what its task's result and its status show (the state holds more). */
export function scanCountsOf(state: ScanCounts): ScanCounts {
  return {
    filesTotal: state.filesTotal,
    filesProcessed: state.filesProcessed,
    seriesFound: state.seriesFound,
    booksFound: state.booksFound,
    booksAdded: state.booksAdded,
    booksUpdated: state.booksUpdated,
    booksDeleted: state.booksDeleted,
    errors: state.errors,
  };
}

export interface ScanState extends ScanCounts {
  taskId: string;
  libraryId: string;
  mode: ScanMode;
  phase: ScanPhase;
  status: ScanStatus;
  /** R2 list cursor while listing; last book id while finalizing. */
  cursor: string | null;
  cancelRequested: boolean;
  startedAt: string;
  completedAt: string | null;
  /** Books sent to the book-work queue (issue 11); absent in states stored before it existed. */
  booksQueued?: number;
  /** Listed objects the scan does not read, by extension and reason (absent in states saved before it existed). */
  skipped?: SkippedGroup[];
  message: string | null;
}

/** The LibraryScan Durable Object as services see it (durable-objects/library-scan.ts implements it). */
export interface LibraryScanRpc {
  start(libraryId: string, taskId: string, mode: ScanMode): Promise<{ started: boolean; state: ScanState }>;
  status(): Promise<ScanState | null>;
  cancel(): Promise<ScanState | null>;
}

export class ScanStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS scan_state (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS queue (key TEXT PRIMARY KEY, size INTEGER NOT NULL, etag TEXT NOT NULL,
        uploaded TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS touched_series (id TEXT PRIMARY KEY);`);
  }

  state(): ScanState | null {
    const row = this.sql.exec<{ body: string }>('SELECT body FROM scan_state WHERE id = 1').toArray()[0];
    return row ? (JSON.parse(row.body) as ScanState) : null;
  }

  save(state: ScanState): void {
    this.sql.exec('INSERT OR REPLACE INTO scan_state (id, body) VALUES (1, ?)', JSON.stringify(state));
  }

  /** Starts a fresh run: forgets the previous run's keys and queue. */
  begin(state: ScanState): void {
    this.sql.exec('DELETE FROM seen; DELETE FROM queue; DELETE FROM touched_series;');
    this.save(state);
  }

  markSeen(keys: string[]): void {
    for (const key of keys) this.sql.exec('INSERT OR IGNORE INTO seen (key) VALUES (?)', key);
  }

  /** Which of `keys` the listing saw. */
  seenAmong(keys: string[]): Set<string> {
    const seen = new Set<string>();
    for (const key of keys) {
      if (this.sql.exec('SELECT 1 FROM seen WHERE key = ?', key).toArray().length > 0) seen.add(key);
    }
    return seen;
  }

  enqueue(objects: ListedObject[]): void {
    for (const o of objects) {
      this.sql.exec(
        'INSERT OR REPLACE INTO queue (key, size, etag, uploaded) VALUES (?, ?, ?, ?)',
        o.key,
        o.size,
        o.etag,
        o.uploaded,
      );
    }
  }

  nextBatch(limit: number): ListedObject[] {
    return this.sql
      .exec<{ key: string; size: number; etag: string; uploaded: string }>(
        'SELECT key, size, etag, uploaded FROM queue ORDER BY key LIMIT ?',
        limit,
      )
      .toArray();
  }

  dequeue(keys: string[]): void {
    for (const key of keys) this.sql.exec('DELETE FROM queue WHERE key = ?', key);
  }

  touchSeries(ids: Iterable<string>): void {
    for (const id of ids) this.sql.exec('INSERT OR IGNORE INTO touched_series (id) VALUES (?)', id);
  }

  forgetTouchedSeries(): void {
    this.sql.exec('DELETE FROM touched_series');
  }

  /** Takes (and forgets) up to `limit` touched series ids. */
  takeTouchedSeries(limit: number): string[] {
    const ids = this.sql
      .exec<{ id: string }>('SELECT id FROM touched_series LIMIT ?', limit)
      .toArray()
      .map((r) => r.id);
    for (const id of ids) this.sql.exec('DELETE FROM touched_series WHERE id = ?', id);
    return ids;
  }
}
