/** The catalog read side and reading progress (API.md §4 Series, Books, Reading progress, Duplicates) for the service graph. */
import type { Database } from '../db/client';
import { BooksRepository } from '../repositories/books.repository';
import { DuplicatesRepository } from '../repositories/duplicates.repository';
import { ReadProgressRepository } from '../repositories/read-progress.repository';
import { SeriesRepository } from '../repositories/series.repository';
import { BookQueryService } from './book-query.service';
import { DuplicatesQueryService } from './duplicates-query.service';
import { ReadProgressService } from './read-progress.service';
import { SeriesQueryService } from './series-query.service';

export function createCatalogReadServices(db: Database) {
  const series = new SeriesRepository(db);
  const books = new BooksRepository(db);
  return {
    seriesQuery: new SeriesQueryService(series),
    bookQuery: new BookQueryService(books, series),
    readProgress: new ReadProgressService(new ReadProgressRepository(db), books, series),
    duplicates: new DuplicatesQueryService(new DuplicatesRepository(db)),
  };
}
