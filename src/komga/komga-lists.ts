/**
 * Komga's collections and read lists (gotson/komga `SeriesCollectionController`, `ReadListController`; the calls
 * Mihon and Komelia make, test/support/clients/komga-lists.ts) over Longbox's own list services: the same rows,
 * members, permissions and visibility as /api/v1, in Komga's DTOs and Spring pages. Writes answer as Komga does
 * (create 200 with the DTO, PATCH and DELETE 204), and a taken name is Komga's 400.
 */
import { z } from 'zod';
import type { CollectionRow } from '../repositories/collections.repository';
import type { ReadListRow } from '../repositories/read-lists.repository';
import type { Viewer } from '../repositories/visibility';
import type { Services } from '../composition-root';
import { AppError } from '../lib/errors';
import { type CblReadingList, CblError, parseCbl } from '../lists/cbl';
import { fittingBooks } from '../lists/cbl-matching';
import type { ProgressActor } from '../services/read-progress.service';
import { komgaBadRequest } from './komga-errors';
import { type KomgaPaging, springPage } from './komga-paging';
import { komgaDate } from './komga.mappers';
import { type KomgaService, trackerProgress } from './komga.service';

const uniqueIds = (what: string) =>
  z
    .array(z.string().uuid())
    .min(1, `${what} must not be empty`)
    .refine((ids) => new Set(ids).size === ids.length, `${what} must not repeat an id`);
const Name = z.string().trim().min(1, 'must not be blank').max(200);

/** Komga `CollectionCreationDto`: `ordered` has no default; `seriesIds` not empty, unique. */
export const CollectionCreationSchema = z.object({
  name: Name,
  ordered: z.boolean(),
  seriesIds: uniqueIds('seriesIds'),
});
/** Komga `CollectionUpdateDto`: absent or null leaves a field as it is. */
export const CollectionUpdateSchema = z.object({
  name: Name.nullish(),
  ordered: z.boolean().nullish(),
  seriesIds: uniqueIds('seriesIds').nullish(),
});
export const ReadListCreationSchema = z.object({
  name: Name,
  summary: z.string().max(10_000).default(''),
  ordered: z.boolean().default(true),
  bookIds: uniqueIds('bookIds'),
});
export const ReadListUpdateSchema = z.object({
  name: Name.nullish(),
  summary: z.string().max(10_000).nullish(),
  ordered: z.boolean().nullish(),
  bookIds: uniqueIds('bookIds').nullish(),
});
export const TachiyomiUpdateSchema = z.object({ lastBookRead: z.number().int().min(0) });

export interface KomgaCollection {
  id: string;
  name: string;
  ordered: boolean;
  seriesIds: string[];
  createdDate: string;
  lastModifiedDate: string;
  filtered: boolean;
}

export interface KomgaReadList {
  id: string;
  name: string;
  summary: string;
  ordered: boolean;
  bookIds: string[];
  createdDate: string;
  lastModifiedDate: string;
  filtered: boolean;
}

/** Komga sorts of read-list lists → Longbox's. */
const READ_LIST_SORTS = { name: 'name', createdDate: 'createdAt', lastModifiedDate: 'updatedAt' } as const;

const sent = (changes: Record<string, unknown>) => Object.values(changes).some((value) => value !== undefined);

/** A 409 from the list services (a taken name) is Komga's 400 with the same message. */
async function asKomga<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.status === 409) throw komgaBadRequest(error.message);
    throw error;
  }
}

export class KomgaLists {
  constructor(
    private readonly services: Pick<Services, 'collections' | 'readLists' | 'cblImport' | 'readProgress'>,
    private readonly komga: KomgaService,
  ) {}

  // ---- collections ------------------------------------------------------------------------------------------

  async collections(viewer: Viewer, paging: KomgaPaging, query: { search?: string; libraryIds?: string[] }) {
    const { rows, total } = await this.services.collections.rows(viewer, query, paging.request);
    return springPage(await this.toCollections(viewer, rows), total, paging);
  }

  async collection(viewer: Viewer, id: string): Promise<KomgaCollection> {
    const [dto] = await this.toCollections(viewer, [await this.services.collections.row(viewer, id)]);
    return dto as KomgaCollection;
  }

  async collectionsOfSeries(viewer: Viewer, seriesId: string): Promise<KomgaCollection[]> {
    const { rows } = await this.services.collections.rowsOfSeries(viewer, seriesId);
    return this.toCollections(viewer, rows);
  }

  async createCollection(viewer: Viewer, body: z.infer<typeof CollectionCreationSchema>) {
    const created = await asKomga(this.services.collections.create(viewer, body));
    return this.collection(viewer, created.id);
  }

  async updateCollection(viewer: Viewer, id: string, body: z.infer<typeof CollectionUpdateSchema>) {
    const { collections } = this.services;
    const changes = { name: body.name ?? undefined, ordered: body.ordered ?? undefined };
    // Only what was sent is written, so a reorder announces one CollectionChanged, with the new order.
    // Checked first: a bad id changes nothing at all.
    if (body.seriesIds) await collections.checkSeries(viewer, body.seriesIds);
    if (sent(changes) || !body.seriesIds) await asKomga(collections.update(viewer, id, changes));
    if (body.seriesIds) await collections.replaceSeries(viewer, id, body.seriesIds);
  }

  async collectionSeries(viewer: Viewer, id: string, paging: KomgaPaging) {
    // A smart collection of books has no series to show Komga's clients (its seriesIds are empty too).
    const row = await this.services.collections.record(viewer, id);
    if (row.rule?.target === 'books') return springPage([], 0, paging);
    const { data, total } = await this.services.collections.series(viewer, id, paging.request);
    return this.komga.seriesPage(
      viewer,
      data.map((s) => s.id),
      total,
      paging,
    );
  }

  private async toCollections(viewer: Viewer, rows: CollectionRow[]): Promise<KomgaCollection[]> {
    const members = await this.services.collections.visibleSeriesIds(viewer, rows);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      ordered: row.ordered,
      seriesIds: members.get(row.id) ?? [],
      createdDate: komgaDate(row.createdAt),
      lastModifiedDate: komgaDate(row.updatedAt),
      filtered: row.visibleCount < row.memberCount,
    }));
  }

  // ---- read lists -------------------------------------------------------------------------------------------

  async readLists(viewer: Viewer, paging: KomgaPaging, query: { search?: string; libraryIds?: string[] }) {
    const sortBy = paging.sort.find((s) => s.property in READ_LIST_SORTS);
    const sort = sortBy
      ? { field: READ_LIST_SORTS[sortBy.property as keyof typeof READ_LIST_SORTS], direction: sortBy.direction }
      : undefined;
    const { rows, total } = await this.services.readLists.rows(viewer, { ...query, sort }, paging.request);
    return springPage(await this.toReadLists(viewer, rows), total, paging);
  }

  async readList(viewer: Viewer, id: string): Promise<KomgaReadList> {
    const [dto] = await this.toReadLists(viewer, [await this.services.readLists.row(viewer, id)]);
    return dto as KomgaReadList;
  }

  async readListsOfBook(viewer: Viewer, bookId: string): Promise<KomgaReadList[]> {
    const { rows } = await this.services.readLists.rowsOfBook(viewer, bookId);
    return this.toReadLists(viewer, rows);
  }

  async createReadList(viewer: Viewer, body: z.infer<typeof ReadListCreationSchema>) {
    const created = await asKomga(this.services.readLists.create(viewer, body));
    return this.readList(viewer, created.id);
  }

  async updateReadList(viewer: Viewer, id: string, body: z.infer<typeof ReadListUpdateSchema>) {
    const { readLists } = this.services;
    const changes = {
      name: body.name ?? undefined,
      summary: body.summary ?? undefined,
      ordered: body.ordered ?? undefined,
    };
    if (body.bookIds) await readLists.checkBooks(viewer, body.bookIds);
    if (sent(changes) || !body.bookIds) await asKomga(readLists.update(viewer, id, changes));
    if (body.bookIds) await readLists.replaceBooks(viewer, id, body.bookIds);
  }

  async readListBooks(viewer: Viewer, id: string, paging: KomgaPaging) {
    const { data, total } = await this.services.readLists.books(viewer, id, paging.request);
    return this.komga.bookPage(
      viewer,
      data.map((b) => b.id),
      total,
      paging,
    );
  }

  async sibling(viewer: Viewer, id: string, bookId: string, step: 1 | -1) {
    const other = await this.services.readLists.sibling(viewer, id, bookId, step);
    return this.komga.getBook(viewer, other);
  }

  /** Komga's tracker over a read list: its books in list order, numbered 1…n. */
  async tachiyomiProgress(viewer: Viewer, id: string) {
    const books = await this.orderedBooks(viewer, id);
    const { booksCount, booksReadCount, booksUnreadCount, booksInProgressCount, lastReadContinuousIndex } =
      trackerProgress(books.map((book, index) => ({ book, sort: index + 1 })));
    return { booksCount, booksReadCount, booksUnreadCount, booksInProgressCount, lastReadContinuousIndex };
  }

  /** The tracker's PUT: the first `lastBookRead` books of the list become read; nothing is unmarked. */
  async markFirstRead(actor: ProgressActor, id: string, lastBookRead: number): Promise<void> {
    const books = await this.orderedBooks(actor.viewer, id);
    for (const book of books.slice(0, lastBookRead)) {
      if (book.progress?.completed !== true) await this.services.readProgress.markRead(actor, book.id);
    }
  }

  private async orderedBooks(viewer: Viewer, id: string) {
    await this.services.readLists.record(viewer, id);
    const ids = (await this.services.readLists.visibleBookIds(viewer, [id])).get(id) ?? [];
    return this.komga.booksInOrder(viewer, ids);
  }

  private async toReadLists(viewer: Viewer, rows: ReadListRow[]): Promise<KomgaReadList[]> {
    const members = await this.services.readLists.visibleBookIds(
      viewer,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      summary: row.summary,
      ordered: row.ordered,
      bookIds: members.get(row.id) ?? [],
      createdDate: komgaDate(row.createdAt),
      lastModifiedDate: komgaDate(row.updatedAt),
      filtered: row.visibleCount < row.memberCount,
    }));
  }

  // ---- ComicRack -------------------------------------------------------------------------------------------

  /**
   * Komga's `POST readlists/match/comicrack`: every entry with the books that fit it, grouped by series; creates
   * nothing. A file that is not a reading list is a 400 whose message is Komga's error code.
   */
  async matchComicRack(viewer: Viewer, bytes: Uint8Array) {
    let list: CblReadingList;
    try {
      list = parseCbl(bytes);
    } catch (error) {
      if (error instanceof CblError) throw komgaBadRequest(error.code);
      throw error;
    }
    const { candidates } = await this.services.cblImport.matchList(viewer, list);
    const taken = await this.services.readLists.idOfName(list.name);
    return {
      readListMatch: { name: list.name, errorCode: taken ? 'ERR_1009' : '' },
      requests: list.entries.map((entry) => {
        const bySeries = new Map<
          string,
          {
            series: { seriesId: string; title: string; releaseDate: string | null };
            books: Array<{ bookId: string; number: string; title: string }>;
          }
        >();
        for (const book of fittingBooks(entry, candidates)) {
          const group = bySeries.get(book.seriesId) ?? {
            series: {
              seriesId: book.seriesId,
              title: book.seriesTitle,
              releaseDate: book.seriesYear === null ? null : `${book.seriesYear}-01-01`,
            },
            books: [],
          };
          group.books.push({ bookId: book.bookId, number: book.number ?? '', title: book.title });
          bySeries.set(book.seriesId, group);
        }
        const series =
          entry.volume !== null && entry.volume !== 1
            ? [`${entry.series} (${entry.volume})`, entry.series]
            : [entry.series];
        return { request: { series, number: entry.number }, matches: [...bySeries.values()] };
      }),
      errorCode: '',
    };
  }
}
