CREATE TABLE `oidc_identities` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`subject` text NOT NULL,
	`email` text,
	`groups` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	`last_login_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oidc_identities_subject_unique` ON `oidc_identities` (`provider`,`subject`);--> statement-breakpoint
CREATE UNIQUE INDEX `oidc_identities_user_provider_unique` ON `oidc_identities` (`user_id`,`provider`);--> statement-breakpoint
CREATE TABLE `oidc_pending_logins` (
	`state` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`code_verifier` text NOT NULL,
	`nonce` text NOT NULL,
	`browser_binding_hash` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`return_to` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oidc_pending_logins_expires_idx` ON `oidc_pending_logins` (`expires_at`);