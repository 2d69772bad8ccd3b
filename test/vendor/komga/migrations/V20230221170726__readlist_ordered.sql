alter table READLIST
    add column ORDERED boolean NOT NULL DEFAULT 1;
