-- Issue 18. Full-text search also finds a book or series by its terms (genres, tags, characters, teams,
-- locations, ISBN): FTS5 tables cannot gain a column, so the index is rebuilt with a `terms` column, keeping
-- every row's rowid (src/repositories/search-index.ts searchRowId) and filling `terms` from the term tables.
CREATE VIRTUAL TABLE `catalog_search_next` USING fts5(
	`entity_type` UNINDEXED,
	`entity_id` UNINDEXED,
	`library_id` UNINDEXED,
	`title`,
	`series_title`,
	`summary`,
	`authors`,
	`publishers`,
	`terms`,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3 4'
);
--> statement-breakpoint
INSERT INTO `catalog_search_next` (`rowid`, `entity_type`, `entity_id`, `library_id`, `title`, `series_title`, `summary`, `authors`, `publishers`, `terms`)
SELECT `rowid`, `entity_type`, `entity_id`, `library_id`, `title`, `series_title`, `summary`, `authors`, `publishers`,
	CASE `entity_type`
		WHEN 'book' THEN coalesce((SELECT group_concat(`value`, ' ; ') FROM `book_terms` WHERE `book_id` = `entity_id`), '')
		ELSE coalesce((SELECT group_concat(`value`, ' ; ') FROM `series_terms` WHERE `series_id` = `entity_id`), '')
	END
FROM `catalog_search`;
--> statement-breakpoint
DROP TABLE `catalog_search`;
--> statement-breakpoint
ALTER TABLE `catalog_search_next` RENAME TO `catalog_search`;
--> statement-breakpoint
-- The credits already stored as JSON, one row each (the author filters read these indexes).
INSERT OR IGNORE INTO `book_authors` (`book_id`, `name`, `role`)
SELECT b.`id`, json_extract(a.value, '$.name'), coalesce(nullif(json_extract(a.value, '$.role'), ''), 'writer')
FROM `books` b, json_each(b.`authors`) a
WHERE json_extract(a.value, '$.name') IS NOT NULL AND json_extract(a.value, '$.name') <> '';
--> statement-breakpoint
-- A series' credits: its live books' (src/repositories/catalog-writer.repository.ts derives them the same way).
UPDATE `series` SET `authors` = coalesce((
	SELECT json_group_array(json_object('name', `name`, 'role', `role`)) FROM (
		SELECT ba.`name` AS `name`, ba.`role` AS `role` FROM `book_authors` ba JOIN `books` b ON b.`id` = ba.`book_id`
		WHERE b.`series_id` = `series`.`id` AND b.`deleted_at` IS NULL
		GROUP BY ba.`name` COLLATE NOCASE, ba.`role`
		ORDER BY CASE ba.`role` WHEN 'writer' THEN 0 WHEN 'penciller' THEN 1 WHEN 'inker' THEN 2 WHEN 'colorist' THEN 3
			WHEN 'letterer' THEN 4 WHEN 'cover' THEN 5 WHEN 'editor' THEN 6 WHEN 'translator' THEN 7 ELSE 8 END,
			ba.`role`, ba.`name` COLLATE NOCASE
	)
), '[]');
--> statement-breakpoint
INSERT OR IGNORE INTO `series_authors` (`series_id`, `name`, `role`)
SELECT s.`id`, json_extract(a.value, '$.name'), json_extract(a.value, '$.role') FROM `series` s, json_each(s.`authors`) a;
