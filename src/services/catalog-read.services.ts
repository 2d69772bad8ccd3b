/** The catalog read side and reading progress (API.md §4 Series, Books, Reading progress, Duplicates) for the service graph. */
import type { Database } from '../db/client';
import type { FeedExtrasRead } from '../repositories/book-extras.repository';
import { BooksRepository } from '../repositories/books.repository';
import { DuplicatesRepository } from '../repositories/duplicates.repository';
import { ReadProgressRepository } from '../repositories/read-progress.repository';
import { SeriesRepository } from '../repositories/series.repository';
import { BookQueryService } from './book-query.service';
import { DuplicatesQueryService } from './duplicates-query.service';
import { ReadProgressService } from './read-progress.service';
import { SeriesQueryService } from './series-query.service';

/** `extrasRead`: book lists keep each row's OPDS extras there (book-extras.repository.ts): the OPDS feeds' services. */
export function createCatalogReadServices(db: Database, extrasRead: FeedExtrasRead | null = null) {
  const series = new SeriesRepository(db, extrasRead);
  const books = new BooksRepository(db, extrasRead);
  return {
    seriesQuery: new SeriesQueryService(series),
    bookQuery: new BookQueryService(books, series),
    readProgress: new ReadProgressService(new ReadProgressRepository(db), books, series),
    duplicates: new DuplicatesQueryService(new DuplicatesRepository(db)),
  };
}
