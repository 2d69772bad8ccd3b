-- Hand-edited after drizzle-kit generate: `created_at` of series_tracking gets a default (SQLite adds no NOT NULL
-- column without one), the rows already there are marked tracked, and the two built-in release sources are
-- inserted (src/db/tables/releases.ts).
CREATE TABLE `release_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`series_id` text NOT NULL,
	`source_id` text NOT NULL,
	`external_release_id` text NOT NULL,
	`chapter_start` real,
	`chapter` real,
	`volume_start` integer,
	`volume` integer,
	`language` text,
	`group_or_uploader` text,
	`payload_url` text NOT NULL,
	`confidence` real NOT NULL,
	`state` text DEFAULT 'announced' NOT NULL,
	`metadata` text,
	`observed_at` text NOT NULL,
	`released_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`source_id`) REFERENCES `release_sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `release_ledger_source_release_unique` ON `release_ledger` (`source_id`,`external_release_id`);--> statement-breakpoint
CREATE INDEX `release_ledger_series_state_idx` ON `release_ledger` (`series_id`,`state`);--> statement-breakpoint
CREATE INDEX `release_ledger_state_observed_idx` ON `release_ledger` (`state`,"observed_at" DESC);--> statement-breakpoint
CREATE TABLE `release_polls` (
	`series_id` text NOT NULL,
	`source_id` text NOT NULL,
	`next_poll_at` text NOT NULL,
	`last_polled_at` text,
	`last_error` text,
	`matched_id` text,
	`chapter_count` real,
	`volume_count` integer,
	`status` text,
	PRIMARY KEY(`series_id`, `source_id`),
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`source_id`) REFERENCES `release_sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `release_polls_due_idx` ON `release_polls` (`source_id`,`next_poll_at`);--> statement-breakpoint
CREATE TABLE `release_sources` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`source_key` text NOT NULL,
	`display_name` text NOT NULL,
	`kind` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`poll_interval_s` integer DEFAULT 86400 NOT NULL,
	`last_polled_at` text,
	`last_error` text,
	`last_error_at` text,
	`last_summary` text,
	`backoff_until` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `release_sources_source_key_unique` ON `release_sources` (`source_key`);--> statement-breakpoint
CREATE TABLE `series_aliases` (
	`id` text PRIMARY KEY NOT NULL,
	`series_id` text NOT NULL,
	`alias` text NOT NULL,
	`normalized` text NOT NULL,
	`source` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `series_aliases_series_normalized_unique` ON `series_aliases` (`series_id`,`normalized`);--> statement-breakpoint
CREATE TABLE `series_external_ids` (
	`id` text PRIMARY KEY NOT NULL,
	`series_id` text NOT NULL,
	`source` text NOT NULL,
	`external_id` text NOT NULL,
	`external_url` text,
	`origin` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `series_external_ids_series_source_unique` ON `series_external_ids` (`series_id`,`source`);--> statement-breakpoint
ALTER TABLE `series_tracking` ADD `tracked` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series_tracking` ADD `latest_known_chapter` real;--> statement-breakpoint
ALTER TABLE `series_tracking` ADD `latest_known_volume` integer;--> statement-breakpoint
ALTER TABLE `series_tracking` ADD `languages` text;--> statement-breakpoint
ALTER TABLE `series_tracking` ADD `poll_interval_override_s` integer;--> statement-breakpoint
ALTER TABLE `series_tracking` ADD `provider_status` text;--> statement-breakpoint
ALTER TABLE `series_tracking` ADD `created_at` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Rows written before `tracked` existed meant "tracked" (no code wrote any; tests did).
UPDATE `series_tracking` SET `tracked` = true, `created_at` = `updated_at`;--> statement-breakpoint
-- The built-in providers (src/releases/providers): one source each, enabled, polled every 24 h.
INSERT INTO `release_sources` (`id`, `provider`, `source_key`, `display_name`, `kind`, `enabled`, `poll_interval_s`, `created_at`, `updated_at`) VALUES
  ('b7d42596-7fb0-4d20-a5cb-cc6b530d82cb', 'mangaupdates', 'mangaupdates', 'MangaUpdates', 'api-feed', true, 86400, '2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'),
  ('0e3ea80d-f6ad-44aa-ad91-ca7befc55147', 'anilist', 'anilist', 'AniList', 'metadata-feed', true, 86400, '2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z');