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
import type { CollectionsService } from '../services/collections.service';
import type { ReadListsService } from '../services/read-lists.service';
import type { WantToReadService } from '../services/want-to-read.service';
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
  isbn: null,
  genres: [],
  tags: [],
  epubLayout: null,
  pageTypes: [],
  hasCover: false,
};

export interface OpdsCatalogDeps {
  libraries: LibrariesService;
  seriesQuery: SeriesQueryService;
  bookQuery: BookQueryService;
  extras: BookExtrasRepository;
  collections: CollectionsService;
  readLists: ReadListsService;
  wantToRead: WantToReadService;
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
        item('want-to-read', 'Want to read', 'The series and books you queued', 'acquisition'),
        item('collections', 'Collections', 'Series gathered by theme', 'navigation'),
        item('readlists', 'Read lists', 'Reading orders across series', 'navigation'),
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

  /**
   * A library: its books as one acquisition feed, then its series A–Z (paged). The "All books" entry is the
   * list's first item, so every page holds exactly pageSize entries and the count is the series plus one
   * (issue 22: a page one entry longer than announced made clients drop the paging).
   */
  async library(viewer: Viewer, libraryId: string, page: PageRequest): Promise<CatalogFeed> {
    const first = page.page === 1;
    const [library, series] = await Promise.all([
      this.deps.libraries.getRecord(viewer, libraryId),
      this.deps.seriesQuery.list(viewer, { libraryId }, { ...page, offset: first ? 0 : page.offset - 1 }),
    ]);
    const allBooks: NavigationItem = {
      id: feedUrn(`library:${libraryId}:books`),
      title: `All books in ${library.name}`,
      path: `libraries/${libraryId}/books`,
      target: 'acquisition',
      updated: library.updatedAt,
    };
    const seriesItems = await this.seriesItems(viewer, series.data);
    return {
      id: uuidUrn(libraryId),
      title: library.name,
      path: `libraries/${libraryId}`,
      kind: 'navigation',
      updated: library.updatedAt,
      navigation: first ? [allBooks, ...seriesItems.slice(0, page.pageSize - 1)] : seriesItems,
      publications: [],
      paging: { page: page.page, pageSize: page.pageSize, total: series.total + 1 },
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
      navigation: await this.seriesItems(viewer, series.data),
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

  /**
   * OPDS 1.2's search result: a navigation feed with one entry per kind of match — the matching series,
   * the matching books — each leading to its own paged feed (`searchSeries`, `searchBooks`). One Atom
   * feed cannot page two lists: a client paging a mixed feed as sections reached neither books past the
   * first page nor series past the first twenty (issue 31 point 18). Kinds without a match are left out.
   */
  async searchSections(viewer: Viewer, query: string): Promise<CatalogFeed> {
    const first = { page: 1, pageSize: 1, offset: 0 };
    const [series, books] = await Promise.all([
      this.deps.seriesQuery.search(viewer, { query }, first),
      this.deps.bookQuery.list(viewer, {}, first, { fullTextSearch: query }),
    ]);
    const updated = nowIso();
    const section = (kind: 'series' | 'books', total: number, target: NavigationItem['target']): NavigationItem => ({
      id: feedUrn(`search:${kind}:${query}`),
      title: `${kind === 'series' ? 'Series' : 'Books'} matching “${query}” (${total})`,
      path: `search/${kind}`,
      query: { query },
      target,
      summary: `${total} ${kind === 'series' ? 'series' : total === 1 ? 'book' : 'books'}`,
      updated,
    });
    return {
      id: feedUrn(`search:${query}`),
      title: `Search: ${query}`,
      path: 'search',
      query: { query },
      kind: 'navigation',
      updated,
      navigation: [
        ...(series.total > 0 ? [section('series', series.total, 'navigation')] : []),
        ...(books.total > 0 ? [section('books', books.total, 'acquisition')] : []),
      ],
      publications: [],
    };
  }

  /** The series a search matches, best match first (paged). */
  async searchSeries(viewer: Viewer, query: string, page: PageRequest): Promise<CatalogFeed> {
    const series = await this.deps.seriesQuery.search(viewer, { query }, page);
    return {
      id: feedUrn(`search:series:${query}`),
      title: `Series matching “${query}”`,
      path: 'search/series',
      query: { query },
      kind: 'navigation',
      updated: latest(series.data.map((s) => s.updatedAt)),
      navigation: await this.seriesItems(viewer, series.data),
      publications: [],
      paging: { page: page.page, pageSize: page.pageSize, total: series.total },
    };
  }

  /** The books a search matches, best match first (paged). */
  async searchBooks(viewer: Viewer, query: string, page: PageRequest): Promise<CatalogFeed> {
    const books = await this.deps.bookQuery.list(viewer, {}, page, { fullTextSearch: query });
    const path = 'search/books';
    const feed = await this.acquisition(
      viewer,
      feedUrn(`search:books:${query}`),
      `Books matching “${query}”`,
      path,
      books,
      page,
    );
    return { ...feed, query: { query } };
  }

  /**
   * OPDS 2.0's search result: series whose names match (on the first page) as navigation, the matching
   * books as publications, paged. OPDS 2 keeps the two apart (`navigation`, `publications`).
   */
  async search(viewer: Viewer, query: string, page: PageRequest): Promise<CatalogFeed> {
    const [series, books] = await Promise.all([
      page.page === 1
        ? this.deps.seriesQuery.search(viewer, { query }, { page: 1, pageSize: 20, offset: 0 })
        : Promise.resolve({ data: [], total: 0 }),
      this.deps.bookQuery.list(viewer, {}, page, { fullTextSearch: query }),
    ]);
    const feed = await this.acquisition(viewer, feedUrn(`search:${query}`), `Search: ${query}`, 'search', books, page);
    return { ...feed, query: { query }, navigation: await this.seriesItems(viewer, series.data) };
  }

  /** The collections the viewer may see, by name (paged). */
  async collections(viewer: Viewer, page: PageRequest): Promise<CatalogFeed> {
    const { data, total } = await this.deps.collections.list(viewer, {}, page);
    return {
      id: feedUrn('collections'),
      title: 'Collections',
      path: 'collections',
      kind: 'navigation',
      updated: latest(data.map((c) => c.updatedAt)),
      navigation: data.map((collection) => ({
        id: uuidUrn(collection.id),
        title: collection.name,
        path: `collections/${collection.id}`,
        // A smart collection of books lists them; every other collection lists series.
        target: collection.automatic && collection.target === 'books' ? 'acquisition' : 'navigation',
        summary: collection.summary ?? undefined,
        updated: collection.updatedAt,
      })),
      publications: [],
      paging: { page: page.page, pageSize: page.pageSize, total },
    };
  }

  /** A collection: its series in its order (or what a smart collection finds); a smart one of books lists them. */
  async collection(viewer: Viewer, id: string, page: PageRequest): Promise<CatalogFeed> {
    const collection = await this.deps.collections.get(viewer, id);
    const path = `collections/${id}`;
    if (collection.automatic && collection.target === 'books') {
      const books = await this.deps.collections.books(viewer, id, page);
      return {
        ...(await this.acquisition(viewer, uuidUrn(id), collection.name, path, books, page)),
        updated: collection.updatedAt,
      };
    }
    const series = await this.deps.collections.series(viewer, id, page);
    return {
      id: uuidUrn(id),
      title: collection.name,
      path,
      kind: 'navigation',
      updated: collection.updatedAt,
      navigation: await this.seriesItems(viewer, series.data),
      publications: [],
      paging: { page: page.page, pageSize: page.pageSize, total: series.total },
    };
  }

  /** The read lists the viewer may see, by name (paged). */
  async readLists(viewer: Viewer, page: PageRequest): Promise<CatalogFeed> {
    const { data, total } = await this.deps.readLists.list(viewer, {}, page);
    return {
      id: feedUrn('readlists'),
      title: 'Read lists',
      path: 'readlists',
      kind: 'navigation',
      updated: latest(data.map((l) => l.updatedAt)),
      navigation: data.map((list) => ({
        id: uuidUrn(list.id),
        title: list.name,
        path: `readlists/${list.id}`,
        target: 'acquisition',
        summary: [`${list.bookCount} book${list.bookCount === 1 ? '' : 's'}`, list.summary].filter(Boolean).join('. '),
        updated: list.updatedAt,
      })),
      publications: [],
      paging: { page: page.page, pageSize: page.pageSize, total },
    };
  }

  /** A read list's books in its order: an app reads them one after the other. */
  async readList(viewer: Viewer, id: string, page: PageRequest): Promise<CatalogFeed> {
    const [list, books] = await Promise.all([
      this.deps.readLists.get(viewer, id),
      this.deps.readLists.books(viewer, id, page),
    ]);
    const feed = await this.acquisition(viewer, uuidUrn(id), list.name, `readlists/${id}`, books, page);
    return { ...feed, updated: list.updatedAt };
  }

  /** The viewer's queue: queued series (on the first page) link to their feeds, queued books are publications. */
  async wantToRead(viewer: Viewer, page: PageRequest): Promise<CatalogFeed> {
    const queue = await this.deps.wantToRead.list(viewer, page);
    const books = queue.data.flatMap((entry) => (entry.book ? [entry.book] : []));
    const series = queue.data.flatMap((entry) => (entry.series ? [entry.series] : []));
    const feed = await this.acquisition(
      viewer,
      feedUrn('want-to-read'),
      'Want to read',
      'want-to-read',
      { data: books, total: queue.total },
      page,
    );
    return { ...feed, navigation: await this.seriesItems(viewer, series) };
  }

  /** One book as a publication (OPDS 2 publication documents and manifests). */
  async publication(viewer: Viewer, bookId: string): Promise<Publication> {
    const book = await this.deps.bookQuery.get(viewer, bookId);
    const extras = await this.deps.extras.forBooks(viewer, [book.id]);
    return { book, extras: extras.get(book.id) ?? NO_EXTRAS };
  }

  /** Series as navigation entries, with a cover link only where the cover URL answers an image. */
  private async seriesItems(viewer: Viewer, list: SeriesDto[]): Promise<NavigationItem[]> {
    const withCovers = await this.deps.extras.seriesWithCovers(
      viewer,
      list.map((s) => s.id),
    );
    return list.map((series) => seriesItem(series, withCovers.has(series.id)));
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

function seriesItem(series: SeriesDto, hasCover: boolean): NavigationItem {
  const count = `${series.bookCount} book${series.bookCount === 1 ? '' : 's'}`;
  return {
    id: uuidUrn(series.id),
    title: series.title,
    path: `series/${series.id}`,
    target: 'acquisition',
    summary: series.summary ? `${count}. ${series.summary}` : count,
    updated: series.updatedAt,
    // No cover, no link: the URL would answer 404, which some apps show as a broken image (issue 22).
    ...(hasCover ? { thumbnailPath: `series/${series.id}/thumbnail` } : {}),
  };
}

/** A feed's `updated`: its newest entry, or now for an empty feed. */
function latest(dates: string[]): string {
  let newest = '';
  for (const date of dates) if (date > newest) newest = date;
  return newest || nowIso();
}
