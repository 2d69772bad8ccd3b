alter table library
    add column IMPORT_LOCAL_ARTWORK boolean NOT NULL DEFAULT 1;
