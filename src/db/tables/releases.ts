/**
 * Release tracking (issue 32; API.md §2 Series `tracked`, `upstream*Gap`; docs/DECISIONS.md §Release tracking):
 * which series are followed upstream and how, the built-in providers polled for them, what each poll learnt,
 * and the ledger of announced releases the inbox reads. The shapes follow Codex-rs's `series_tracking`,
 * `series_aliases`, `series_external_ids`, `release_sources` and `release_ledger`; `release_polls` (one row
 * per tracked series and source) is Longbox's own, so that 10,000 series poll on their own schedules.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { cascadingReference, createdAt, id, updatedAt } from './columns';
import { series } from './series';

/** How a series is followed; no row (or `tracked` false) means it is not. */
export const seriesTracking = sqliteTable('series_tracking', {
  seriesId: text('series_id')
    .primaryKey()
    .references(() => series.id, { onDelete: 'cascade' }),
  tracked: integer('tracked', { mode: 'boolean' }).notNull().default(false),
  /** Announce chapters / volumes, and show the matching gap (Codex `track_chapters` / `track_volumes`). */
  chapterTracking: integer('chapter_tracking', { mode: 'boolean' }).notNull().default(true),
  volumeTracking: integer('volume_tracking', { mode: 'boolean' }).notNull().default(true),
  /** High-water marks of the ledger: releases at or below them on every tracked axis are not announced. */
  latestKnownChapter: real('latest_known_chapter'),
  latestKnownVolume: integer('latest_known_volume'),
  /** ISO 639-1 codes of releases to announce; null: the server's `releases.default_languages`. */
  languages: text('languages', { mode: 'json' }).$type<string[]>(),
  /** Seconds between polls of this series, instead of each source's interval. */
  pollIntervalOverrideS: integer('poll_interval_override_s'),
  /**
   * What the most advanced provider says (the one with the highest chapter count, then volume count), kept
   * here so that every series read computes the gap fields from its one joined row.
   */
  providerName: text('provider_name'),
  providerChapterCount: real('provider_chapter_count'),
  providerVolumeCount: integer('provider_volume_count'),
  providerStatus: text('provider_status'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Other names a provider may know a series by (Codex `series_aliases`). */
export const seriesAliases = sqliteTable(
  'series_aliases',
  {
    id: id(),
    seriesId: cascadingReference('series_id', () => series.id),
    alias: text('alias').notNull(),
    /** Lower-cased, accents and punctuation dropped, spaces collapsed: what matching compares. */
    normalized: text('normalized').notNull(),
    /** `metadata` (seeded from the series' titles) or `manual`. */
    source: text('source', { enum: ['metadata', 'manual'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('series_aliases_series_normalized_unique').on(t.seriesId, t.normalized)],
);

/** A series' id at a provider (Codex `series_external_ids`), set by a user or read from its metadata links. */
export const seriesExternalIds = sqliteTable(
  'series_external_ids',
  {
    id: id(),
    seriesId: cascadingReference('series_id', () => series.id),
    /** The provider's key (`mangaupdates`, `anilist`). */
    source: text('source').notNull(),
    externalId: text('external_id').notNull(),
    externalUrl: text('external_url'),
    /** `manual` (entered by a user) or `metadata` (a link of the series or of its books' ComicInfo `Web`). */
    origin: text('origin', { enum: ['manual', 'metadata'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('series_external_ids_series_source_unique').on(t.seriesId, t.source)],
);

/** A built-in provider as the admin configures it (Codex `release_sources`); one row per provider. */
export const releaseSources = sqliteTable('release_sources', {
  id: id(),
  /** The provider's key: which client polls it (Codex `plugin_id`). */
  provider: text('provider').notNull(),
  sourceKey: text('source_key').notNull().unique(),
  displayName: text('display_name').notNull(),
  /** `api-feed` (announces releases) or `metadata-feed` (counts only). */
  kind: text('kind', { enum: ['api-feed', 'metadata-feed'] }).notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  /** Seconds between two polls of one series (default 24 h). */
  pollIntervalS: integer('poll_interval_s').notNull().default(86_400),
  lastPolledAt: text('last_polled_at'),
  lastError: text('last_error'),
  lastErrorAt: text('last_error_at'),
  lastSummary: text('last_summary'),
  /** The provider asked us to wait (429 `Retry-After`) or is failing: nothing is sent to it before this. */
  backoffUntil: text('backoff_until'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * One tracked series at one source: when it is due, what the provider said last. The cron reads due rows by
 * `(source_id, next_poll_at)`; a row is made when tracking is turned on and goes when it is turned off.
 */
export const releasePolls = sqliteTable(
  'release_polls',
  {
    seriesId: cascadingReference('series_id', () => series.id),
    sourceId: cascadingReference('source_id', () => releaseSources.id),
    /** When the series is next due at this source; set ahead by a lease while a message is queued. */
    nextPollAt: text('next_poll_at').notNull(),
    lastPolledAt: text('last_polled_at'),
    lastError: text('last_error'),
    /** The provider's id the last poll used, found through a title or an alias when none was given. */
    matchedId: text('matched_id'),
    chapterCount: real('chapter_count'),
    volumeCount: integer('volume_count'),
    status: text('status'),
  },
  (t) => [
    primaryKey({ columns: [t.seriesId, t.sourceId] }),
    index('release_polls_due_idx').on(t.sourceId, t.nextPollAt),
  ],
);

export const RELEASE_STATES = ['announced', 'dismissed', 'marked_acquired', 'ignored', 'hidden'] as const;
export type ReleaseState = (typeof RELEASE_STATES)[number];

/**
 * Announced releases, one row per release a source reported (Codex `release_ledger`), deduplicated by
 * `(source_id, external_release_id)` across polls. Chapters and volumes are one span each (`*_start` to the
 * highest value); a single chapter has start = end.
 */
export const releaseLedger = sqliteTable(
  'release_ledger',
  {
    id: id(),
    seriesId: cascadingReference('series_id', () => series.id),
    sourceId: cascadingReference('source_id', () => releaseSources.id),
    externalReleaseId: text('external_release_id').notNull(),
    chapterStart: real('chapter_start'),
    chapter: real('chapter'),
    volumeStart: integer('volume_start'),
    volume: integer('volume'),
    language: text('language'),
    groupOrUploader: text('group_or_uploader'),
    payloadUrl: text('payload_url').notNull(),
    confidence: real('confidence').notNull(),
    state: text('state', { enum: RELEASE_STATES }).notNull().default('announced'),
    /** What the provider said beyond the columns (its release title), for display. */
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    observedAt: text('observed_at').notNull(),
    releasedAt: text('released_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('release_ledger_source_release_unique').on(t.sourceId, t.externalReleaseId),
    // A series' releases by state: the acquire check after a scan, the series' own ledger.
    index('release_ledger_series_state_idx').on(t.seriesId, t.state),
    // The inbox: one state, newest first.
    index('release_ledger_state_observed_idx').on(t.state, sql`${t.observedAt} DESC`),
  ],
);
