-- Issue 11: per-book work on Cloudflare Queues. A thumbnail that cannot be made is recorded instead of
-- retried forever; work_queued_at says when the book's last queue message was sent, so the cron re-queues
-- only books whose message got lost (local queues forget on restart; production retries are bounded).
ALTER TABLE `books` ADD `thumbnail_error` text;--> statement-breakpoint
ALTER TABLE `books` ADD `work_queued_at` text;--> statement-breakpoint
CREATE INDEX `books_incomplete_idx` ON `books` (`library_id`,`work_queued_at`) WHERE deleted_at IS NULL AND analysis_error IS NULL AND (file_hash = '' OR analyzed = 0 OR (thumbnail_key IS NULL AND thumbnail_error IS NULL));
