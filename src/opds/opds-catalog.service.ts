/**
 * The OPDS catalog's feeds (DECISIONS.md §Reader apps; issue: libraries, all series A–Z, recently
 * added, keep reading, on deck, an acquisition feed per series and per library, search), built on
 * the same query services as the API so a feed shows exactly what the API lists for the user.
 */
import { nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import type { BookDto } from '../schemas/book.schema';
import type { SeriesDto } from '../schemas/series.schema';
import type { BookQueryService } from '../services/book-query.service';
import type { ListResult } from '../services/catalog-list';
import type { LibrariesService } from '../services/libraries.service';
import type { SeriesQueryService } from '../services/series-query.service';
import type { BookExtrasRepository } from '../repositories/book-extras.repository';
import type { Viewer } from '../repositories/visibility';
import {
  type BookExtras,
  type CatalogFeed,
  feedUrn,
  type NavigationItem,
  type Publication,
  uuidUrn,
} from './catalog-model';

/** Feeds a reader app pages through: 100 entries unless it asks for another pageSize (at most 500). */
export const OPDS_PAGE_SIZE = 100;

const NO_EXTRAS: BookExtras = {
  authors: [],
  language: null,
  year: null,
  publisher: null,
  epubLayout: null,
  pageTypes: [],
};

export interface OpdsCatalogDeps {
  libraries: LibrariesService;
  seriesQuery: SeriesQueryService;
  bookQuery: BookQueryService;
  extras: BookExtrasRepository;
}

export class OpdsCatalogService {
  constructor(private readonly deps: OpdsCatalogDeps) {}

  /** The start feed: where everything else is reached from. */
  root(): CatalogFeed {
    const updated = nowIso();
    const item = (name: string, title: string, summary: string, target: NavigationItem['target']) => ({
      id: feedUrn(name),
      title,
      path: name,
      target,
      summary,
      updated,
    });
    return {
      id: feedUrn('catalog'),
      title: 'Longbox',
      path: 'catalog',
      kind: 'navigation',
      updated,
      navigation: [
        item('keep-reading', 'Keep reading', 'Books you have started', 'acquisition'),
        item('on-deck', 'On deck', 'The next book of the series you are reading', 'acquisition'),
        item('recently-added', 'Recently added', 'The newest books', 'acquisition'),
        item('series', 'All series', 'Every series, A to Z', 'navigation'),
        item('libraries', 'Libraries', 'Browse one library', 'navigation'),
      ],
      publications: [],
    };
  }

  async libraries(viewer: Viewer): Promise<CatalogFeed> {
    const libraries = await this.deps.libraries.list(viewer);
    return {
      id: feedUrn('libraries'),
      title: 'Libraries',
      path: 'libraries',
      kind: 'navigation',
      updated: latest(libraries.map((l) => l.updatedAt)),
      navigation: libraries.map((library) => ({
        id: uuidUrn(library.id),
        title: library.name,
        path: `libraries/${library.id}`,
        target: 'navigation',
        updated: library.updatedAt,
      })),
      publications: [],
    };
  }

  /** A library: its books as one acquisition feed, then its series A–Z (paged). */
  async library(viewer: Viewer, libraryId: string, page: PageRequest): Promise<CatalogFeed> {
    const [library, series] = await Promise.all([
      this.deps.libraries.getRecord(viewer, libraryId),
      this.deps.seriesQuery.list(viewer, { libraryId }, page),
    ]);
    const allBooks: NavigationItem = {
      id: feedUrn(`library:${libraryId}:books`),
      title: `All books in ${library.name}`,
      path: `libraries/${libraryId}/books`,
      target: 'acquisition',
      updated: library.updatedAt,
    };
    return {
      id: uuidUrn(libraryId),
      title: library.name,
      path: `libraries/${libraryId}`,
      kind: 'navigation',
      updated: library.updatedAt,
      navigation: [...(page.page === 1 ? [allBooks] : []), ...series.data.map(seriesItem)],
      publications: [],
      paging: { page: page.page, pageSize: page.pageSize, total: series.total },
    };
  }

  /**
   * The library's row (its name; 404 when unknown) is read alongside the page, not before it: each D1
   * round trip a feed waits for is felt on every page an app turns.
   */
  async libraryBooks(viewer: Viewer, libraryId: string, page: PageRequest): Promise<CatalogFeed> {
    const [library, books] = await Promise.all([
      this.deps.libraries.getRecord(viewer, libraryId),
      this.deps.bookQuery.list(viewer, { libraryId }, page),
    ]);
    return this.acquisition(
      viewer,
      feedUrn(`library:${libraryId}:books`),
      `${library.name}: all books`,
      `libraries/${libraryId}/books`,
      books,
      page,
    );
  }

  async allSeries(viewer: Viewer, page: PageRequest): Promise<CatalogFeed> {
    const series = await this.deps.seriesQuery.list(viewer, {}, page);
    return {
      id: feedUrn('series'),
      title: 'All series',
      path: 'series',
      kind: 'navigation',
      updated: latest(series.data.map((s) => s.updatedAt)),
      navigation: series.data.map(seriesItem),
      publications: [],
      paging: { page: page.page, pageSize: page.pageSize, total: series.total },
    };
  }

  /** A series' books in reading order. */
  async series(viewer: Viewer, seriesId: string, page: PageRequest): Promise<CatalogFeed> {
    // The series lookup answers the 404; the page is read alongside it (an unknown series has no books).
    const [series, books] = await Promise.all([
      this.deps.seriesQuery.get(viewer, seriesId),
      this.deps.bookQuery.list(viewer, { seriesId }, page),
    ]);
    const feed = await this.acquisition(viewer, uuidUrn(seriesId), series.title, `series/${seriesId}`, books, page);
    return { ...feed, updated: series.updatedAt };
  }

  async recentlyAdded(viewer: Viewer, page: PageRequest): Promise<CatalogFeed> {
    const books = await this.deps.bookQuery.recentlyAdded(viewer, {}, page);
    return this.acquisition(viewer, feedUrn('recently-added'), 'Recently added', 'recently-added', books, page);
  }

  async keepReading(viewer: Viewer, page: PageRequest): Promise<CatalogFeed> {
    const books = await this.deps.bookQuery.inProgress(viewer, {}, page);
    return this.acquisition(viewer, feedUrn('keep-reading'), 'Keep reading', 'keep-reading', books, page);
  }

  async onDeck(viewer: Viewer, page: PageRequest): Promise<CatalogFeed> {
    const books = await this.deps.bookQuery.onDeck(viewer, {}, page);
    return this.acquisition(viewer, feedUrn('on-deck'), 'On deck', 'on-deck', books, page);
  }

  /** Series whose names match (on the first page), then the matching books, best matches first. */
  async search(viewer: Viewer, query: string, page: PageRequest): Promise<CatalogFeed> {
    const [series, books] = await Promise.all([
      page.page === 1
        ? this.deps.seriesQuery.search(viewer, { query }, { page: 1, pageSize: 20, offset: 0 })
        : Promise.resolve({ data: [], total: 0 }),
      this.deps.bookQuery.list(viewer, {}, page, { fullTextSearch: query }),
    ]);
    const feed = await this.acquisition(viewer, feedUrn(`search:${query}`), `Search: ${query}`, 'search', books, page);
    return { ...feed, query: { query }, navigation: series.data.map(seriesItem) };
  }

  /** One book as a publication (OPDS 2 publication documents and manifests). */
  async publication(viewer: Viewer, bookId: string): Promise<Publication> {
    const book = await this.deps.bookQuery.get(viewer, bookId);
    const extras = await this.deps.extras.forBooks(viewer, [book.id]);
    return { book, extras: extras.get(book.id) ?? NO_EXTRAS };
  }

  private async acquisition(
    viewer: Viewer,
    id: string,
    title: string,
    path: string,
    books: ListResult<BookDto>,
    page: PageRequest,
  ): Promise<CatalogFeed> {
    const extras = await this.deps.extras.forBooks(
      viewer,
      books.data.map((b) => b.id),
    );
    return {
      id,
      title,
      path,
      kind: 'acquisition',
      updated: latest(books.data.map((b) => b.updatedAt)),
      navigation: [],
      publications: books.data.map((book) => ({ book, extras: extras.get(book.id) ?? NO_EXTRAS })),
      paging: { page: page.page, pageSize: page.pageSize, total: books.total },
    };
  }
}

function seriesItem(series: SeriesDto): NavigationItem {
  const count = `${series.bookCount} book${series.bookCount === 1 ? '' : 's'}`;
  return {
    id: uuidUrn(series.id),
    title: series.title,
    path: `series/${series.id}`,
    target: 'acquisition',
    summary: series.summary ? `${count}. ${series.summary}` : count,
    updated: series.updatedAt,
    thumbnailPath: `series/${series.id}/thumbnail`,
  };
}

/** A feed's `updated`: its newest entry, or now for an empty feed. */
function latest(dates: string[]): string {
  let newest = '';
  for (const date of dates) if (date > newest) newest = date;
  return newest || nowIso();
}
