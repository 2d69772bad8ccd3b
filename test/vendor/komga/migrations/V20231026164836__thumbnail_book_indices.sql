create index idx__thumbnail_book__width
    on THUMBNAIL_BOOK (WIDTH);
create index idx__thumbnail_book__height
    on THUMBNAIL_BOOK (HEIGHT);
create index idx__thumbnail_book__file_size
    on THUMBNAIL_BOOK (FILE_SIZE);
