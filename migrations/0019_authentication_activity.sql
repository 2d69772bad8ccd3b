CREATE TABLE `authentication_activity` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`email` text,
	`api_key_id` text,
	`api_key_name` text,
	`ip` text,
	`user_agent` text,
	`success` integer NOT NULL,
	`error` text,
	`source` text NOT NULL,
	`date_time` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `authentication_activity_user_idx` ON `authentication_activity` (`user_id`,`date_time`);--> statement-breakpoint
CREATE INDEX `authentication_activity_date_idx` ON `authentication_activity` (`date_time`);