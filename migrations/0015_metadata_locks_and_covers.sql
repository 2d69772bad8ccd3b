CREATE TABLE `book_authors` (
	`book_id` text NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	PRIMARY KEY(`book_id`, `name`, `role`),
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `book_authors_name_nocase_idx` ON `book_authors` ("name" COLLATE NOCASE,`role`,`book_id`);--> statement-breakpoint
CREATE TABLE `covers` (
	`id` text PRIMARY KEY NOT NULL,
	`series_id` text,
	`book_id` text,
	`media_type` text NOT NULL,
	`file_size` integer NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`selected` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `covers_series_idx` ON `covers` (`series_id`) WHERE series_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `covers_book_idx` ON `covers` (`book_id`) WHERE book_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `series_authors` (
	`series_id` text NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	PRIMARY KEY(`series_id`, `name`, `role`),
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `series_authors_name_nocase_idx` ON `series_authors` ("name" COLLATE NOCASE,`role`,`series_id`);--> statement-breakpoint
ALTER TABLE `books` ADD `title_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `title_sort_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `summary_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `number_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `number_sort_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `volume_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `chapter_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `publisher_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `imprint` text;--> statement-breakpoint
ALTER TABLE `books` ADD `imprint_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `year_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `month` integer;--> statement-breakpoint
ALTER TABLE `books` ADD `month_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `day` integer;--> statement-breakpoint
ALTER TABLE `books` ADD `day_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `authors_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `language_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `isbn` text;--> statement-breakpoint
ALTER TABLE `books` ADD `isbn_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `format` text;--> statement-breakpoint
ALTER TABLE `books` ADD `format_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `count` integer;--> statement-breakpoint
ALTER TABLE `books` ADD `count_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `links` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `links_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `genres_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `tags_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `characters_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `teams_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `locations_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `books` ADD `file_metadata` text;--> statement-breakpoint
ALTER TABLE `series` ADD `title_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `title_sort_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `summary_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `publisher_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `imprint` text;--> statement-breakpoint
ALTER TABLE `series` ADD `imprint_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `year_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `language_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `status_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `reading_direction_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `total_book_count` integer;--> statement-breakpoint
ALTER TABLE `series` ADD `total_book_count_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `authors` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `authors_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `links` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `links_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `alternate_titles` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `alternate_titles_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `genres_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `tags_lock` integer DEFAULT false NOT NULL;