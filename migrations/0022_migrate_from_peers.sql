-- Hand-edited after drizzle-kit generate: the unique name indexes' first expression (drizzle-kit splits
-- `coalesce(a, b)` at its comma) and ON DELETE cascade on the owner columns, which drizzle-kit leaves out of
-- ALTER TABLE … ADD (src/db/tables/lists.ts declares it).
CREATE TABLE `import_origins` (
	`source` text NOT NULL,
	`kind` text NOT NULL,
	`foreign_id` text NOT NULL,
	`longbox_id` text NOT NULL,
	`imported_at` text NOT NULL,
	PRIMARY KEY(`source`, `kind`, `foreign_id`)
);
--> statement-breakpoint
DROP INDEX `collections_name_unique`;--> statement-breakpoint
ALTER TABLE `collections` ADD `owner_user_id` text REFERENCES users(id) ON DELETE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX `collections_name_unique` ON `collections` (coalesce("owner_user_id", ''),lower("name"));--> statement-breakpoint
DROP INDEX `read_lists_name_unique`;--> statement-breakpoint
ALTER TABLE `read_lists` ADD `owner_user_id` text REFERENCES users(id) ON DELETE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX `read_lists_name_unique` ON `read_lists` (coalesce("owner_user_id", ''),lower("name"));--> statement-breakpoint
ALTER TABLE `api_keys` ADD `format` text DEFAULT 'longbox' NOT NULL;--> statement-breakpoint
CREATE INDEX `books_file_size_name_idx` ON `books` (`file_size`,`file_name`);
