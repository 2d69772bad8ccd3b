/**
 * What both importers establish before they read anything (docs/DECISIONS.md §Coming from Komga or Kavita):
 * that the file is the peer's database at all, that its schema is a version the importer was written against,
 * and which peer instance it is. The refusals are worded once, so Komga's and Kavita's admins are told the same
 * things in the same words: what was seen, what is known, and what to do.
 */
import { MigrationInputError, type PeerKind } from './peer';
import type { PeerDatabase } from './sqlite';

/** Refuses a file without the tables the peer always has, saying where the peer keeps its database. */
export function assertPeerTables(db: PeerDatabase, tables: readonly string[], keptAt: string): void {
  if (tables.every((table) => db.hasTable(table))) return;
  throw new MigrationInputError(
    `${db.file} is not a ${db.peer} database (no ${tables.join(' and ')} tables): ${db.peer} keeps it as ${keptAt}`,
  );
}

/**
 * The refusal of a schema version the importer does not know: `seen` as the database has it, `known` the versions
 * it reads, `newer` whether the peer is ahead of the importer (then Longbox is to be updated, else the peer).
 */
export function unknownSchemaVersion(
  db: PeerDatabase,
  { seen, known, newer }: { seen: string; known: string; newer: boolean },
): MigrationInputError {
  const peer = db.peer;
  return new MigrationInputError(
    `${peer} schema version ${seen} is not one this importer knows (it knows ${known}). ` +
      (newer
        ? `This ${peer} is newer than the importer: update Longbox, or migrate from one of the versions above.`
        : `Update ${peer} to one of the versions above and start it once (it upgrades its database), then run again.`),
  );
}

/** The snapshot's `source`: the peer's kind and what names the instance, kept to characters safe in an id. */
export const peerSource = (kind: PeerKind, instance: string): string =>
  `${kind}:${instance.replace(/[^A-Za-z0-9._:+-]/g, '_') || 'unknown'}`;
