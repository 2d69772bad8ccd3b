alter table MEDIA
    add column EPUB_IS_KEPUB boolean NOT NULL DEFAULT 0;
