ALTER TABLE `read_progress` ADD `reader_device_id` text;--> statement-breakpoint
ALTER TABLE `read_progress` ADD `reader_device_name` text;