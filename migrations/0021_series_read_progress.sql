-- Hand-edited after drizzle-kit generate: WITHOUT ROWID (drizzle cannot declare it; the primary key is then
-- the table, so a user's rows and their counts are one index range) and the backfill at the end.
CREATE TABLE `series_read_progress` (
	`user_id` text NOT NULL,
	`series_id` text NOT NULL,
	`read_count` integer NOT NULL,
	`in_progress_count` integer NOT NULL,
	PRIMARY KEY(`user_id`, `series_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `series_read_progress_series_idx` ON `series_read_progress` (`series_id`);
--> statement-breakpoint
-- Every user's progress in each series, over its live books (src/db/tables/reading.ts seriesReadProgress).
INSERT INTO `series_read_progress` (`user_id`, `series_id`, `read_count`, `in_progress_count`)
SELECT rp.`user_id`, b.`series_id`, sum(rp.`completed`), count(*) - sum(rp.`completed`)
FROM `read_progress` rp JOIN `books` b ON b.`id` = rp.`book_id`
WHERE b.`deleted_at` IS NULL
GROUP BY rp.`user_id`, b.`series_id`;
