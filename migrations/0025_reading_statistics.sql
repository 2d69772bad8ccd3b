CREATE TABLE `reading_device_names` (
	`user_id` text NOT NULL,
	`device_id` text NOT NULL,
	`name` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `device_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reading_session_receipts` (
	`user_id` text NOT NULL,
	`client_id` text NOT NULL,
	`session_id` text NOT NULL,
	`batch_id` text NOT NULL,
	`received_at` text NOT NULL,
	`replaced` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`user_id`, `client_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reading_session_receipts_batch_idx` ON `reading_session_receipts` (`batch_id`);--> statement-breakpoint
CREATE INDEX `reading_session_receipts_received_idx` ON `reading_session_receipts` (`received_at`);--> statement-breakpoint
CREATE TABLE `reading_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`book_id` text NOT NULL,
	`device_id` text NOT NULL,
	`device_name` text NOT NULL,
	`started_at` text NOT NULL,
	`ended_at` text NOT NULL,
	`measured_ms` integer,
	`inferred_ms` integer,
	`pages_read` integer,
	`last_page` integer,
	`finished` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reading_sessions_user_started_idx` ON `reading_sessions` (`user_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `reading_sessions_user_book_ended_idx` ON `reading_sessions` (`user_id`,`book_id`,`ended_at`);--> statement-breakpoint
CREATE INDEX `reading_sessions_started_idx` ON `reading_sessions` (`started_at`);