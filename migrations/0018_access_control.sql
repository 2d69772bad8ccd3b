CREATE TABLE `api_key_libraries` (
	`api_key_id` text NOT NULL,
	`library_id` text NOT NULL,
	PRIMARY KEY(`api_key_id`, `library_id`),
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`library_id`) REFERENCES `libraries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `api_key_libraries_library_idx` ON `api_key_libraries` (`library_id`);--> statement-breakpoint
CREATE TABLE `series_sharing_labels` (
	`series_id` text NOT NULL,
	`label_id` text NOT NULL,
	PRIMARY KEY(`series_id`, `label_id`),
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`label_id`) REFERENCES `sharing_labels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `series_sharing_labels_label_idx` ON `series_sharing_labels` (`label_id`,`series_id`);--> statement-breakpoint
CREATE TABLE `sharing_labels` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sharing_labels_name_unique` ON `sharing_labels` ("name" COLLATE NOCASE);--> statement-breakpoint
CREATE TABLE `user_library_access` (
	`user_id` text NOT NULL,
	`library_id` text NOT NULL,
	PRIMARY KEY(`user_id`, `library_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`library_id`) REFERENCES `libraries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_library_access_library_idx` ON `user_library_access` (`library_id`);--> statement-breakpoint
CREATE TABLE `user_sharing_labels` (
	`user_id` text NOT NULL,
	`label_id` text NOT NULL,
	`mode` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `label_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`label_id`) REFERENCES `sharing_labels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_sharing_labels_label_idx` ON `user_sharing_labels` (`label_id`);--> statement-breakpoint
DROP INDEX `books_live_reading_order_idx`;--> statement-breakpoint
ALTER TABLE `books` ADD `age_rating` integer;--> statement-breakpoint
CREATE INDEX `books_live_reading_order_idx` ON `books` (`series_id`,"number_sort" IS NULL,`number_sort`,`sort_key`,`id`,`deleted_at`) WHERE deleted_at IS NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `all_libraries` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `age_rating` integer;--> statement-breakpoint
ALTER TABLE `series` ADD `age_rating_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `series` ADD `sharing_labels_lock` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `series_age_rating_idx` ON `series` (`age_rating`,`id`);--> statement-breakpoint
ALTER TABLE `users` ADD `shared_all_libraries` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `age_restriction_age` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `age_restriction_mode` text;