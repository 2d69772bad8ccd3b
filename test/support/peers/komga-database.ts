/**
 * A Komga `database.sqlite` built the way Komga builds its own: its Flyway migrations (vendored in
 * test/vendor/komga/, see its README) applied in version order, each recorded in `flyway_schema_history`. Rows
 * are then written by the tests with `insertRow`, in Komga's tables and columns. Node only (`node:sqlite`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../vendor/komga/migrations');

/** Komga's defaults for its Flyway placeholders (`application.yml`, `spring.flyway.placeholders`). */
const PLACEHOLDERS: Record<string, string> = {
  'library-file-hashing': 'true',
  'library-scan-startup': 'false',
  'delete-empty-collections': 'true',
  'delete-empty-read-lists': 'true',
};

/** Komga's Kotlin migrations: data fixes that change nothing on an empty database (recorded, not run). */
const JAVA_MIGRATIONS = [
  'V20200810154730__thumbnails_part_2',
  'V20200820150923__metadata_fields_part_2',
  'V20210624165023__missing_series_metadata',
  'V20230801104436__fix_incorrect_language_codes',
  'V20240422132621__fix_read_progress_locators',
];

/** Flyway's history table, as Flyway creates it on SQLite. */
const HISTORY = `CREATE TABLE "flyway_schema_history" (
  "installed_rank" INT NOT NULL PRIMARY KEY,
  "version" VARCHAR(50),
  "description" VARCHAR(200) NOT NULL,
  "type" VARCHAR(20) NOT NULL,
  "script" VARCHAR(1000) NOT NULL,
  "checksum" INT,
  "installed_by" VARCHAR(100) NOT NULL,
  "installed_on" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f','now')),
  "execution_time" INT NOT NULL,
  "success" BOOLEAN NOT NULL
)`;

/**
 * Creates a Komga database at `file` with every migration up to `upTo` (a version; default all), installed at
 * `installedOn` (the first migration's time, which names the Komga instance).
 */
export function createKomgaDatabase(
  file: string,
  { upTo, installedOn = '2024-03-01 10:00:00.000' }: { upTo?: string; installedOn?: string } = {},
): DatabaseSync {
  const db = new DatabaseSync(file, { enableDoubleQuotedStringLiterals: true });
  db.exec(HISTORY);
  const scripts = [
    ...readdirSync(MIGRATIONS)
      .filter((name) => name.endsWith('.sql'))
      .map((name) => ({ name: name.replace(/\.sql$/, ''), sql: readFileSync(path.join(MIGRATIONS, name), 'utf8') })),
    ...JAVA_MIGRATIONS.map((name) => ({ name, sql: null })),
  ].sort((a, b) => versionOf(a.name) - versionOf(b.name));
  let rank = 0;
  for (const script of scripts) {
    const version = String(versionOf(script.name));
    if (upTo !== undefined && Number(version) > Number(upTo)) break;
    if (script.sql !== null)
      db.exec(script.sql.replace(/\$\{([a-z-]+)\}/g, (_, key: string) => PLACEHOLDERS[key] ?? ''));
    rank += 1;
    db.prepare(
      `INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum, installed_by,
        installed_on, execution_time, success) VALUES (?, ?, ?, ?, ?, ?, 'komga', ?, 1, 1)`,
    ).run(
      rank,
      version,
      script.name.split('__')[1]?.replaceAll('_', ' ') ?? '',
      script.sql === null ? 'JDBC' : 'SQL',
      script.sql === null ? `db.migration.sqlite.${script.name}` : `${script.name}.sql`,
      script.sql === null ? null : 0,
      rank === 1 ? installedOn : installedOn,
    );
  }
  return db;
}

function versionOf(name: string): number {
  return Number(/^V(\d+)__/.exec(name)?.[1]);
}

/** Writes one row: `insertRow(db, 'BOOK', { ID: …, NAME: … })`. */
export function insertRow(db: DatabaseSync, table: string, row: Record<string, SQLInputValue>): void {
  const columns = Object.keys(row);
  db.prepare(
    `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  ).run(...Object.values(row));
}
