-- Hand-edited after drizzle-kit generate: WITHOUT ROWID on the two device tables (drizzle cannot declare it;
-- a device's rows are then one range of the primary key). Kobo sync: src/db/tables/kobo.ts.
CREATE TABLE `kobo_device_books` (
	`api_key_id` text NOT NULL,
	`book_id` text NOT NULL,
	`state` text NOT NULL,
	`fingerprint` text NOT NULL,
	`generation` integer NOT NULL,
	`progress_at` text,
	PRIMARY KEY(`api_key_id`, `book_id`),
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "kobo_device_books_state" CHECK(state IN ('sent', 'removed', 'withheld'))
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `kobo_device_shelves` (
	`api_key_id` text NOT NULL,
	`list_id` text NOT NULL,
	`state` text NOT NULL,
	`fingerprint` text NOT NULL,
	`generation` integer NOT NULL,
	PRIMARY KEY(`api_key_id`, `list_id`),
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "kobo_device_shelves_state" CHECK(state IN ('sent', 'removed'))
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `reading_statistics` (
	`user_id` text NOT NULL,
	`book_id` text NOT NULL,
	`device_id` text NOT NULL,
	`device_name` text NOT NULL,
	`spent_reading_minutes` integer NOT NULL,
	`remaining_time_minutes` integer,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `book_id`, `device_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reading_statistics_book_idx` ON `reading_statistics` (`book_id`);