-- Series search rows move to negative rowids, book rows stay positive (src/repositories/search-index.ts
-- searchRowId): a MATCH restricted by `rowid < 0` reads only the series part of each FTS doclist, instead
-- of every matching book row's content to check its entity_type. Same rows, same text, same ranking.
UPDATE `catalog_search` SET `rowid` = -`rowid` - 1 WHERE `entity_type` = 'series' AND `rowid` >= 0;
