-- DECISIONS.md §Reader apps: progress may carry a locator (an EPUB CFI or a KOReader xpointer, at most
-- 4 KiB), stored as sent and returned to the next device.
ALTER TABLE `read_progress` ADD `locator` text;
--> statement-breakpoint
-- KOReader sync finds a book by its document hash (readerHash, stored lowercase).
CREATE INDEX `books_reader_hash_idx` ON `books` (`reader_hash`);
