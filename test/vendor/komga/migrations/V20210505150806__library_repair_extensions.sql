alter table library
    add column REPAIR_EXTENSIONS boolean NOT NULL DEFAULT 0;
