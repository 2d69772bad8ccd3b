-- Full-text search over the catalog (API.md §4 fullTextSearch, POST /series/search; DECISIONS.md §Lists):
-- prefix- and diacritic-insensitive. Rows are written in the same batch as the book/series rows they mirror.
CREATE VIRTUAL TABLE `catalog_search` USING fts5(
	`entity_type` UNINDEXED,
	`entity_id` UNINDEXED,
	`library_id` UNINDEXED,
	`title`,
	`series_title`,
	`summary`,
	`authors`,
	`publishers`,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3 4'
);
