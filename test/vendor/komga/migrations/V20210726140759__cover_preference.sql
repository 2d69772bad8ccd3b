alter table library
    add column SERIES_COVER varchar NOT NULL DEFAULT 'FIRST';
