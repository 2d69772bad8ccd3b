/** Types of koreader-statistics-db.mjs (Node only: node:sqlite). */
import type { DatabaseSync } from 'node:sqlite';
import type { KoreaderBookSpec } from './koreader-statistics-spec.mjs';

export interface FileOptions {
  /** SQLite's page size (KOReader leaves the default, 4096). */
  pageSize?: number;
  /** `PRAGMA journal_mode=WAL`, as KOReader sets it on devices that can use it (the default here). */
  wal?: boolean;
  encoding?: 'UTF-8' | 'UTF-16le' | 'UTF-16be';
  autoVacuum?: boolean;
}

/** The bytes of a database made by `build` on a fresh file with the options' pragmas, closed (checkpointed). */
export function sqliteFile(build: (db: DatabaseSync) => void, options?: FileOptions): Uint8Array;
/** KOReader's statistics database holding `books` and their page visits, as its statistics plugin writes them. */
export function koreaderStatisticsFile(books: readonly KoreaderBookSpec[], options?: FileOptions): Uint8Array;
/** The files the workers tests upload (binding `KOREADER_FIXTURES`, name → base64). */
export function koreaderFixtureBindings(): { KOREADER_FIXTURES: Record<string, string> };
