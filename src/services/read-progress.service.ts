/**
 * Reading progress (API.md §2 ReadProgress, §4 Reading progress): validation against the book's pages
 * and the percentage rule per format (src/progress/rules.ts), and device attribution (API.md §2 API
 * key): the API key when the request used one, else a hash of the User-Agent so that devices of the
 * same app merge. A book the viewer may not see answers as an unknown one (404).
 *
 * Every write of one book's position also folds into the user's reading sessions (docs/DECISIONS.md
 * §Reading statistics): one more statement at the head of the write's own batch
 * (reading-sessions.repository.ts `foldStatement`), never another round trip.
 */
import { badRequest, CredentialChangedError, notFound } from '../lib/errors';
import { nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import { toReadProgressDto } from '../mappers/book.mapper';
import {
  completesAtPage,
  isPageInRange,
  lastPage,
  type PagedBook,
  progressFraction,
  streamingCompletes,
} from '../progress/rules';
import { type DeviceFacts, readingDeviceOf, userAgentDeviceId } from '../reading/devices';
import type { BookPaging, BooksRepository } from '../repositories/books.repository';
import type { GuardedCaller } from '../repositories/credential-guard';
import type { SentPosition } from '../repositories/progress-position';
import type {
  AlongsideWrite,
  BookCondition,
  GuardedAlongside,
  InBookFold,
  InBookOutcome,
  BookProgress,
  InBookWriteResult,
  ReadProgressRecord,
  ReadProgressRepository,
} from '../repositories/read-progress.repository';
import type { ReadingSessionsRepository } from '../repositories/reading-sessions.repository';
import type { SeriesRepository } from '../repositories/series.repository';
import type { Viewer } from '../repositories/visibility';
import type { ReadProgressDto, UpdateProgressBody } from '../schemas/read-progress.schema';
import type { ListResult } from './catalog-list';

/** Who moves the progress: the viewer, the API key used (if any) and the client's User-Agent. */
export interface ProgressActor {
  viewer: Viewer;
  apiKey?: { id: string; name: string };
  userAgent: string | null;
  /** `Longbox-Device-Id`: a client that measures its reading and sends it as sessions (src/reading/devices.ts). */
  clientDeviceId?: string | null;
  /**
   * The caller as their credential check found them: a write that reads its book in its own statement tests
   * the credential there too (repositories/credential-guard.ts), so it may be made before the check returns.
   */
  caller?: GuardedCaller;
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
  /** The device as the reader app names itself (KOReader, Readium progression), kept beside Longbox's attribution. */
  device?: { id: string; name: string };
  /** `device` is KOReader's own (kosync): reading statistics name the device by it (API.md §2 Device attribution). */
  deviceIsKoreader?: boolean;
}

const DEVICE_NAME_MAX = 200;

async function deviceOf(actor: ProgressActor): Promise<{ deviceId: string; deviceName: string }> {
  if (actor.apiKey) return { deviceId: `api-key:${actor.apiKey.id}`, deviceName: actor.apiKey.name };
  const agent = actor.userAgent ?? '';
  return { deviceId: await userAgentDeviceId(agent), deviceName: agent.slice(0, DEVICE_NAME_MAX) || 'unknown client' };
}

/** What the request says about its device, for the reading statistics. */
function factsOf(actor: ProgressActor, koreader?: { id: string; name: string } | null): DeviceFacts {
  return {
    apiKey: actor.apiKey,
    userAgent: actor.userAgent,
    clientDeviceId: actor.clientDeviceId ?? null,
    koreader: koreader?.id ? koreader : null,
  };
}

export class ReadProgressService {
  constructor(
    private readonly progress: ReadProgressRepository,
    private readonly books: BooksRepository,
    private readonly series: SeriesRepository,
    private readonly sessions: ReadingSessionsRepository,
  ) {}

  /** The fold of one book's progress write into the user's reading sessions (first in the write's batch). */
  private async fold(
    actor: ProgressActor,
    write: { bookId: string; currentPage: number; completed: boolean; at: string },
    options: { position?: ReaderPosition; forwardOnly?: boolean } = {},
  ) {
    const { position } = options;
    const device = await readingDeviceOf(factsOf(actor, position?.deviceIsKoreader ? position.device : null));
    // Wrapped: a query builder is thenable, and an async function returning it would run it here, alone.
    return {
      statement: this.sessions.foldStatement({ userId: actor.viewer.userId, ...write }, device, write.at, {
        forwardOnly: options.forwardOnly,
      }),
    };
  }

  async get(viewer: Viewer, bookId: string): Promise<ReadProgressDto> {
    const found = await this.progress.inBook(viewer, bookId);
    if (!found) throw notFound('Book');
    if (!found.progress) throw notFound('Read progress');
    return toReadProgressDto(found.progress);
  }

  /**
   * PUT /books/{id}/progress. Reflowable EPUBs keep the percentage the reader sends (their pages are
   * positions, not images); every other book's percentage is currentPage / pageCount. One round trip: the
   * book is read, the page checked against it and the progress written in one statement (writeInBook).
   */
  async update(actor: ProgressActor, bookId: string, body: UpdateProgressBody): Promise<ReadProgressDto> {
    const result = await this.writeInBook(
      actor,
      { bookId },
      {
        kind: 'page',
        page: body.current_page,
        completed: body.is_completed,
        fraction: body.progress_percentage,
        // PUT replaces the position: a locator not sent again would point at a place the reader left.
        locator: body.locator ?? null,
      },
    );
    if (result.written) return toReadProgressDto(result.written);
    if (!result.book) throw notFound('Book');
    throw outOfRange(result.book.pageCount);
  }

  /**
   * A position written with its book read in the same statement (ReadProgressRepository.writeInBook), tested
   * against the actor's credential when it carries one: a changed credential writes nothing and throws
   * CredentialChangedError. Otherwise the row written, or why none was: no such book for the viewer
   * (`book` undefined), or a position the book does not have. `readerDevice`: KOReader's own device (kosync,
   * the one caller that sends it), which names the reading-statistics sitting too. The sitting is folded in
   * the same statement's terms (ReadingSessionsRepository.foldInBookStatement): nothing when nothing is written.
   * `also`, `alongside`: what else the book must be, and what is written beside it (a Kobo's), `at` its time.
   */
  async writeInBook(
    actor: ProgressActor,
    target: { bookId: string } | { readerHash: string },
    sent: SentPosition,
    options: {
      readerDevice?: { id: string; name: string };
      also?: BookCondition;
      alongside?: GuardedAlongside;
      at?: string;
    } = {},
  ): Promise<InBookWriteResult> {
    const { readerDevice } = options;
    const now = options.at ?? nowIso();
    // KOReader's push names its own device: reading statistics name the sitting's device by it.
    const device = await readingDeviceOf(factsOf(actor, readerDevice));
    const result = await this.progress.writeInBook(
      target,
      sent,
      {
        viewer: actor.viewer,
        caller: actor.caller,
        also: options.also,
        alongside: options.alongside,
        ...(await deviceOf(actor)),
        readerDevice: readerDevice ?? null,
        now,
      },
      (inBook: InBookFold) => this.sessions.foldInBookStatement(actor.viewer.userId, inBook, device, now),
    );
    if (!result.written && result.book && !result.credentialHolds) throw new CredentialChangedError();
    return result;
  }

  /**
   * A reader app's writes in a book that are not a position (a book marked unread: `clear`; a reading time alone),
   * guarded as writeInBook's, in one batch: the book the viewer sees and `also`, the actor's credential when it
   * carries one. Throws CredentialChangedError when the credential changed; `book` undefined: nothing was written,
   * the viewer has no such book.
   */
  async guardedInBook(
    actor: ProgressActor,
    bookId: string,
    change: { clear: boolean; also?: BookCondition; alongside: GuardedAlongside; at?: string },
  ): Promise<InBookOutcome> {
    const found = await this.progress.guardedInBook(
      bookId,
      { viewer: actor.viewer, caller: actor.caller, also: change.also, now: change.at ?? nowIso() },
      change,
    );
    if (found.book && !found.credentialHolds) throw new CredentialChangedError();
    return found;
  }

  /** `update` of a book whose page facts the caller already read (`bookPaging`): no second read of the row. */
  async updateOf(actor: ProgressActor, book: BookPaging, body: UpdateProgressBody): Promise<ReadProgressDto> {
    if (!isPageInRange(body.current_page, book.pageCount)) throw outOfRange(book.pageCount);
    const now = nowIso();
    const position = { bookId: book.id, currentPage: body.current_page, completed: body.is_completed };
    const record = await this.progress.upsert(
      {
        userId: actor.viewer.userId,
        ...position,
        progressPercentage: progressFraction(book, body.current_page, body.progress_percentage),
        ...(await deviceOf(actor)),
        // PUT replaces the position: a locator not sent again would point at a place the reader left.
        locator: body.locator ?? null,
        now,
      },
      [],
      (await this.fold(actor, { ...position, at: now })).statement,
    );
    return toReadProgressDto(record);
  }

  /**
   * A reader app's position (KOReader sync, the Readium progression API, a Kobo): the page, completion, the
   * reflowable percentage and the locator, validated against the book like PUT /books/{id}/progress.
   * `alongside`: what the app records beside it, written in the same batch.
   */
  async record(
    actor: ProgressActor,
    book: PagedBook & { id: string },
    position: ReaderPosition,
    alongside: readonly AlongsideWrite[] = [],
  ) {
    const pages = lastPage(book.pageCount);
    if (!isPageInRange(position.currentPage, pages)) {
      throw badRequest(`The page must be between 1 and ${pages}`);
    }
    const now = position.at ?? nowIso();
    const where = { bookId: book.id, currentPage: position.currentPage, completed: position.completed };
    return this.progress.upsert(
      {
        userId: actor.viewer.userId,
        ...where,
        progressPercentage: progressFraction(book, position.currentPage, position.percentage),
        ...(await deviceOf(actor)),
        readerDevice: position.device ?? null,
        locator: position.locator ?? null,
        now,
      },
      alongside,
      (await this.fold(actor, { ...where, at: now }, { position })).statement,
    );
  }

  /**
   * A page read through OPDS page streaming (DECISIONS.md §Reader apps): progress moves forward to it,
   * never back; the last page marks the book completed when the pages were not fetched faster than a
   * person reads (streamingCompletes).
   */
  async advanceTo(actor: ProgressActor, book: PagedBook & { id: string }, page: number): Promise<void> {
    if (!isPageInRange(page, book.pageCount)) return;
    const now = nowIso();
    let completed = false;
    if (completesAtPage(page, book.pageCount)) {
      const started = (await this.progress.get(actor.viewer, book.id))?.startedAt ?? now;
      completed = streamingCompletes(page, book.pageCount, Date.parse(started), Date.parse(now));
    }
    await this.progress.advance(
      {
        userId: actor.viewer.userId,
        bookId: book.id,
        currentPage: page,
        completed,
        progressPercentage: progressFraction(book, page),
        ...(await deviceOf(actor)),
        now,
      },
      (await this.fold(actor, { bookId: book.id, currentPage: page, completed, at: now }, { forwardOnly: true }))
        .statement,
    );
  }

  /** The stored progress with the device that wrote it, or undefined. */
  async find(viewer: Viewer, book: { id: string }): Promise<ReadProgressRecord | undefined> {
    return this.progress.get(viewer, book.id);
  }

  /** The book's page facts (page count, format, EPUB layout); 404 for an unknown book. */
  async bookPaging(viewer: Viewer, bookId: string): Promise<BookPaging> {
    return this.paging(viewer, bookId);
  }

  /** The book a reader app means by a KOReader document hash (readerHash, any case), if any. */
  async bookWithReaderHash(viewer: Viewer, hash: string): Promise<BookPaging | undefined> {
    return this.books.findByReaderHash(viewer, hash);
  }

  /** That book with the viewer's progress in it (null: none), in one read. */
  async inReaderHashBook(viewer: Viewer, hash: string): Promise<BookProgress | undefined> {
    return this.progress.inReaderHashBook(viewer, hash);
  }

  /** POST /books/{id}/read: completed on the last page. */
  async markRead(actor: ProgressActor, bookId: string): Promise<ReadProgressDto> {
    const book = await this.paging(actor.viewer, bookId);
    const now = nowIso();
    const position = { bookId, currentPage: lastPage(book.pageCount), completed: true };
    const record = await this.progress.upsert(
      { userId: actor.viewer.userId, ...position, progressPercentage: 1, ...(await deviceOf(actor)), now },
      [],
      // A book marked read finishes the sitting it is in (or one of its own); its pages count only as far as
      // the time since the last write allows (reading-sessions.repository.ts `foldStatement`).
      (await this.fold(actor, { ...position, at: now })).statement,
    );
    return toReadProgressDto(record);
  }

  /** DELETE /books/{id}/progress and POST /books/{id}/unread: the book becomes unread. */
  async clear(viewer: Viewer, bookId: string): Promise<void> {
    await this.paging(viewer, bookId);
    await this.progress.delete(viewer, bookId);
  }

  /** A reader app marked a book it has (the caller read it, visible to the viewer) unread; `alongside` as record's. */
  async clearOf(viewer: Viewer, book: { id: string }, alongside: readonly AlongsideWrite[] = []): Promise<void> {
    await this.progress.delete(viewer, book.id, alongside);
  }

  async list(viewer: Viewer, page: PageRequest): Promise<ListResult<ReadProgressDto>> {
    const { rows, total } = await this.progress.listForUser(viewer, page.pageSize, page.offset);
    return { data: rows.map(toReadProgressDto), total };
  }

  /** Marking a whole series read is bookkeeping, not reading: it records no sitting (DECISIONS.md §Reading statistics). */
  async markSeriesRead(actor: ProgressActor, seriesId: string): Promise<void> {
    if (!(await this.series.exists(actor.viewer, seriesId))) throw notFound('Series');
    await this.progress.markSeriesRead(seriesId, {
      userId: actor.viewer.userId,
      ...(await deviceOf(actor)),
      now: nowIso(),
    });
  }

  /**
   * These books become read (Komga's tracker marking a run of a series): one statement, whatever their
   * number. The caller has chosen them among the live books the viewer sees. Like `markSeriesRead`, no sitting.
   */
  async markBooksRead(actor: ProgressActor, bookIds: readonly string[]): Promise<void> {
    await this.progress.markBooksRead(bookIds, {
      userId: actor.viewer.userId,
      ...(await deviceOf(actor)),
      now: nowIso(),
    });
  }

  async markSeriesUnread(viewer: Viewer, seriesId: string): Promise<void> {
    if (!(await this.series.exists(viewer, seriesId))) throw notFound('Series');
    await this.progress.clearSeries(viewer.userId, seriesId);
  }

  /** The book's page facts; deleted books count (their progress is kept). */
  private async paging(viewer: Viewer, bookId: string): Promise<BookPaging> {
    const book = await this.books.getPaging(viewer, bookId);
    if (!book) throw notFound('Book');
    return book;
  }
}

/** The 400 of a page the book does not have (a book not analysed yet has none). */
function outOfRange(pageCount: number) {
  if (pageCount < 1) {
    return badRequest('The book has no pages yet (it has not been analyzed)', [
      { path: 'current_page', message: 'the book has no pages yet' },
    ]);
  }
  return badRequest(`current_page must be between 1 and ${pageCount}`, [
    { path: 'current_page', message: `must be between 1 and ${pageCount}` },
  ]);
}
