alter table MEDIA
    add column EPUB_DIVINA_COMPATIBLE boolean NOT NULL DEFAULT 0;
