DROP INDEX `book_terms_value_idx`;--> statement-breakpoint
CREATE INDEX `book_terms_value_nocase_idx` ON `book_terms` (`kind`,"value" COLLATE NOCASE);--> statement-breakpoint
DROP INDEX `series_terms_value_idx`;--> statement-breakpoint
CREATE INDEX `series_terms_value_nocase_idx` ON `series_terms` (`kind`,"value" COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `books_live_title_idx` ON `books` ("title_sort" COLLATE NOCASE,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `series_live_title_idx` ON `series` ("title_sort" COLLATE NOCASE,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `series_live_library_title_idx` ON `series` (`library_id`,"title_sort" COLLATE NOCASE,`id`) WHERE deleted_at IS NULL;