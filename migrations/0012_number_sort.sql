DROP INDEX `books_live_reading_order_idx`;--> statement-breakpoint
ALTER TABLE `books` ADD `number_sort` real;--> statement-breakpoint
CREATE INDEX `books_live_reading_order_idx` ON `books` (`series_id`,"number_sort" IS NULL,`number_sort`,`sort_key`,`id`) WHERE deleted_at IS NULL;