-- Books scanned before number_sort existed: their full number is the chapter column when it carries the
-- fraction of the stored number (ComicInfo's "2.5", a file name's "c12.5"), else the number itself. A file
-- name's bare trailing fraction ("Saga 2.5") was not kept before; the next deep scan restores it.
UPDATE `books` SET `number_sort` = CASE
  WHEN `number` IS NOT NULL AND `chapter` IS NOT NULL AND CAST(`chapter` AS INTEGER) = `number` THEN `chapter`
  ELSE `number`
END;
