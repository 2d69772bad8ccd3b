alter table media_page
    add column width int NULL;
alter table media_page
    add column height int NULL;
