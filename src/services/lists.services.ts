/** Collections, read lists, CBL import and want-to-read (docs/DECISIONS.md §Organise and share) for the service graph. */
import type { Database } from '../db/client';
import type { FeedExtrasRead } from '../repositories/book-extras.repository';
import type { EventPublisher } from '../events/events';
import { BooksRepository } from '../repositories/books.repository';
import { CollectionsRepository } from '../repositories/collections.repository';
import { ReadListsRepository } from '../repositories/read-lists.repository';
import { SeriesRepository } from '../repositories/series.repository';
import { WantToReadRepository } from '../repositories/want-to-read.repository';
import type { BookQueryService } from './book-query.service';
import { CblImportService } from './cbl-import.service';
import { CollectionsService } from './collections.service';
import { ReadListsService } from './read-lists.service';
import type { SeriesQueryService } from './series-query.service';
import { WantToReadService } from './want-to-read.service';

/** `extrasRead`: as createCatalogReadServices'. */
export function createListServices(
  db: Database,
  deps: { seriesQuery: SeriesQueryService; bookQuery: BookQueryService; events: EventPublisher },
  extrasRead: FeedExtrasRead | null = null,
) {
  const series = new SeriesRepository(db, extrasRead);
  const books = new BooksRepository(db, extrasRead);
  const readListRows = new ReadListsRepository(db);
  const readLists = new ReadListsService({ readLists: readListRows, books, events: deps.events });
  return {
    collections: new CollectionsService({ collections: new CollectionsRepository(db), series, ...deps }),
    readLists,
    cblImport: new CblImportService(readListRows, readLists),
    wantToRead: new WantToReadService(new WantToReadRepository(db), series, books),
  };
}
