-- Issue 19. want_to_read is rebuilt as series-or-book (the rows kept are the existing books, position 0).
CREATE TABLE `book_story_arcs` (
	`book_id` text NOT NULL,
	`name` text NOT NULL,
	`number` integer,
	PRIMARY KEY(`book_id`, `name`),
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `collection_series` (
	`collection_id` text NOT NULL,
	`series_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`collection_id`, `series_id`),
	FOREIGN KEY (`collection_id`) REFERENCES `collections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `collection_series_order_idx` ON `collection_series` (`collection_id`,`position`,`series_id`);--> statement-breakpoint
CREATE INDEX `collection_series_series_idx` ON `collection_series` (`series_id`);--> statement-breakpoint
CREATE TABLE `collections` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`summary` text,
	`ordered` integer DEFAULT false NOT NULL,
	`rule` text,
	`pinned_to_home` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collections_name_unique` ON `collections` (lower("name"));--> statement-breakpoint
CREATE TABLE `read_list_books` (
	`read_list_id` text NOT NULL,
	`book_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`read_list_id`, `book_id`),
	FOREIGN KEY (`read_list_id`) REFERENCES `read_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `read_list_books_order_idx` ON `read_list_books` (`read_list_id`,`position`,`book_id`);--> statement-breakpoint
CREATE INDEX `read_list_books_book_idx` ON `read_list_books` (`book_id`);--> statement-breakpoint
CREATE TABLE `read_lists` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`ordered` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `read_lists_name_unique` ON `read_lists` (lower("name"));--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_want_to_read` (
	`user_id` text NOT NULL,
	`book_id` text,
	`series_id` text,
	`created_at` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "want_to_read_series_xor_book" CHECK((book_id IS NULL) <> (series_id IS NULL))
);
--> statement-breakpoint
INSERT INTO `__new_want_to_read`("user_id", "book_id", "series_id", "created_at", "position") SELECT "user_id", "book_id", NULL, "created_at", 0 FROM `want_to_read`;--> statement-breakpoint
DROP TABLE `want_to_read`;--> statement-breakpoint
ALTER TABLE `__new_want_to_read` RENAME TO `want_to_read`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `want_to_read_user_book_unique` ON `want_to_read` (`user_id`,`book_id`) WHERE book_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `want_to_read_user_series_unique` ON `want_to_read` (`user_id`,`series_id`) WHERE series_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `want_to_read_user_order_idx` ON `want_to_read` (`user_id`,`position`,`created_at`);--> statement-breakpoint
ALTER TABLE `libraries` ADD `import_story_arc_read_lists` integer DEFAULT false NOT NULL;