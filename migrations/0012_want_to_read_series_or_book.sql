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
INSERT INTO `__new_want_to_read`("user_id", "book_id", "series_id", "created_at", "position") SELECT "user_id", "book_id", "series_id", "created_at", "position" FROM `want_to_read`;--> statement-breakpoint
DROP TABLE `want_to_read`;--> statement-breakpoint
ALTER TABLE `__new_want_to_read` RENAME TO `want_to_read`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `want_to_read_user_book_unique` ON `want_to_read` (`user_id`,`book_id`) WHERE book_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `want_to_read_user_series_unique` ON `want_to_read` (`user_id`,`series_id`) WHERE series_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `want_to_read_user_order_idx` ON `want_to_read` (`user_id`,`position`,`created_at`);