/**
 * Kobo sync (DECISIONS.md §Kobo e-readers): what a device gets on each sync page, a book's metadata, and its
 * reading state both ways. A device is an API key; what it sees is what the key's owner sees through that key.
 *
 * A sync page sends, within `limit` items, in this order: books new or changed since the device got them
 * (`NewEntitlement`, plus `ChangedProductMetadata` and `ChangedReadingState` for a book it had — Kobo ignores
 * a reading state inside a changed entitlement, Komga found), books it must drop (`ChangedEntitlement` with
 * `IsRemoved`), reading states moved elsewhere (`ChangedReadingState`), then shelves (`NewTag`, `ChangedTag`,
 * `DeletedTag`). More left → `x-kobo-sync: continue`, and the device asks again with the new token.
 */
import { comicEpubSize, type SizedPage } from '../media/comic-epub/layout';
import { fittedSize, needsRedraw, type PageFit } from '../media/comic-epub/comic-epub';
import type { EpubBookInfo } from '../media/comic-epub/package-files';
import { CredentialChangedError, notFound } from '../lib/errors';
import { nowIso } from '../lib/ids';
import type { PagedBook } from '../progress/rules';
import type { GuardedCaller } from '../repositories/credential-guard';
import type {
  KoboBookRow,
  KoboDevice,
  KoboProgressRow,
  KoboSyncRepository,
} from '../repositories/kobo-sync.repository';
import type { BookCondition } from '../repositories/read-progress.repository';
import type { ReadingStatisticsRepository } from '../repositories/reading-statistics.repository';
import type { ProgressActor, ReadProgressService } from '../services/read-progress.service';
import type { BookFileService, FileRequest } from '../services/book-file.service';
import type { ComicEpubService } from '../services/comic-epub.service';
import type { PageService } from '../services/page.service';
import type { MediaResponse } from '../pages/media-response';
import {
  bookEntitlement,
  bookMetadata,
  type KoboBookMetadata,
  type KoboFormat,
  type KoboReadingState,
  type KoboSyncItem,
  type KoboUpdateResult,
  type ReadingStateUpdate,
  readingState,
  removedBookMetadata,
  tag,
} from './kobo.dto';
import { bookmarkFromProgress, sentFromKobo, statusOf } from './kobo-progress';

/** Where the device fetches a book and its cover: this server's Kobo routes under the device's key. */
export interface KoboLinks {
  download(bookId: string): string;
}

export interface SyncPage {
  items: KoboSyncItem[];
  /** The generation this page is: the device's next token names it. */
  generation: number;
  more: boolean;
}

/** The EPUB Kobo gets of a book, and what the device should call its format. */
export function koboFormat(book: Pick<KoboBookRow, 'fileFormat' | 'epubLayout'>): KoboFormat {
  // Fixed-layout books are EPUB3FL: the device shows them full screen, one page per file (Komga).
  return book.fileFormat === 'epub' && book.epubLayout !== 'image' ? 'EPUB3' : 'EPUB3FL';
}

/** What a comic's EPUB says about the book (its package document), the same at sync and at download. */
export function epubInfoOf(
  book: Pick<KoboBookRow, 'id' | 'title' | 'language' | 'authors' | 'updatedAt' | 'readingDirection'>,
): EpubBookInfo {
  return {
    id: book.id,
    title: book.title,
    language: book.language,
    authors: [...new Set(book.authors.map((a) => a.name))],
    modified: new Date(book.updatedAt),
    rightToLeft: book.readingDirection === 'rtl',
  };
}

/** A comic's pages as the sync row holds them (type, size, the bytes each takes); null for an EPUB. */
export function pagesOf(
  book: Pick<KoboBookRow, 'pages'>,
): Array<{ mediaType: string; width: number; height: number; dataSize: number }> | null {
  if (book.pages === null) return null;
  const rows = JSON.parse(book.pages) as Array<[number, string, number | null, number | null, number | null]>;
  const sorted = rows.sort((a, b) => a[0] - b[0]);
  const known = sorted.find(([, , w, h]) => w && h);
  return sorted.map(([, mediaType, width, height, dataSize]) => ({
    mediaType,
    width: width && height ? width : (known?.[2] ?? 1000),
    height: width && height ? height : (known?.[3] ?? 1500),
    dataSize: dataSize ?? 0,
  }));
}

/**
 * The length of the EPUB a comic is sent as: exact when its pages are copied; with pages redrawn for a box, the
 * length as if redrawn pages kept their bytes (their real length is known only once drawn; Kobo takes the
 * announced size as a hint — Komga announces the EPUB's for a KEPUB it converts).
 */
function comicEpubLength(book: KoboBookRow, fit: PageFit | null): number | null {
  const pages = pagesOf(book);
  if (pages === null) return null;
  const sized: SizedPage[] = pages.map((page, i) => {
    const redrawn = fit !== null && needsRedraw(page, fit);
    return {
      number: i + 1,
      mediaType: redrawn ? 'image/jpeg' : (page.mediaType as SizedPage['mediaType']),
      ...(redrawn ? fittedSize(page, fit) : { width: page.width, height: page.height }),
      dataSize: page.dataSize,
    };
  });
  return comicEpubSize(epubInfoOf(book), sized);
}

const pagedOf = (book: Pick<KoboBookRow, 'fileFormat' | 'epubLayout' | 'pageCount'>): PagedBook => ({
  fileFormat: book.fileFormat,
  epubLayout: book.epubLayout,
  pageCount: book.pageCount,
});

/** The book's Kobo image id: the book's id, and a version so the device fetches a new cover when it changes. */
export const coverImageId = (book: Pick<KoboBookRow, 'id' | 'coverVersion'>) =>
  `${book.id}-${book.coverVersion.replace(/[^A-Za-z0-9]/g, '')}`;

/** The book id a cover image id names (coverImageId), or null. */
export const bookOfCoverImage = (imageId: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(imageId)?.[0].toLowerCase() ?? null;

/** LONGBOX_KOBO__PAGE_SIZE (`1264x1680`) as a box; null when unset. */
export function pageFitOf(setting: string | undefined): PageFit | null {
  const match = setting ? /^(\d+)x(\d+)$/.exec(setting) : null;
  return match ? { width: Number(match[1]), height: Number(match[2]) } : null;
}

/** Draws a comic's page within a box through the API's page variants (rendered once, kept in the CACHE bucket). */
export function pageDrawer(pages: PageService): KoboSyncDeps['drawPage'] {
  return async (viewer, bookId, pageNumber, fit, origin) => {
    const media = await pages.image(viewer, {
      bookId,
      pageNumber,
      variant: { width: fit.width, height: fit.height, format: 'jpeg' },
      // The download's origin: the data center's caches (book tables, renditions) are keyed by it.
      request: { origin },
    });
    return new Uint8Array(await new Response(media.body).arrayBuffer());
  };
}

export interface KoboSyncDeps {
  /** LONGBOX_KOBO__PAGE_SIZE: comic pages redrawn within this box; null: copied as they are. */
  fit: PageFit | null;
  /** A comic's page within `fit`, as JPEG (the API's page variant, kept once made). */
  drawPage(
    viewer: KoboDevice['viewer'],
    bookId: string,
    pageNumber: number,
    fit: PageFit,
    origin: string,
  ): Promise<Uint8Array>;
  repo: KoboSyncRepository;
  comicEpub: ComicEpubService;
  files: BookFileService;
  statistics: ReadingStatisticsRepository;
  progress: ReadProgressService;
  /** Items per sync page (Komga and calibre-web: 100). */
  limit: number;
  now?: () => number;
}

export class KoboSyncService {
  constructor(private readonly deps: KoboSyncDeps) {}

  /**
   * One sync page for the device, from the generation its token acknowledged, and the record of what it sent: one
   * batch (KoboSyncRepository.syncPage), whose writes test `caller`'s credential, so the page may be made before
   * the key's check returns; a changed credential records nothing (CredentialChangedError). The batch records the
   * page's first `limit` items in the order taken here: books, removals, states, shelves, each kind by id.
   */
  async syncPage(device: KoboDevice, links: KoboLinks, caller?: GuardedCaller): Promise<SyncPage> {
    const { repo, limit } = this.deps;
    const generation = Math.max(this.deps.now?.() ?? Date.now(), device.acknowledged + 1);
    const read = await repo.syncPage(device, { limit, generation, caller, now: nowIso() });
    if (!read.credentialHolds) throw new CredentialChangedError();
    const now = new Date(generation);
    const items: KoboSyncItem[] = [];
    let budget = limit;
    let more = false;
    /** At most what the budget leaves of `rows`; `more` when some did not fit. */
    const take = <T>(rows: readonly T[]): readonly T[] => {
      if (more) return [];
      const taken = rows.slice(0, budget);
      if (rows.length > taken.length) more = true;
      budget -= taken.length;
      return taken;
    };

    for (const book of take(read.books)) {
      // What the device acknowledged having: a page it never got does not count.
      const onDevice = book.deviceState === 'sent' && (book.deviceGeneration ?? 0) <= device.acknowledged;
      if (book.withheld) {
        // A book it may have, or whose removal it never confirmed, leaves it.
        const unconfirmedRemoval = book.deviceState === 'removed' && (book.deviceGeneration ?? 0) > device.acknowledged;
        if (book.deviceState === 'sent' || unconfirmedRemoval) items.push(this.removal(book.id, now));
        continue;
      }
      const metadata = this.metadataOf(book, links);
      const state = this.stateOf(book);
      items.push({
        NewEntitlement: {
          BookEntitlement: bookEntitlement(book, false, now),
          BookMetadata: metadata,
          ReadingState: state,
        },
      });
      if (onDevice) {
        items.push({ ChangedProductMetadata: metadata });
        if (book.progress) items.push({ ChangedReadingState: { ReadingState: state } });
      }
    }
    for (const { bookId } of take(read.removals)) items.push(this.removal(bookId, now));
    for (const row of take(read.states)) {
      items.push({ ChangedReadingState: { ReadingState: this.stateOf({ id: row.bookId, ...row }) } });
    }
    const created = new Date(0).toISOString();
    for (const shelf of take(read.shelves)) {
      if (shelf.change === 'deleted') {
        items.push({ DeletedTag: tag({ id: shelf.id, name: shelf.name, createdAt: created, updatedAt: nowIso() }) });
      } else {
        const made = tag(shelf, shelf.bookIds);
        items.push(shelf.change === 'new' ? { NewTag: made } : { ChangedTag: made });
      }
    }
    return { items, generation, more };
  }

  private removal(bookId: string, now: Date): KoboSyncItem {
    const at = now.toISOString();
    return {
      ChangedEntitlement: {
        BookEntitlement: bookEntitlement({ id: bookId, createdAt: at, fileModifiedAt: at }, true, now),
        BookMetadata: removedBookMetadata(bookId),
      },
    };
  }

  private metadataOf(book: KoboBookRow, links: KoboLinks): KoboBookMetadata {
    const size = comicEpubLength(book, this.deps.fit) ?? book.fileSize;
    return bookMetadata({
      ...book,
      coverImageId: coverImageId(book),
      download: {
        DrmType: 'None',
        Format: koboFormat(book),
        Size: size,
        Platform: 'Generic',
        Url: links.download(book.id),
      },
    });
  }

  private stateOf(
    book: Pick<KoboBookRow, 'id' | 'createdAt' | 'fileFormat' | 'epubLayout' | 'pageCount'> & {
      progress: KoboProgressRow | null;
    },
  ): KoboReadingState {
    const { progress } = book;
    return readingState(
      book.id,
      book.createdAt,
      progress,
      bookmarkFromProgress(pagedOf(book), progress),
      statusOf(progress),
    );
  }

  /** `GET v1/library/{id}/metadata`: the book as the device lists it; 404 when the key cannot sync it. */
  async metadata(device: KoboDevice, bookId: string, links: KoboLinks): Promise<KoboBookMetadata> {
    return this.metadataOf(await this.deliverable(device, bookId), links);
  }

  /** `GET v1/library/{id}/state`. */
  async readingState(device: KoboDevice, bookId: string): Promise<KoboReadingState> {
    return this.stateOf(await this.deliverable(device, bookId));
  }

  /**
   * `PUT v1/library/{id}/state`: the device's bookmark becomes the user's progress, and its reading time is kept —
   * in one batch that reads the book in its own statements (its position worked out there: progress-position.ts
   * `koboPosition`) and tests the actor's credential, so it may be written beside the key's check
   * (docs/ARCHITECTURE.md, "The credential check beside the request"): a changed key writes nothing
   * (CredentialChangedError), a book the device may not have is the 404 of an unknown one.
   */
  async updateReadingState(
    actor: ProgressActor & { apiKey: { id: string; name: string } },
    device: KoboDevice,
    bookId: string,
    update: ReadingStateUpdate,
  ): Promise<KoboUpdateResult> {
    const { repo, statistics, progress } = this.deps;
    const state = update.ReadingStates[0] as ReadingStateUpdate['ReadingStates'][number];
    const at = nowIso();
    const reported = state.Statistics;
    const report =
      typeof reported?.SpentReadingMinutes === 'number'
        ? {
            userId: device.viewer.userId,
            bookId,
            deviceId: `api-key:${actor.apiKey.id}`,
            deviceName: actor.apiKey.name,
            spentReadingMinutes: reported.SpentReadingMinutes,
            remainingTimeMinutes: reported.RemainingTimeMinutes ?? null,
            at,
          }
        : null;
    const status = state.StatusInfo?.Status ?? (state.CurrentBookmark ? 'Reading' : null);
    const change = status === null ? null : sentFromKobo(status, state.CurrentBookmark ?? null);
    // Beside the progress: the reading time, and the state the device now holds (`progressAt`: the progress's new
    // updated_at, null when cleared), so it is not sent back to it.
    const alongside = (progressAt: string | null) => (written: BookCondition) => [
      ...(report ? statistics.report(report, written) : []),
      ...(change ? [repo.progressSent(device.apiKeyId, bookId, progressAt, written)] : []),
    ];
    const also = repo.deliverableBook(device);
    if (change?.kind === 'kobo') {
      const result = await progress.writeInBook(actor, { bookId }, change, { also, alongside: alongside(at), at });
      // Every position a Kobo sends is one the book has: nothing written means no such book for the device.
      if (!result.written) throw notFound(`Book ${bookId}`);
    } else {
      const found = await progress.guardedInBook(actor, bookId, {
        clear: change !== null,
        also,
        alongside: alongside(null),
        at,
      });
      if (!found.book) throw notFound(`Book ${bookId}`);
    }
    const result = (done: boolean) => ({ Result: done ? ('Success' as const) : ('Ignored' as const) });
    return {
      RequestResult: 'Success',
      UpdateResults: [
        {
          EntitlementId: bookId,
          CurrentBookmarkResult: result(status !== null),
          StatisticsResult: result(report !== null),
          StatusInfoResult: result(status !== null),
        },
      ],
    };
  }

  /**
   * `GET v1/books/{id}/file/epub`: an EPUB as it is, a comic written as a fixed-layout EPUB. 404 when the
   * device cannot have the book (hidden, unknown, a PDF, a comic with pages an EPUB cannot hold).
   */
  async download(device: KoboDevice, bookId: string, request: FileRequest): Promise<MediaResponse> {
    const source = await this.deps.repo.downloadSource(device, bookId);
    const { fit } = this.deps;
    if (!source || source.book.withheld) throw notFound(`Book ${bookId}`);
    const { book, file, pages } = source;
    if (file.fileFormat === 'epub') {
      return this.deps.files.downloadOf({ id: book.id, ...file }, request);
    }
    return this.deps.comicEpub.download(
      {
        format: file.fileFormat,
        path: file.path,
        size: file.fileSize,
        etag: file.etag,
        modifiedAt: file.fileModifiedAt,
        containerIndex: file.containerIndex,
        fileName: file.fileName,
      },
      epubInfoOf(book),
      pages,
      request,
      fit
        ? { fit, draw: (pageNumber) => this.deps.drawPage(device.viewer, book.id, pageNumber, fit, request.origin) }
        : null,
    );
  }

  private async deliverable(device: KoboDevice, bookId: string): Promise<KoboBookRow> {
    const book = await this.deps.repo.book(device, bookId);
    if (!book || book.withheld) throw notFound(`Book ${bookId}`);
    return book;
  }
}
