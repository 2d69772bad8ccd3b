/**
 * Opening a peer's SQLite database on the admin's machine: read-only (the peer's file is never written), with
 * a short busy timeout, and every way it can fail turned into a message saying what to do
 * (docs/DECISIONS.md §Coming from Komga or Kavita). Node's built-in `node:sqlite` (the pinned Node 22 has it):
 * no native package to build.
 */
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { MigrationInputError } from './peer';

/** How long a read waits for a peer that holds a write lock before it is reported. */
const BUSY_TIMEOUT_MS = 2000;

export type Row = Record<string, unknown>;

export class PeerDatabase {
  private constructor(
    private readonly db: DatabaseSync,
    readonly file: string,
    readonly peer: string,
  ) {}

  /** Opens `file` read-only; `writable` only for a temporary copy (a backup's database, extracted). */
  static open(file: string, peer: string, { writable = false } = {}): PeerDatabase {
    if (!existsSync(file)) throw new MigrationInputError(`${file} does not exist`);
    if (!statSync(file).isFile()) throw new MigrationInputError(`${file} is not a file`);
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(file, { readOnly: !writable, timeout: BUSY_TIMEOUT_MS });
    } catch (error) {
      throw explain(error, file, peer);
    }
    const opened = new PeerDatabase(db, file, peer);
    opened.all('SELECT name FROM sqlite_master LIMIT 1');
    return opened;
  }

  all(sql: string, ...params: SQLInputValue[]): Row[] {
    try {
      return this.db.prepare(sql).all(...params) as Row[];
    } catch (error) {
      throw explain(error, this.file, this.peer);
    }
  }

  get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.all(sql, ...params)[0];
  }

  hasTable(name: string): boolean {
    return this.get("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?", name) !== undefined;
  }

  columns(table: string): Set<string> {
    return new Set(this.all(`SELECT name FROM pragma_table_info(?)`, table).map((row) => String(row.name)));
  }

  close(): void {
    this.db.close();
  }
}

/** SQLite's result codes as node:sqlite reports them (`errcode`), in words the admin can act on. */
function explain(error: unknown, file: string, peer: string): Error {
  const code = (error as { errcode?: number }).errcode;
  const primary = code === undefined ? undefined : code & 0xff;
  if (primary === 26)
    return new MigrationInputError(`${file} is not an SQLite database (is it ${peer}'s database file?)`);
  if (primary === 5 || primary === 6) {
    return new MigrationInputError(
      `${file} is locked by another process (is ${peer} still running?): stop ${peer}, or copy the file while it is stopped, and run again`,
    );
  }
  if (primary === 11) return new MigrationInputError(`${file} is damaged (SQLite: ${(error as Error).message})`);
  if (primary === 14) return new MigrationInputError(`${file} cannot be opened (SQLite: ${(error as Error).message})`);
  return error instanceof Error ? error : new Error(String(error));
}

/** A peer's timestamp (`2024-01-02 10:00:00.123`, `2024-01-02T10:00:00.1234567`, UTC) as ISO 8601 with Z. */
export function utcInstant(value: unknown, fallback = '1970-01-01T00:00:00.000Z'): string {
  if (typeof value !== 'string' || value.length === 0) return fallback;
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(value.trim());
  if (!match) {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? fallback : new Date(parsed).toISOString();
  }
  const [, day, time, fraction = '', zone = 'Z'] = match;
  const millis = (fraction.slice(1) + '000').slice(0, 3);
  const parsed = Date.parse(`${day}T${time}.${millis}${zone}`);
  return Number.isNaN(parsed) ? fallback : new Date(parsed).toISOString();
}

export const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
export const flag = (value: unknown): boolean => value === 1 || value === 1n || value === true || value === '1';
