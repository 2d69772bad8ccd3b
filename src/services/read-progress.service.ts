/**
 * Reading progress (API.md §2 ReadProgress, §4 Reading progress): validation against the book's pages,
 * the percentage rule per format, and device attribution (API.md §2 API key): the API key when the
 * request used one, else a hash of the User-Agent so that devices of the same app merge.
 */
import { badRequest, notFound } from '../lib/errors';
import { sha256Hex } from '../lib/encoding';
import { nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import { toReadProgressDto } from '../mappers/book.mapper';
import type { BooksRepository } from '../repositories/books.repository';
import type { ReadProgressRecord, ReadProgressRepository } from '../repositories/read-progress.repository';
import type { SeriesRepository } from '../repositories/series.repository';
import type { ReadProgressDto, UpdateProgressBody } from '../schemas/read-progress.schema';
import type { ListResult } from './catalog-list';

/** Who moves the progress: the user, the API key used (if any) and the client's User-Agent. */
export interface ProgressActor {
  userId: string;
  apiKey?: { id: string; name: string };
  userAgent: string | null;
}

/** Where a reader app says the user is (KOReader sync, Readium progression). */
export interface ReaderPosition {
  /** 1-based. */
  currentPage: number;
  completed: boolean;
  /** 0..1; kept for reflowable EPUBs, derived from the page otherwise. */
  percentage?: number;
  locator?: string | null;
  /** When the reader says it happened (ISO 8601); default now. */
  at?: string;
}

const DEVICE_NAME_MAX = 200;

async function deviceOf(actor: ProgressActor): Promise<{ deviceId: string; deviceName: string }> {
  if (actor.apiKey) return { deviceId: `api-key:${actor.apiKey.id}`, deviceName: actor.apiKey.name };
  const agent = actor.userAgent ?? '';
  const hash = (await sha256Hex(agent)).slice(0, 16);
  return { deviceId: `ua:${hash}`, deviceName: agent.slice(0, DEVICE_NAME_MAX) || 'unknown client' };
}

export class ReadProgressService {
  constructor(
    private readonly progress: ReadProgressRepository,
    private readonly books: BooksRepository,
    private readonly series: SeriesRepository,
  ) {}

  async get(userId: string, bookId: string): Promise<ReadProgressDto> {
    await this.paging(bookId);
    const record = await this.progress.get(userId, bookId);
    if (!record) throw notFound('Read progress');
    return toReadProgressDto(record);
  }

  /**
   * PUT /books/{id}/progress. Reflowable EPUBs keep the percentage the reader sends (their pages are
   * positions, not images); every other book's percentage is currentPage / pageCount.
   */
  async update(actor: ProgressActor, bookId: string, body: UpdateProgressBody): Promise<ReadProgressDto> {
    const book = await this.paging(bookId);
    if (book.pageCount < 1) {
      throw badRequest('The book has no pages yet (it has not been analyzed)', [
        { path: 'current_page', message: 'the book has no pages yet' },
      ]);
    }
    if (body.current_page > book.pageCount) {
      throw badRequest(`current_page must be between 1 and ${book.pageCount}`, [
        { path: 'current_page', message: `must be between 1 and ${book.pageCount}` },
      ]);
    }
    const reflowable = book.fileFormat === 'epub' && book.epubLayout !== 'image';
    const percentage =
      reflowable && body.progress_percentage !== undefined
        ? body.progress_percentage
        : body.current_page / book.pageCount;
    const record = await this.progress.upsert({
      userId: actor.userId,
      bookId,
      currentPage: body.current_page,
      completed: body.is_completed,
      progressPercentage: percentage,
      ...(await deviceOf(actor)),
      // PUT replaces the position: a locator not sent again would point at a place the reader left.
      locator: body.locator ?? null,
      now: nowIso(),
    });
    return toReadProgressDto(record);
  }

  /**
   * A reader app's position (KOReader sync, the Readium progression API): the page, completion, the
   * reflowable percentage and the locator, validated against the book like PUT /books/{id}/progress.
   */
  async record(actor: ProgressActor, bookId: string, position: ReaderPosition): Promise<ReadProgressRecord> {
    const book = await this.paging(bookId);
    const pageCount = Math.max(book.pageCount, 1);
    if (!Number.isInteger(position.currentPage) || position.currentPage < 1 || position.currentPage > pageCount) {
      throw badRequest(`The page must be between 1 and ${pageCount}`);
    }
    const reflowable = book.fileFormat === 'epub' && book.epubLayout !== 'image';
    return this.progress.upsert({
      userId: actor.userId,
      bookId,
      currentPage: position.currentPage,
      completed: position.completed,
      progressPercentage:
        reflowable && position.percentage !== undefined ? position.percentage : position.currentPage / pageCount,
      ...(await deviceOf(actor)),
      locator: position.locator ?? null,
      now: position.at ?? nowIso(),
    });
  }

  /**
   * A page read through OPDS page streaming (DECISIONS.md §Reader apps): progress moves forward to it,
   * never back; the last page marks the book completed.
   */
  async advanceTo(actor: ProgressActor, bookId: string, page: number, known?: { pageCount: number }): Promise<void> {
    // A caller that has just read the book's page count (the streaming route, to check the page) passes it.
    const book = known ?? (await this.paging(bookId));
    if (book.pageCount < 1 || page < 1 || page > book.pageCount) return;
    await this.progress.advance({
      userId: actor.userId,
      bookId,
      currentPage: page,
      completed: page === book.pageCount,
      progressPercentage: page / book.pageCount,
      ...(await deviceOf(actor)),
      now: nowIso(),
    });
  }

  /** The stored progress with the device that wrote it, or undefined; 404 for an unknown book. */
  async find(userId: string, bookId: string): Promise<ReadProgressRecord | undefined> {
    await this.paging(bookId);
    return this.progress.get(userId, bookId);
  }

  /** The book's page facts (page count, format, EPUB layout); 404 for an unknown book. */
  async bookPaging(bookId: string) {
    return this.paging(bookId);
  }

  /** The book a reader app means by a KOReader document hash (readerHash, any case), if any. */
  async bookWithReaderHash(hash: string): Promise<{ id: string } | undefined> {
    return this.books.findByReaderHash(hash);
  }

  /** POST /books/{id}/read: completed on the last page. */
  async markRead(actor: ProgressActor, bookId: string): Promise<ReadProgressDto> {
    const book = await this.paging(bookId);
    const record = await this.progress.upsert({
      userId: actor.userId,
      bookId,
      currentPage: Math.max(book.pageCount, 1),
      completed: true,
      progressPercentage: 1,
      ...(await deviceOf(actor)),
      now: nowIso(),
    });
    return toReadProgressDto(record);
  }

  /** DELETE /books/{id}/progress and POST /books/{id}/unread: the book becomes unread. */
  async clear(userId: string, bookId: string): Promise<void> {
    await this.paging(bookId);
    await this.progress.delete(userId, bookId);
  }

  async list(userId: string, page: PageRequest): Promise<ListResult<ReadProgressDto>> {
    const { rows, total } = await this.progress.listForUser(userId, page.pageSize, page.offset);
    return { data: rows.map(toReadProgressDto), total };
  }

  async markSeriesRead(actor: ProgressActor, seriesId: string): Promise<void> {
    if (!(await this.series.exists(seriesId))) throw notFound('Series');
    await this.progress.markSeriesRead(seriesId, { userId: actor.userId, ...(await deviceOf(actor)), now: nowIso() });
  }

  async markSeriesUnread(userId: string, seriesId: string): Promise<void> {
    if (!(await this.series.exists(seriesId))) throw notFound('Series');
    await this.progress.clearSeries(userId, seriesId);
  }

  /** The book's page facts; deleted books count (their progress is kept). */
  private async paging(bookId: string) {
    const book = await this.books.getPaging(bookId);
    if (!book) throw notFound('Book');
    return book;
  }
}
