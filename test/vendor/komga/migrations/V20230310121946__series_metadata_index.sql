create index if not exists idx__series_metadata__title
    on SERIES_METADATA (TITLE);
