-- Issue 35: GET /reading-stats for a heavy reader reads only indexes. The window's sittings come from a covering
-- index in time order; "read before the window" is answered from the book index (now with the start); each book
-- read is looked up, in id order, in a covering index of what the statistics group and test by
-- (src/repositories/reading-stats.repository.ts; docs/DECISIONS.md §Reading statistics).
DROP INDEX `reading_sessions_user_started_idx`;--> statement-breakpoint
DROP INDEX `reading_sessions_user_book_ended_idx`;--> statement-breakpoint
CREATE INDEX `reading_sessions_user_started_idx` ON `reading_sessions` (`user_id`,`started_at`,`book_id`,`device_id`,`device_name`,`ended_at`,`measured_ms`,`inferred_ms`,`pages_read`,`finished`);--> statement-breakpoint
CREATE INDEX `reading_sessions_user_book_ended_idx` ON `reading_sessions` (`user_id`,`book_id`,`ended_at`,`started_at`);--> statement-breakpoint
CREATE INDEX `books_reading_stats_idx` ON `books` (`id`,`series_id`,`library_id`,`file_format`,`authors`);