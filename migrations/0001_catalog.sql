CREATE TABLE `book_pages` (
	`book_id` text NOT NULL,
	`number` integer NOT NULL,
	`file_name` text NOT NULL,
	`media_type` text NOT NULL,
	`width` integer,
	`height` integer,
	`size` integer NOT NULL,
	`locator` text NOT NULL,
	PRIMARY KEY(`book_id`, `number`),
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `book_terms` (
	`book_id` text NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`book_id`, `kind`, `value`),
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `book_terms_value_idx` ON `book_terms` (`kind`,`value`);--> statement-breakpoint
CREATE TABLE `books` (
	`id` text PRIMARY KEY NOT NULL,
	`library_id` text NOT NULL,
	`series_id` text NOT NULL,
	`path` text NOT NULL,
	`file_name` text NOT NULL,
	`file_format` text NOT NULL,
	`file_size` integer NOT NULL,
	`etag` text NOT NULL,
	`file_modified_at` text NOT NULL,
	`file_hash` text DEFAULT '' NOT NULL,
	`reader_hash` text,
	`title` text NOT NULL,
	`title_sort` text NOT NULL,
	`summary` text,
	`number` integer,
	`sort_key` text NOT NULL,
	`volume` integer,
	`chapter` real,
	`publisher` text,
	`year` integer,
	`authors` text DEFAULT '[]' NOT NULL,
	`language` text,
	`reading_direction` text,
	`page_count` integer DEFAULT 0 NOT NULL,
	`epub_layout` text,
	`analyzed` integer DEFAULT false NOT NULL,
	`analysis_error` text,
	`container_index` text,
	`thumbnail_key` text,
	`thumbnail_updated_at` text,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`library_id`) REFERENCES `libraries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `books_library_path_unique` ON `books` (`library_id`,`path`);--> statement-breakpoint
CREATE INDEX `books_series_sort_idx` ON `books` (`series_id`,`sort_key`);--> statement-breakpoint
CREATE INDEX `books_title_sort_idx` ON `books` (`title_sort`);--> statement-breakpoint
CREATE INDEX `books_created_idx` ON `books` (`created_at`);--> statement-breakpoint
CREATE INDEX `books_updated_idx` ON `books` (`updated_at`);--> statement-breakpoint
CREATE INDEX `books_file_hash_idx` ON `books` (`file_hash`);--> statement-breakpoint
CREATE TABLE `libraries` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`path` text NOT NULL,
	`default_reading_direction` text DEFAULT 'ltr' NOT NULL,
	`scanning_config` text NOT NULL,
	`thumbnail_key` text,
	`thumbnail_updated_at` text,
	`last_scanned_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `libraries_name_unique` ON `libraries` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `libraries_path_unique` ON `libraries` (`path`);--> statement-breakpoint
CREATE TABLE `read_progress` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`book_id` text NOT NULL,
	`current_page` integer NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`completed_at` text,
	`progress_percentage` real,
	`device_id` text,
	`device_name` text,
	`started_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `read_progress_user_book_unique` ON `read_progress` (`user_id`,`book_id`);--> statement-breakpoint
CREATE INDEX `read_progress_user_updated_idx` ON `read_progress` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `read_progress_book_idx` ON `read_progress` (`book_id`);--> statement-breakpoint
CREATE TABLE `want_to_read` (
	`user_id` text NOT NULL,
	`book_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `book_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `series` (
	`id` text PRIMARY KEY NOT NULL,
	`library_id` text NOT NULL,
	`path` text,
	`group_key` text NOT NULL,
	`title` text NOT NULL,
	`title_sort` text NOT NULL,
	`summary` text,
	`publisher` text,
	`year` integer,
	`language` text,
	`status` text,
	`reading_direction` text,
	`book_count` integer DEFAULT 0 NOT NULL,
	`page_count` integer DEFAULT 0 NOT NULL,
	`file_size` integer DEFAULT 0 NOT NULL,
	`local_max_chapter` real,
	`local_max_volume` integer,
	`volumes_owned` integer,
	`has_custom_cover` integer DEFAULT false NOT NULL,
	`selected_cover_source` text DEFAULT 'first_book' NOT NULL,
	`thumbnail_key` text,
	`thumbnail_updated_at` text,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`library_id`) REFERENCES `libraries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `series_library_group_idx` ON `series` (`library_id`,`group_key`);--> statement-breakpoint
CREATE INDEX `series_title_sort_idx` ON `series` (`title_sort`);--> statement-breakpoint
CREATE INDEX `series_created_idx` ON `series` (`created_at`);--> statement-breakpoint
CREATE INDEX `series_updated_idx` ON `series` (`updated_at`);--> statement-breakpoint
CREATE TABLE `series_terms` (
	`series_id` text NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`series_id`, `kind`, `value`),
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `series_terms_value_idx` ON `series_terms` (`kind`,`value`);--> statement-breakpoint
CREATE TABLE `series_tracking` (
	`series_id` text PRIMARY KEY NOT NULL,
	`chapter_tracking` integer DEFAULT true NOT NULL,
	`volume_tracking` integer DEFAULT true NOT NULL,
	`provider_name` text,
	`provider_chapter_count` real,
	`provider_volume_count` integer,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `duplicate_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`file_hash` text NOT NULL,
	`book_ids` text NOT NULL,
	`file_size` integer NOT NULL,
	`dismissed_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `duplicate_groups_file_hash_unique` ON `duplicate_groups` (`file_hash`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`unique_key` text NOT NULL,
	`library_id` text,
	`target_id` text,
	`payload` text DEFAULT '{}' NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`progress_current` integer DEFAULT 0 NOT NULL,
	`progress_total` integer DEFAULT 0 NOT NULL,
	`progress_message` text DEFAULT '' NOT NULL,
	`result` text,
	`error` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`started_at` text,
	`completed_at` text
);
--> statement-breakpoint
CREATE INDEX `tasks_status_created_idx` ON `tasks` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `tasks_unique_key_idx` ON `tasks` (`unique_key`,`status`);--> statement-breakpoint
CREATE INDEX `tasks_created_idx` ON `tasks` (`created_at`);