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
import type { ListEdit, ListTypes, MemberListService } from '../services/member-list.service';
import { COLLECTIONS_READ, READ_LISTS_READ } from '../auth/permissions';
import { AppError } from '../lib/errors';
import { type CblReadingList, CblError, parseCbl } from '../lists/cbl';
import { fittingBooks } from '../lists/cbl-matching';
import type { ProgressActor } from '../services/read-progress.service';
import { komgaBadRequest } from './komga-errors';
import type { need } from './komga-http';
import { type KomgaPaging, springPage } from './komga-paging';
import { komgaDate, toKomgaBook, toKomgaSeries } from './komga.mappers';
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

type ListServices = Pick<Services, 'collections' | 'readLists' | 'cblImport' | 'readProgress'>;
type AnyRow = CollectionRow | ReadListRow;
type Permission = Parameters<typeof need>[0];

/**
 * How Komga shows one kind of list: its path and permissions, which service holds it, its DTO from a row and
 * its visible member ids, its bodies, and what an update body changes (its own fields, and its member ids when
 * sent).
 */
export interface KomgaListKind<Row extends AnyRow, Dto, Creation extends z.ZodType, Update extends z.ZodType> {
  path: 'collections' | 'readlists';
  /** The path of the lists holding one member. */
  ofMember: '/api/v1/series/:id/collections' | '/api/v1/books/:id/readlists';
  read: Permission;
  write: Permission;
  del: Permission;
  lists: (
    services: ListServices,
  ) => MemberListService<
    ListTypes & { row: Row; dto: { id: string }; create: z.infer<Creation>; edit: never; query: never }
  >;
  toKomga: (row: Row, memberIds: string[]) => Dto;
  creation: Creation;
  update: Update;
  edit: (body: z.infer<Update>) => { changes: ListEdit; memberIds: string[] | null | undefined };
  /** The list query of Komga's paging (a read list's sort). */
  sortOf?: (paging: KomgaPaging) => object;
}

/** A kind, its types inferred from its service, its DTO and its bodies. */
const komgaList = <Row extends AnyRow, Dto, C extends z.ZodType, U extends z.ZodType>(
  kind: KomgaListKind<Row, Dto, C, U>,
) => kind;

/** When the list was made and changed, and whether the viewer sees only part of it: Komga's last fields. */
const komgaTail = (row: AnyRow) => ({
  createdDate: komgaDate(row.createdAt),
  lastModifiedDate: komgaDate(row.updatedAt),
  filtered: row.visibleCount < row.memberCount,
});

export const KOMGA_COLLECTIONS = komgaList({
  path: 'collections',
  ofMember: '/api/v1/series/:id/collections',
  read: COLLECTIONS_READ,
  write: 'CollectionsWrite',
  del: 'CollectionsDelete',
  lists: (services) => services.collections,
  toKomga: (row: CollectionRow, seriesIds): KomgaCollection => {
    return { id: row.id, name: row.name, ordered: row.ordered, seriesIds, ...komgaTail(row) };
  },
  creation: CollectionCreationSchema,
  update: CollectionUpdateSchema,
  edit: (body) => ({
    changes: { name: body.name ?? undefined, ordered: body.ordered ?? undefined },
    memberIds: body.seriesIds,
  }),
});

export const KOMGA_READ_LISTS = komgaList({
  path: 'readlists',
  ofMember: '/api/v1/books/:id/readlists',
  read: READ_LISTS_READ,
  write: 'ReadListsWrite',
  del: 'ReadListsDelete',
  lists: (services) => services.readLists,
  toKomga: (row: ReadListRow, bookIds): KomgaReadList => {
    const { id, name, summary, ordered } = row;
    return { id, name, summary, ordered, bookIds, ...komgaTail(row) };
  },
  creation: ReadListCreationSchema,
  update: ReadListUpdateSchema,
  edit: ({ name, summary, ordered, bookIds }) => ({
    changes: { name: name ?? undefined, summary: summary ?? undefined, ordered: ordered ?? undefined },
    memberIds: bookIds,
  }),
  sortOf: (paging) => {
    const sortBy = paging.sort.find((s) => s.property in READ_LIST_SORTS);
    return sortBy
      ? {
          sort: {
            field: READ_LIST_SORTS[sortBy.property as keyof typeof READ_LIST_SORTS],
            direction: sortBy.direction,
          },
        }
      : {};
  },
});

export class KomgaLists {
  constructor(
    private readonly services: ListServices,
    private readonly komga: KomgaService,
  ) {}

  // ---- both kinds -----------------------------------------------------------------------------------------

  async page<Row extends AnyRow, Dto, Creation extends z.ZodType, Update extends z.ZodType>(
    kind: KomgaListKind<Row, Dto, Creation, Update>,
    viewer: Viewer,
    paging: KomgaPaging,
    query: { search?: string; libraryIds?: string[] },
  ) {
    const lists = kind.lists(this.services);
    const { rows, total } = await lists.rows(viewer, { ...query, ...kind.sortOf?.(paging) } as never, paging.request);
    return springPage(await this.toKomga(kind, viewer, rows), total, paging);
  }

  async one<Row extends AnyRow, Dto, Creation extends z.ZodType, Update extends z.ZodType>(
    kind: KomgaListKind<Row, Dto, Creation, Update>,
    viewer: Viewer,
    id: string,
  ) {
    const [dto] = await this.toKomga(kind, viewer, [await kind.lists(this.services).row(viewer, id)]);
    return dto as Dto;
  }

  /** The lists holding a series (collections) or a book (read lists), unpaged. */
  async ofMember<Row extends AnyRow, Dto, Creation extends z.ZodType, Update extends z.ZodType>(
    kind: KomgaListKind<Row, Dto, Creation, Update>,
    viewer: Viewer,
    id: string,
  ) {
    const { rows } = await kind.lists(this.services).rowsOfMember(viewer, id);
    return this.toKomga(kind, viewer, rows);
  }

  async create<Row extends AnyRow, Dto, Creation extends z.ZodType, Update extends z.ZodType>(
    kind: KomgaListKind<Row, Dto, Creation, Update>,
    viewer: Viewer,
    body: z.infer<Creation>,
  ) {
    const created = await asKomga(kind.lists(this.services).create(viewer, body));
    return this.one(kind, viewer, created.id);
  }

  async update<Row extends AnyRow, Dto, Creation extends z.ZodType, Update extends z.ZodType>(
    kind: KomgaListKind<Row, Dto, Creation, Update>,
    viewer: Viewer,
    id: string,
    body: z.infer<Update>,
  ) {
    const lists = kind.lists(this.services);
    const { changes, memberIds } = kind.edit(body);
    // Only what was sent is written, so a reorder announces one change, with the new order.
    // Checked first: a bad id changes nothing at all.
    if (memberIds) await lists.checkMembers(viewer, memberIds);
    if (sent({ ...changes }) || !memberIds) await asKomga(lists.update(viewer, id, changes as never));
    if (memberIds) await lists.replaceMembers(viewer, id, memberIds);
  }

  private async toKomga<Row extends AnyRow, Dto, Creation extends z.ZodType, Update extends z.ZodType>(
    kind: KomgaListKind<Row, Dto, Creation, Update>,
    viewer: Viewer,
    rows: Row[],
  ): Promise<Dto[]> {
    const members = await kind.lists(this.services).memberIdsOf(viewer, rows);
    return rows.map((row) => kind.toKomga(row, members.get(row.id) ?? []));
  }

  // ---- collections ------------------------------------------------------------------------------------------

  async collectionSeries(viewer: Viewer, id: string, paging: KomgaPaging) {
    // A smart collection of books has no series to show Komga's clients (its seriesIds are empty too).
    const enrich = this.komga.seriesOfPage(viewer);
    const { rows, total } = await this.services.collections.seriesAs(viewer, id, paging.request, enrich);
    return springPage(rows.map(toKomgaSeries), total, paging);
  }

  // ---- read lists -------------------------------------------------------------------------------------------

  async readListBooks(viewer: Viewer, id: string, paging: KomgaPaging) {
    const enrich = this.komga.booksOfPage(viewer);
    const { rows, total } = await this.services.readLists.booksAs(viewer, id, paging.request, enrich);
    return springPage(rows.map(toKomgaBook), total, paging);
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
    const { readLists } = this.services;
    const ids = (await readLists.memberIdsOf(viewer, [await readLists.record(viewer, id)])).get(id) ?? [];
    return this.komga.booksInOrder(viewer, ids);
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
