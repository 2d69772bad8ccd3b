alter table library
    add column IMPORT_MYLAR_SERIES boolean NOT NULL DEFAULT 1;
