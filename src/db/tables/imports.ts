/**
 * What came from another server (docs/DECISIONS.md §Coming from Komga or Kavita): each thing a migration
 * created or changed in Longbox, remembered under the peer's own id, so that running the same migration again
 * finds it and changes nothing, and a run cut off half-way picks up where it stopped.
 */
import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** The kinds of thing an import remembers (progress and want-to-read need no memory: they merge by key). */
export const IMPORT_KINDS = ['user', 'collection', 'read_list', 'api_key', 'series', 'book', 'cover'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const importOrigins = sqliteTable(
  'import_origins',
  {
    /** The peer instance: `komga:<fingerprint>` or `kavita:<install id>` (the migrate command derives it). */
    source: text('source').notNull(),
    kind: text('kind', { enum: IMPORT_KINDS }).notNull(),
    /** The peer's id of the thing (Komga's TSIDs, Kavita's integers, as text). */
    foreignId: text('foreign_id').notNull(),
    /**
     * What it became in Longbox. No foreign key: it names rows of several tables. When that row is deleted
     * later, the origin stays, so a later run does not bring back what an admin removed.
     */
    longboxId: text('longbox_id').notNull(),
    importedAt: text('imported_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.source, t.kind, t.foreignId] })],
);
