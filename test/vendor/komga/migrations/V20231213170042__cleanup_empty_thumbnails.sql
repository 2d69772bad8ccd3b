delete
from THUMBNAIL_BOOK
where TYPE = 'GENERATED'
  and THUMBNAIL is null;
