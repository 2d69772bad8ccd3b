/**
 * Want-to-read (docs/DECISIONS.md §Organise and share): each user's own queue of series and books, in the
 * user's order. A series is queued as itself (its `wantToRead` is then true); its books are not. Queue entries
 * whose series or book the user may no longer see are kept but not shown.
 */
import { notFound } from '../lib/errors';
import { nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import { checkMemberIds } from '../lists/members';
import { toBookDto } from '../mappers/book.mapper';
import { toSeriesDto } from '../mappers/series.mapper';
import type { BooksRepository } from '../repositories/books.repository';
import type { SeriesRepository } from '../repositories/series.repository';
import type { Viewer } from '../repositories/visibility';
import type { QueuedItem, QueueEntry, WantToReadRepository } from '../repositories/want-to-read.repository';
import type { WantToReadEntryDto } from '../schemas/lists.schema';
import type { ListResult } from './catalog-list';

export class WantToReadService {
  constructor(
    private readonly queue: WantToReadRepository,
    private readonly series: SeriesRepository,
    private readonly books: BooksRepository,
  ) {}

  async list(viewer: Viewer, page: PageRequest): Promise<ListResult<WantToReadEntryDto>> {
    // The page and the rows it names at once: the rows are read by a subquery of the same page.
    const named = (kind: QueuedItem['kind']) => ({
      query: this.queue.pageIds(viewer, kind, page.pageSize, page.offset),
      limit: page.pageSize,
    });
    const [{ rows, total }, series, books] = await Promise.all([
      this.queue.page(viewer, page.pageSize, page.offset),
      this.series.byIds(viewer, named('series')),
      this.books.byIds(viewer, named('book')),
    ]);
    const seriesById = new Map(series.map((row) => [row.id, toSeriesDto(row)]));
    const booksById = new Map(books.map((row) => [row.id, toBookDto(row)]));
    return {
      data: rows.map((row) => toEntryDto(row, seriesById.get(row.id) ?? null, booksById.get(row.id) ?? null)),
      total,
    };
  }

  /** Queues a series or a book at the end; true when it was not queued yet. */
  async add(viewer: Viewer, item: QueuedItem): Promise<{ added: boolean; entry: WantToReadEntryDto }> {
    await this.checkItems(viewer, [item], '');
    const added = (await this.queue.add(viewer.userId, [item], nowIso())) > 0;
    const entry = await this.queue.find(viewer.userId, item);
    if (!entry) throw notFound(item.kind === 'series' ? 'Series' : 'Book');
    const [series] = item.kind === 'series' ? await this.series.byIds(viewer, [item.id]) : [];
    const [book] = item.kind === 'book' ? await this.books.byIds(viewer, [item.id]) : [];
    return { added, entry: toEntryDto(entry, series ? toSeriesDto(series) : null, book ? toBookDto(book) : null) };
  }

  /** Queues many at once (unknown ids refused, nothing queued); counts what was new and what was there. */
  async addMany(viewer: Viewer, seriesIds: string[], bookIds: string[]) {
    const items = [
      ...seriesIds.map((id) => ({ kind: 'series' as const, id })),
      ...bookIds.map((id) => ({ kind: 'book' as const, id })),
    ];
    await this.checkItems(viewer, items);
    const added = await this.queue.add(viewer.userId, items, nowIso());
    return { added, alreadyPresent: items.length - added };
  }

  /** Removes a series or book from the queue; 404 when it was not queued or is hidden (as an unknown id). */
  async remove(viewer: Viewer, item: QueuedItem): Promise<void> {
    const visible = (await this.queue.visibleIds(viewer)).has(item.id);
    if (!visible || !(await this.queue.remove(viewer.userId, item))) {
      throw notFound(item.kind === 'series' ? 'Series in the want-to-read list' : 'Book in the want-to-read list');
    }
  }

  /**
   * Puts the named entries first, in that order; the others follow as they were. Unknown entries → 400, and
   * so are hidden ones (they are kept, unseen, but cannot be named).
   */
  async reorder(viewer: Viewer, ids: string[]): Promise<void> {
    checkMemberIds(ids, await this.queue.visibleIds(viewer), 'ids', 'queued item');
    const current = await this.queue.all(viewer.userId);
    const named = new Set(ids);
    await this.queue.reorder(viewer.userId, [...ids, ...current.map((e) => e.id).filter((id) => !named.has(id))]);
  }

  /** Every item must be a live series or book the viewer may see; each named once. */
  private async checkItems(viewer: Viewer, items: readonly QueuedItem[], plural = 's'): Promise<void> {
    const seriesIds = items.filter((i) => i.kind === 'series').map((i) => i.id);
    const bookIds = items.filter((i) => i.kind === 'book').map((i) => i.id);
    checkMemberIds(seriesIds, await this.series.visibleIds(viewer, seriesIds), `seriesId${plural}`, 'series');
    checkMemberIds(bookIds, await this.books.visibleIds(viewer, bookIds), `bookId${plural}`, 'book');
  }
}

function toEntryDto(
  entry: QueueEntry,
  series: WantToReadEntryDto['series'],
  book: WantToReadEntryDto['book'],
): WantToReadEntryDto {
  return {
    id: entry.id,
    itemType: entry.kind,
    seriesId: entry.kind === 'series' ? entry.id : null,
    bookId: entry.kind === 'book' ? entry.id : null,
    addedAt: entry.addedAt,
    position: entry.position,
    series,
    book,
  };
}
