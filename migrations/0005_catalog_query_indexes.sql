DROP INDEX `book_terms_value_nocase_idx`;--> statement-breakpoint
CREATE INDEX `book_terms_value_nocase_idx` ON `book_terms` (`kind`,"value" COLLATE NOCASE,`book_id`);--> statement-breakpoint
DROP INDEX `read_progress_user_updated_idx`;--> statement-breakpoint
CREATE INDEX `read_progress_user_updated_idx` ON `read_progress` (`user_id`,`updated_at`,`completed`,`book_id`);--> statement-breakpoint
DROP INDEX `series_terms_value_nocase_idx`;--> statement-breakpoint
CREATE INDEX `series_terms_value_nocase_idx` ON `series_terms` (`kind`,"value" COLLATE NOCASE,`series_id`);--> statement-breakpoint
CREATE INDEX `books_live_catalog_idx` ON `books` (`id`,`library_id`,`series_id`,`title`,"title_sort" COLLATE NOCASE,`deleted_at`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `books_live_reading_order_idx` ON `books` (`series_id`,"number" IS NULL,`number`,`sort_key`,`id`) WHERE deleted_at IS NULL;