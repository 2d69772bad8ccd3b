/**
 * The Komga API's logic over Longbox's own services: the list services choose and order the ids (same
 * filters, sorts, permissions and data as /api/v1), the Komga catalog repository reads the extra fields
 * Komga's DTOs show, and reading progress goes through the ReadProgressService. Nothing is stored twice.
 */
import { badRequest, notFound } from '../lib/errors';
import { completesAtPage } from '../progress/rules';
import type { KomgaBookRow, KomgaCatalogRepository } from '../repositories/komga-catalog.repository';
import type { Viewer } from '../repositories/visibility';
import type { ProgressActor, ReadProgressService } from '../services/read-progress.service';
import type { Services } from '../composition-root';
import type { SortParams } from '../services/catalog-list';
import { type Condition, firstIsValue, replaceLeaves } from './komga-conditions';
import { type KomgaPaging, type SpringPage, springPage } from './komga-paging';
import type { KomgaBook, KomgaSeries, TachiyomiReadProgress, TachiyomiReadProgressV1 } from './komga.dto';
import { numberSort, toKomgaBook, toKomgaSeries } from './komga.mappers';

/** Komga sort properties → Longbox series sort fields; others (random, relevance…) keep the default. */
const SERIES_SORTS: Record<string, string> = {
  'metadata.titleSort': 'name',
  'metadata.title': 'name',
  name: 'name',
  title: 'name',
  createdDate: 'date_added',
  created: 'date_added',
  lastModifiedDate: 'date_updated',
  lastModified: 'date_updated',
  'booksMetadata.releaseDate': 'release_date',
  'metadata.releaseDate': 'release_date',
  booksCount: 'book_count',
  'readProgress.readDate': 'date_read',
  readDate: 'date_read',
  fileSize: 'file_size',
};

const BOOK_SORTS: Record<string, string> = {
  'metadata.numberSort': 'number',
  'metadata.number': 'number',
  number: 'number',
  'metadata.title': 'title',
  name: 'title',
  title: 'title',
  createdDate: 'created_at',
  created: 'created_at',
  lastModifiedDate: 'modified_at',
  lastModified: 'modified_at',
  fileSize: 'file_size',
  'media.pagesCount': 'page_count',
};

/** Komga's sort by a member's position in the collection or read list its search names (`collectionId is …`). */
interface PositionSort {
  property: 'collection.number' | 'readList.number';
  listId: string | undefined;
}

/**
 * The first sort property Longbox knows (Komga's jOOQ sorts also drop unknown properties). A position sort
 * follows the list's own order, and is dropped, as Komga's DAOs drop it, when the search names no list.
 */
function mapSort(paging: KomgaPaging, fields: Record<string, string>, position?: PositionSort): SortParams {
  for (const { property, direction } of paging.sort) {
    if (property === position?.property) {
      if (position.listId) return { listOrder: { listId: position.listId, direction } };
      continue;
    }
    const field = fields[property];
    if (field) return { sort: `${field},${direction}` };
  }
  return {};
}

export interface SeriesListOptions {
  condition?: Condition;
  search?: string;
  /** Overrides the client's sort (series/new, series/updated). */
  sort?: string;
}

export interface BookListOptions {
  seriesId?: string;
  condition?: Condition;
  search?: string;
}

export class KomgaService {
  constructor(
    private readonly services: Pick<Services, 'seriesQuery' | 'bookQuery' | 'readProgress' | 'collections'>,
    private readonly catalog: KomgaCatalogRepository,
  ) {}

  /** 404 unless the series is live and visible: an indexed lookup, not an enriched series read. */
  private assertSeries(viewer: Viewer, seriesId: string): Promise<void> {
    return this.services.seriesQuery.assertExists(viewer, seriesId);
  }

  private get progress(): ReadProgressService {
    return this.services.readProgress;
  }

  // ---- series -------------------------------------------------------------------------------------

  async listSeries(viewer: Viewer, paging: KomgaPaging, options: SeriesListOptions): Promise<SpringPage<KomgaSeries>> {
    const smartSorts = new Map<string, string | undefined>();
    const condition = await this.withSmartCollections(viewer, options.condition, smartSorts);
    let sort = options.sort
      ? { sort: options.sort }
      : mapSort(paging, SERIES_SORTS, {
          property: 'collection.number',
          listId: firstIsValue(options.condition, 'collectionId'),
        });
    // A smart collection has no positions: its order is its rule's.
    if (sort.listOrder && smartSorts.has(sort.listOrder.listId)) sort = { sort: smartSorts.get(sort.listOrder.listId) };
    const { rows, total } = await this.services.seriesQuery.listAs(
      viewer,
      sort,
      paging.request,
      { condition, fullTextSearch: options.search },
      this.catalog.seriesOfPage(viewer),
    );
    return springPage(rows.map(toKomgaSeries), total, paging);
  }

  /**
   * `collectionId is <smart collection>` holds for the series its rule finds (what the collection shows in
   * Komga's `seriesIds` and `/collections/{id}/series`): the rule's condition takes the leaf's place. A rule
   * with search terms, or `isNot` of a rule, has no condition to stand for it: a 400 rather than a wrong list.
   * A plain, unknown or hidden collection keeps its leaf (its member rows; none for the last two), and so does a
   * smart collection of books (it holds no series). Each rule's sort goes into `sorts`, by collection id.
   */
  private withSmartCollections(
    viewer: Viewer,
    condition: Condition | undefined,
    sorts: Map<string, string | undefined>,
  ) {
    return replaceLeaves(condition, async (field, operand) => {
      const leaf = { [field]: operand };
      if (field !== 'collectionId') return leaf;
      const { operator, value } = operand as { operator: string; value: string };
      const rule = await this.services.collections.ruleOf(viewer, value);
      if (rule?.target !== 'series') return leaf;
      if (operator !== 'is' || rule.fullTextSearch || !rule.condition) {
        const why = operator !== 'is' ? `cannot be tested with ${operator}` : 'finds series by search terms';
        throw badRequest(
          `collectionId: smart collection ${value} ${why}; list its series with GET /api/v1/collections/${value}/series`,
        );
      }
      sorts.set(value, rule.sort ?? undefined);
      return rule.condition;
    });
  }

  async getSeries(viewer: Viewer, id: string): Promise<KomgaSeries> {
    const [row] = await this.catalog.series(viewer, [id]);
    if (!row || row.deletedAt) throw notFound('Series');
    return toKomgaSeries(row);
  }

  // ---- books --------------------------------------------------------------------------------------

  async listBooks(viewer: Viewer, paging: KomgaPaging, options: BookListOptions): Promise<SpringPage<KomgaBook>> {
    const { rows, total } = await this.services.bookQuery.listAs(
      viewer,
      {
        ...mapSort(paging, BOOK_SORTS, {
          property: 'readList.number',
          listId: firstIsValue(options.condition, 'readListId'),
        }),
        seriesId: options.seriesId,
      },
      paging.request,
      { condition: options.condition, fullTextSearch: options.search },
      this.catalog.booksOfPage(viewer),
    );
    return springPage(rows.map(toKomgaBook), total, paging);
  }

  async seriesBooks(viewer: Viewer, seriesId: string, paging: KomgaPaging, condition?: Condition) {
    const page = await this.listBooks(viewer, paging, { seriesId, condition });
    // A book listed shows the series is there for the viewer: only an empty page asks whether it is.
    if (page.content.length === 0) await this.assertSeries(viewer, seriesId);
    return page;
  }

  /** Books by the user's progress, latest first: Komelia's "keep reading" and "recently read" rows. */
  async booksByProgress(viewer: Viewer, completed: boolean, paging: KomgaPaging) {
    const enrich = this.catalog.booksOfPage(viewer);
    const { rows, total } = await this.services.bookQuery.progressAs(viewer, completed, {}, paging.request, enrich);
    return springPage(rows.map(toKomgaBook), total, paging);
  }

  async onDeck(viewer: Viewer, libraryId: string | undefined, paging: KomgaPaging) {
    const enrich = this.catalog.booksOfPage(viewer);
    const { rows, total } = await this.services.bookQuery.onDeckAs(viewer, { libraryId }, paging.request, enrich);
    return springPage(rows.map(toKomgaBook), total, paging);
  }

  async getBook(viewer: Viewer, id: string): Promise<KomgaBook> {
    return toKomgaBook(await this.bookRow(viewer, id));
  }

  /** The next or previous live book of the series in reading order; 404 when there is none (Komga). */
  async sibling(viewer: Viewer, id: string, step: 1 | -1): Promise<KomgaBook> {
    const book = await this.bookRow(viewer, id);
    if (book.deletedAt) throw notFound('Book');
    // The neighbour by its place among the series' live books: one row read and enriched, not the series.
    const other =
      book.position === null ? undefined : await this.catalog.liveBookAt(viewer, book.seriesId, book.position + step);
    if (!other) throw notFound(step === 1 ? 'Next book' : 'Previous book');
    return toKomgaBook(other);
  }

  private async bookRow(viewer: Viewer, id: string): Promise<KomgaBookRow> {
    const [row] = await this.catalog.books(viewer, [id]);
    if (!row) throw notFound('Book');
    return row;
  }

  /** Komga's series rows for a list service's page, read in the page's statement (catalog-page.ts). */
  seriesOfPage(viewer: Viewer) {
    return this.catalog.seriesOfPage(viewer);
  }

  /** Komga's book rows for a list service's page, read in the page's statement (catalog-page.ts). */
  booksOfPage(viewer: Viewer) {
    return this.catalog.booksOfPage(viewer);
  }

  /** The books, in the order given, with the viewer's progress (a read list's tracker). */
  booksInOrder(viewer: Viewer, ids: string[]): Promise<KomgaBookRow[]> {
    return this.catalog.books(viewer, ids);
  }

  // ---- filter values ----------------------------------------------------------------------------------

  terms(viewer: Viewer, kind: 'genre' | 'tag') {
    return this.catalog.terms(viewer, kind);
  }

  ageRatings(viewer: Viewer, libraryIds: readonly string[]) {
    return this.catalog.ageRatings(viewer, libraryIds);
  }

  publishers(viewer: Viewer) {
    return this.catalog.publishers(viewer);
  }

  authors(viewer: Viewer) {
    return this.catalog.authors(viewer);
  }

  // ---- reading progress ----------------------------------------------------------------------------

  /**
   * Komga's `PATCH /books/{id}/read-progress`: `completed: true` marks the book read (on its last page);
   * otherwise `page` (1-based, as Longbox's) is the current page, and reaching the last page completes
   * the book, as Komga does (src/progress/rules.ts).
   */
  async updateProgress(actor: ProgressActor, bookId: string, body: { page?: number; completed?: boolean }) {
    if (body.completed === true) {
      await this.progress.markRead(actor, bookId);
      return;
    }
    if (body.page === undefined) throw badRequest('page is required unless completed is true');
    // The page facts alone, read once: the update validates the page against them too.
    const book = await this.progress.bookPaging(actor.viewer, bookId);
    await this.progress.updateOf(actor, book, {
      current_page: body.page,
      is_completed: completesAtPage(body.page, book.pageCount),
    });
  }

  // ---- Mihon's tracker -----------------------------------------------------------------------------

  private async trackedBooks(viewer: Viewer, seriesId: string) {
    await this.assertSeries(viewer, seriesId);
    const books = await this.catalog.liveBooksOfSeries(viewer, seriesId);
    // Sorted by numberSort; equal numbers keep reading order (Array.prototype.sort is stable).
    return books.map((book) => ({ book, sort: numberSort(book) })).sort((a, b) => a.sort - b.sort);
  }

  /**
   * Komga `ReadProgressDtoDao.findProgressV2BySeries`: counts, the numberSort of the last book of the
   * unbroken run of completed books from the lowest numberSort (0 when the first is unread), and the
   * highest numberSort.
   */
  async tachiyomiProgress(viewer: Viewer, seriesId: string): Promise<TachiyomiReadProgress> {
    const { lastReadContinuousIndex, ...progress } = trackerProgress(await this.trackedBooks(viewer, seriesId));
    return progress;
  }

  /** The v1 tracker (older Tachiyomi forks): the same run counted in books of numberSort order. */
  async tachiyomiProgressV1(viewer: Viewer, seriesId: string): Promise<TachiyomiReadProgressV1> {
    const { lastReadContinuousNumberSort, maxNumberSort, ...progress } = trackerProgress(
      await this.trackedBooks(viewer, seriesId),
    );
    return progress;
  }

  /** The v1 tracker PUT: the first `lastBookRead` books in numberSort order become read. */
  async markReadUpToIndex(actor: ProgressActor, seriesId: string, lastBookRead: number): Promise<void> {
    const books = await this.trackedBooks(actor.viewer, seriesId);
    const last = books[Math.min(lastBookRead, books.length) - 1];
    if (last) await this.markReadUpTo(actor, seriesId, last.sort);
  }

  /** Komga's tracker PUT: every book with numberSort ≤ the value becomes read; nothing is unmarked. */
  async markReadUpTo(actor: ProgressActor, seriesId: string, lastNumberSortRead: number): Promise<void> {
    const books = await this.trackedBooks(actor.viewer, seriesId);
    const toMark = books.filter(({ book, sort }) => sort <= lastNumberSortRead && book.progress?.completed !== true);
    // One upsert for the whole run: catching up on a long series costs one statement, not two per book.
    await this.progress.markBooksRead(
      actor,
      toMark.map(({ book }) => book.id),
    );
  }
}

/**
 * Komga `ReadProgressDtoDao`: counts, the unbroken run of completed books from the lowest numberSort
 * (its last numberSort for v2, its length for v1; 0 when the first book is unread) and the top numberSort.
 */
export function trackerProgress(books: Array<{ book: KomgaBookRow; sort: number }>) {
  let read = 0;
  let inProgress = 0;
  let run = 0;
  let lastContinuous = 0;
  for (const [index, { book, sort }] of books.entries()) {
    const completed = book.progress?.completed === true;
    if (completed) read += 1;
    else if (book.progress) inProgress += 1;
    // Still unbroken when every book before this one was completed too.
    if (completed && run === index) {
      run += 1;
      lastContinuous = sort;
    }
  }
  return {
    booksCount: books.length,
    booksReadCount: read,
    booksUnreadCount: books.length - read - inProgress,
    booksInProgressCount: inProgress,
    lastReadContinuousNumberSort: lastContinuous,
    maxNumberSort: books.reduce((max, { sort }) => Math.max(max, sort), 0),
    lastReadContinuousIndex: run,
  };
}
