/**
 * Who may see what (docs/DECISIONS.md §Organise and share): the libraries shared with a user and with an
 * API key, and sharing labels (Komga's name; Codex-rs calls them sharing tags) on series, granted to users
 * as allowed or denied. Every row goes with the user, key, library, series or label it names (a deleted
 * library leaves every grant, a deleted label every series and user).
 */
import { sql } from 'drizzle-orm';
import { index, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { apiKeys } from './api-keys';
import { cascadingReference, createdAt, id, updatedAt } from './columns';
import { libraries } from './libraries';
import { series } from './series';
import { users } from './users';

/** The libraries a user sees when `users.shared_all_libraries` is false. */
export const userLibraryAccess = sqliteTable(
  'user_library_access',
  {
    userId: cascadingReference('user_id', () => users.id),
    libraryId: cascadingReference('library_id', () => libraries.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.libraryId] }), index('user_library_access_library_idx').on(t.libraryId)],
);

/** The libraries a key reaches when `api_keys.all_libraries` is false (within its owner's). */
export const apiKeyLibraries = sqliteTable(
  'api_key_libraries',
  {
    apiKeyId: cascadingReference('api_key_id', () => apiKeys.id),
    libraryId: cascadingReference('library_id', () => libraries.id),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.libraryId] }), index('api_key_libraries_library_idx').on(t.libraryId)],
);

/** A label an admin puts on series to share them or keep them from some users; names unique ignoring case. */
export const sharingLabels = sqliteTable(
  'sharing_labels',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('sharing_labels_name_unique').on(sql`${t.name} COLLATE NOCASE`)],
);

export const seriesSharingLabels = sqliteTable(
  'series_sharing_labels',
  {
    seriesId: cascadingReference('series_id', () => series.id),
    labelId: cascadingReference('label_id', () => sharingLabels.id),
  },
  (t) => [
    primaryKey({ columns: [t.seriesId, t.labelId] }),
    // Restrictions read "the series having one of these labels" as an index-only range (visibility.ts).
    index('series_sharing_labels_label_idx').on(t.labelId, t.seriesId),
  ],
);

export const SHARING_LABEL_MODES = ['allow', 'deny'] as const;
export type SharingLabelMode = (typeof SHARING_LABEL_MODES)[number];

/**
 * A user's grant of a label: `allow` (Komga labelsAllow: with any, only labelled series pass, unless an
 * age restriction lets them) or `deny` (Komga labelsExclude: series with it are hidden).
 */
export const userSharingLabels = sqliteTable(
  'user_sharing_labels',
  {
    userId: cascadingReference('user_id', () => users.id),
    labelId: cascadingReference('label_id', () => sharingLabels.id),
    mode: text('mode', { enum: SHARING_LABEL_MODES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.labelId] }), index('user_sharing_labels_label_idx').on(t.labelId)],
);
