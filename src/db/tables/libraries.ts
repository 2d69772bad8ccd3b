import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, id, timestamp, updatedAt } from './columns';

export interface ScanningConfig {
  enabled: boolean;
  cron_schedule: string | null;
  default_mode: 'normal' | 'deep';
  scan_on_start: boolean;
}

/** A library is an R2 key prefix (DECISIONS.md §Storage); libraries never overlap. */
export const libraries = sqliteTable(
  'libraries',
  {
    id: id(),
    name: text('name').notNull(),
    /** Key prefix in the LIBRARY bucket, no leading or trailing slash ('' = whole bucket). */
    path: text('path').notNull(),
    defaultReadingDirection: text('default_reading_direction', { enum: ['ltr', 'rtl', 'ttb', 'webtoon'] })
      .notNull()
      .default('ltr'),
    scanningConfig: text('scanning_config', { mode: 'json' }).$type<ScanningConfig>().notNull(),
    /** A scan makes read lists of the story arcs its books' ComicInfo names (off by default, as in Komga). */
    importStoryArcReadLists: integer('import_story_arc_read_lists', { mode: 'boolean' }).notNull().default(false),
    thumbnailKey: text('thumbnail_key'),
    thumbnailUpdatedAt: timestamp('thumbnail_updated_at'),
    lastScannedAt: timestamp('last_scanned_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('libraries_name_unique').on(t.name), uniqueIndex('libraries_path_unique').on(t.path)],
);
