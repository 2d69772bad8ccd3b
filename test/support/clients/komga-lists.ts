/**
 * Collections and read lists as Komga serves them and as Mihon and Komelia call them — issue 19's "replays
 * Mihon's and Komelia's collection and read-list calls and checks the shapes against Komga's DTOs".
 *
 * Komga (gotson/komga, `komga/src/main/kotlin/org/gotson/komga/`): `interfaces/api/rest/SeriesCollectionController.kt`,
 * `ReadListController.kt`, `SeriesController.kt` (`getCollectionsBySeriesId`), `BookController.kt` (`getReadListsByBookId`),
 * `rest/dto/{Collection,ReadList}{Dto,CreationDto,UpdateDto}.kt`, `ReadListRequestMatchDto.kt`,
 * `Tachiyomi*Dto.kt`, `Thumbnail{SeriesCollection,ReadList}Dto.kt`, `interfaces/sse/SseController.kt` +
 * `sse/dto/{Collection,ReadList}SseDto.kt`, `domain/service/ReadListMatcher.kt`,
 * `infrastructure/jooq/main/ReadListRequestDao.kt`, `infrastructure/jooq/main/ReadProgressDtoDao.kt`.
 * Mihon: keiyoushi/extensions-source `src/all/komga/src/eu/kanade/tachiyomi/extension/all/komga/{Komga.kt,
 * KomgaFilters.kt, dto/Dto.kt}` and mihonapp/mihon `app/src/main/java/eu/kanade/tachiyomi/data/track/komga/
 * {KomgaApi.kt, KomgaModels.kt}`. Komelia: Snd-R/komga-client `collection/*`, `readlist/*`, `sse/KomgaEvent.kt`,
 * `sse/KtorKomgaSSESession.kt`; Snd-R/Komelia `komelia-ui/src/commonMain/kotlin/snd/komelia/ui/` `collection/
 * {CollectionViewModel,SeriesCollectionsState}.kt`, `readlist/{ReadListViewModel,BookReadListsState}.kt`,
 * `library/Library{Collections,ReadLists}TabState.kt`, `dialogs/{collectionadd,collectionedit,readlistadd,
 * readlistedit}/*ViewModel.kt`, `reader/image/ReaderState.kt`. Commits: UPSTREAM in ./client-http.ts.
 */
import { z } from 'zod';
import {
  instant,
  int,
  komgaThumbnail,
  KomeliaBook,
  KomeliaPage,
  KomeliaSeries,
  MihonBookDto,
  MihonCollectionDto,
  MihonPageWrapper,
  MihonSeriesDto,
} from '../komga-client-dtos';
import {
  type ClientStep,
  type KomgaPageRequest,
  komgaPageParams,
  kotlinJoin,
  ktorQuery,
  okhttpQuery,
  ref,
} from './client-http';

const REST = 'komga/src/main/kotlin/org/gotson/komga/interfaces/api/rest';
const EXT = 'src/all/komga/src/eu/kanade/tachiyomi/extension/all/komga';
const TRACKER = 'app/src/main/java/eu/kanade/tachiyomi/data/track/komga';
const KC = 'src/commonMain/kotlin/snd/komga/client';
const UI = 'komelia-ui/src/commonMain/kotlin/snd/komelia/ui';

// ---- Komga's DTOs ---------------------------------------------------------------------------------------------

/**
 * Komga `CollectionDto`. `seriesIds` holds only the series the user may see, and `filtered` is true when some
 * were left out; a collection with no visible series is not listed at all. Timestamps `yyyy-MM-dd'T'HH:mm:ss'Z'`.
 */
export const KomgaCollectionDto = z.object({
  id: z.string(),
  name: z.string(),
  ordered: z.boolean(),
  seriesIds: z.array(z.string()),
  createdDate: instant,
  lastModifiedDate: instant,
  filtered: z.boolean(),
});

/** Komga `ReadListDto`: `bookIds` in list order, visible ones only, `filtered` as for collections. */
export const KomgaReadListDto = z.object({
  id: z.string(),
  name: z.string(),
  summary: z.string(),
  ordered: z.boolean(),
  bookIds: z.array(z.string()),
  createdDate: instant,
  lastModifiedDate: instant,
  filtered: z.boolean(),
});

const uniqueIds = (what: string) =>
  z
    .array(z.string())
    .min(1)
    .refine((ids) => new Set(ids).size === ids.length, `${what} must be unique`);

/**
 * `POST /api/v1/collections` (ADMIN) → 200 CollectionDto. `name` `@NotBlank`, unique ignoring case (duplicate:
 * 400 ResponseStatusException with the DuplicateNameException message); `ordered` has no default (missing → 400);
 * `seriesIds` `@NotEmpty @UniqueElements` (empty or repeated → 400 `{violations}`).
 */
export const KomgaCollectionCreationDto = z.object({
  name: z.string().trim().min(1),
  ordered: z.boolean(),
  seriesIds: uniqueIds('seriesIds'),
});

/** `PATCH /api/v1/collections/{id}` (ADMIN) → 204: absent/null = unchanged; `seriesIds` replaces the members. */
export const KomgaCollectionUpdateDto = z.object({
  name: z.string().trim().min(1).nullable().optional(),
  ordered: z.boolean().nullable().optional(),
  seriesIds: uniqueIds('seriesIds').nullable().optional(),
});

/** `POST /api/v1/readlists` (ADMIN) → 200 ReadListDto; `summary` defaults to "", `ordered` to true. */
export const KomgaReadListCreationDto = z.object({
  name: z.string().trim().min(1),
  summary: z.string().default(''),
  ordered: z.boolean().default(true),
  bookIds: uniqueIds('bookIds'),
});

/** `PATCH /api/v1/readlists/{id}` (ADMIN) → 204; `bookIds` replaces the list, in the order given. */
export const KomgaReadListUpdateDto = z.object({
  name: z.string().trim().min(1).nullable().optional(),
  summary: z.string().nullable().optional(),
  ordered: z.boolean().nullable().optional(),
  bookIds: uniqueIds('bookIds').nullable().optional(),
});

/** `ThumbnailSeriesCollectionDto` / `ThumbnailReadListDto` (type: USER_UPLOADED; all fields required). */
export const KomgaCollectionThumbnail = komgaThumbnail('collectionId');
export const KomgaReadListThumbnail = komgaThumbnail('readListId');

/**
 * `POST /api/v1/readlists/match/comicrack` (ADMIN, multipart part `file`) → 200 ReadListRequestMatchDto, or
 * 400 whose `message` is the error code: ERR_1015 not parseable, ERR_1030 no `Name`, ERR_1029 no `Book`,
 * ERR_1031 a Book without Series or Number. It creates nothing: the client then POSTs `/readlists` with the
 * chosen `bookIds`. `readListMatch.errorCode` is ERR_1009 when a read list of that name exists (else "");
 * the top-level `errorCode` is always "". One `requests` entry per CBL Book, in file order; `matches` is empty
 * for an unmatched entry. Matching (ReadListRequestDao): series title = any candidate ignoring case (candidates:
 * `Series`, plus `Series (Volume)` when Volume ≠ 1), book number equal after stripping leading zeros, ignoring
 * case; Year and the Database ids are ignored; `releaseDate` (the series' aggregated one) helps the user choose.
 */
export const KomgaReadListRequestMatchDto = z.object({
  readListMatch: z.object({ name: z.string(), errorCode: z.string() }),
  requests: z.array(
    z.object({
      request: z.object({ series: z.array(z.string()), number: z.string() }),
      matches: z.array(
        z.object({
          series: z.object({ seriesId: z.string(), title: z.string(), releaseDate: z.string().nullable() }),
          books: z.array(z.object({ bookId: z.string(), number: z.string(), title: z.string() })),
        }),
      ),
    }),
  ),
  errorCode: z.string(),
});

export const COMICRACK_ERROR_CODES = {
  ERR_1009: 'a read list with this name already exists (readListMatch.errorCode, still 200)',
  ERR_1015: 'the file is not a ComicRack ReadingList (400)',
  ERR_1029: 'the ReadingList has no Book (400)',
  ERR_1030: 'the ReadingList has no Name (400)',
  ERR_1031: 'a Book lacks Series or Number (400)',
} as const;

/**
 * Komga `TachiyomiReadProgressDto` for `GET /api/v1/readlists/{id}/read-progress/tachiyomi`: counts over the
 * read list's books; `lastReadContinuousIndex` = 1-based position (list order) of the last book of the unbroken
 * run of completed books from the first one (0 when the first is unread).
 */
export const KomgaReadListTachiyomiProgressDto = z.object({
  booksCount: int,
  booksReadCount: int,
  booksUnreadCount: int,
  booksInProgressCount: int,
  lastReadContinuousIndex: int,
});

/** `PUT …/read-progress/tachiyomi` body (`@PositiveOrZero`): marks the first `lastBookRead` books completed → 204. */
export const KomgaTachiyomiReadProgressUpdateDto = z.object({ lastBookRead: int.min(0) });

// ---- SSE ------------------------------------------------------------------------------------------------------

/**
 * `GET /sse/v1/events`: Komga sends these to every connected user with the full member lists (event names are the
 * SSE `event:` field, the DTO is `data:`). komga-client decodes each with kotlinx (`sse/KomgaEvent.kt`
 * `toKomgaEvent`) inside the flow itself (`KtorKomgaSSESession`): a payload missing `seriesIds`/`bookIds` throws
 * and ends Komelia's event stream, so every field is required.
 */
export const KomgaCollectionEvent = z.object({ collectionId: z.string(), seriesIds: z.array(z.string()) });
export const KomgaReadListEvent = z.object({ readListId: z.string(), bookIds: z.array(z.string()) });
export const KomgaCollectionThumbnailEvent = z.object({ collectionId: z.string(), selected: z.boolean() });
export const KomgaReadListThumbnailEvent = z.object({ readListId: z.string(), selected: z.boolean() });

export const LIST_EVENTS = {
  CollectionAdded: KomgaCollectionEvent,
  CollectionChanged: KomgaCollectionEvent,
  CollectionDeleted: KomgaCollectionEvent,
  ReadListAdded: KomgaReadListEvent,
  ReadListChanged: KomgaReadListEvent,
  ReadListDeleted: KomgaReadListEvent,
  ThumbnailSeriesCollectionAdded: KomgaCollectionThumbnailEvent,
  ThumbnailSeriesCollectionDeleted: KomgaCollectionThumbnailEvent,
  ThumbnailReadListAdded: KomgaReadListThumbnailEvent,
  ThumbnailReadListDeleted: KomgaReadListThumbnailEvent,
} as const;

/** Which Komelia screen reloads on which event (the screens' `startKomgaEventListener`), 1 s debounce each. */
export const KOMELIA_LIST_EVENT_REACTIONS = [
  {
    screen: 'library Collections tab',
    reloadsOn: 'any Collection{Added,Changed,Deleted}',
    source: ref('komelia', `${UI}/library/LibraryCollectionsTabState.kt`),
  },
  {
    screen: 'collection',
    reloadsOn:
      'CollectionChanged with its id; SeriesChanged/SeriesDeleted/ReadProgressSeries* of a shown series (not CollectionDeleted)',
    source: ref('komelia', `${UI}/collection/CollectionViewModel.kt`),
  },
  {
    screen: 'series page, collections row',
    reloadsOn: 'any Collection* event for a collection it shows',
    source: ref('komelia', `${UI}/collection/SeriesCollectionsState.kt`),
  },
  {
    screen: 'library Read lists tab',
    reloadsOn: 'any ReadList{Added,Changed,Deleted}',
    source: ref('komelia', `${UI}/library/LibraryReadListsTabState.kt`),
  },
  {
    screen: 'read list',
    reloadsOn:
      'ReadListChanged with its id; BookChanged/BookDeleted/ReadProgressChanged/ReadProgressDeleted of a shown book',
    source: ref('komelia', `${UI}/readlist/ReadListViewModel.kt`),
  },
  {
    screen: 'book page, read lists row',
    reloadsOn: 'BookChanged of a shown book; any ReadList* event for a list it shows',
    source: ref('komelia', `${UI}/readlist/BookReadListsState.kt`),
  },
] as const;

// ---- What Mihon parses (Json { ignoreUnknownKeys = true; explicitNulls = false }) -------------------------------

/** Mihon extension `ReadListDto` (dto/Dto.kt): **no `ordered`**, but `filtered` and `summary` are required. */
export const MihonReadListDto = z.object({
  id: z.string(),
  name: z.string(),
  summary: z.string(),
  bookIds: z.array(z.string()),
  createdDate: z.string(),
  lastModifiedDate: z.string(),
  filtered: z.boolean(),
});

/** Mihon tracker `ReadListDto` (KomgaModels.kt): no summary, `filtered` required. */
export const MihonTrackerReadListDto = MihonReadListDto.omit({ summary: true });

/** Mihon tracker `ReadProgressDto` (read lists); `toV2()` makes maxNumberSort = booksCount. */
export const MihonTrackerReadListProgressDto = KomgaReadListTachiyomiProgressDto;

// ---- What Komelia parses (komga-client 0.10) ------------------------------------------------------------------

/** komga-client `KomgaCollection` (collection/KomgaCollection.kt): kotlinx Instants, all fields required. */
export const KomeliaCollection = KomgaCollectionDto;
/** komga-client `KomgaReadList` (readlist/KomgaReadList.kt). */
export const KomeliaReadList = KomgaReadListDto;

// ---- Mihon's requests (OkHttp) --------------------------------------------------------------------------------

export type MihonSort = 'relevance' | 'alphabetically' | 'createdDate' | 'lastModifiedDate' | 'random';

/**
 * `Komga.searchMangaRequest`: the browse/search URL for series, a collection's series (collection filter set),
 * read lists (type filter "Read lists") or books. Query order as the extension adds it: search, page (0-based),
 * deleted, library_id (default libraries, comma-joined), filters (read_status repeated, status/genre/tag/
 * publisher comma-joined, author `name,role` repeated), sort. "Alphabetically" is `metadata.titleSort` only for
 * `series`; for a collection's series, read lists and books it is `name` — so `collections/{id}/series` receives
 * `sort=name,asc`, which Komga ignores there (it sorts by the collection's own order).
 */
export function mihonBrowseRequest(options: {
  kind: 'series' | 'readlists' | 'books' | { collectionId: string };
  page: number;
  search?: string;
  sort?: { by: MihonSort; ascending: boolean };
  libraryIds?: string[];
  readStatus?: ('UNREAD' | 'IN_PROGRESS' | 'READ')[];
}): string {
  const type = typeof options.kind === 'string' ? options.kind : `collections/${options.kind.collectionId}/series`;
  const params: [string, string][] = [
    ['search', options.search ?? ''],
    ['page', String(options.page - 1)],
    ['deleted', 'false'],
  ];
  if (options.libraryIds?.length) params.push(['library_id', options.libraryIds.join(',')]);
  for (const status of options.readStatus ?? []) params.push(['read_status', status]);
  if (options.sort) {
    const by =
      options.sort.by === 'alphabetically' ? (type === 'series' ? 'metadata.titleSort' : 'name') : options.sort.by;
    params.push(['sort', `${by},${options.sort.ascending ? 'asc' : 'desc'}`]);
  }
  return `/api/v1/${type}?${okhttpQuery(params)}`;
}

/**
 * Browsing a collection in Mihon: a search (empty query) with the Collection filter set and the filter sheet's
 * default sort (`SeriesSort()` = Relevance, ascending). "Popular" and "Latest" never carry a collection.
 */
export const mihonCollectionBrowse = (collectionId: string, page = 1) =>
  mihonBrowseRequest({ kind: { collectionId }, page, sort: { by: 'relevance', ascending: true } });

export const MIHON_STEPS: readonly ClientStep[] = [
  {
    step: 'collection-filter-options',
    client: 'mihon-extension',
    method: 'GET',
    path: '/api/v1/collections',
    query: 'unpaged=true',
    accepts: [200],
    response: MihonPageWrapper(MihonCollectionDto),
    effect:
      'Fills the "Collection" filter with `name` → `id` (fetched in the background with libraries, genres, tags, publishers, authors; a failure hides every filter).',
    source: [ref('mihonExtension', `${EXT}/Komga.kt`, 'fetchFilterOptions')],
  },
  {
    step: 'collection-series',
    client: 'mihon-extension',
    method: 'GET',
    path: '/api/v1/collections/{collectionId}/series',
    query: 'search={q}&page={n-1}&deleted=false[&filters][&sort=name,asc]',
    accepts: [200],
    response: MihonPageWrapper(MihonSeriesDto),
    effect: 'A page of series; the next page is asked while `last` is false.',
    source: [ref('mihonExtension', `${EXT}/Komga.kt`, 'searchMangaRequest')],
  },
  {
    step: 'readlists-browse',
    client: 'mihon-extension',
    method: 'GET',
    path: '/api/v1/readlists',
    query:
      'search={q}&page={n-1}&deleted=false[&library_id=a,b][&sort=relevance|name|createdDate|lastModifiedDate|random,asc|desc]',
    accepts: [200],
    response: MihonPageWrapper(MihonReadListDto),
    effect:
      'Each read list becomes a manga: title = name, description = summary, url = …/readlists/{id}, cover = …/readlists/{id}/thumbnail.',
    source: [ref('mihonExtension', `${EXT}/dto/Dto.kt`, 'ReadListDto.toSManga')],
  },
  {
    step: 'readlist-details',
    client: 'mihon-extension',
    method: 'GET',
    path: '/api/v1/readlists/{readListId}',
    accepts: [200],
    response: MihonReadListDto,
    effect: 'Refreshes the title and description.',
    source: [ref('mihonExtension', `${EXT}/Komga.kt`, 'mangaDetailsParse')],
  },
  {
    step: 'readlist-thumbnail',
    client: 'mihon-extension',
    method: 'GET',
    path: '/api/v1/readlists/{readListId}/thumbnail',
    accepts: [200],
    effect: 'Cover image (any image type).',
    source: [ref('mihonExtension', `${EXT}/dto/Dto.kt`, 'ReadListDto.toSManga')],
  },
  {
    step: 'readlist-chapters',
    client: 'mihon-extension',
    method: 'GET',
    path: '/api/v1/readlists/{readListId}/books',
    query: 'unpaged=true&media_status=READY&deleted=false',
    accepts: [200],
    response: MihonPageWrapper(MihonBookDto),
    effect:
      'Chapters numbered 1, 2, … by position **in the order returned** (EPUBs without epubDivinaCompatible dropped ' +
      'first), names prefixed with the series title; so the server order is the reading order.',
    source: [ref('mihonExtension', `${EXT}/Komga.kt`, 'chapterListParse')],
  },
  {
    step: 'tracker-readlist',
    client: 'mihon-tracker',
    method: 'GET',
    path: '/api/v1/readlists/{readListId}',
    accepts: [200],
    response: MihonTrackerReadListDto,
    effect: 'Binds the tracker (title = name); cover = …/thumbnail.',
    source: [ref('mihon', `${TRACKER}/KomgaApi.kt`, 'getTrackSearch')],
  },
  {
    step: 'tracker-readlist-progress',
    client: 'mihon-tracker',
    method: 'GET',
    path: '/api/v1/readlists/{readListId}/read-progress/tachiyomi',
    accepts: [200],
    response: MihonTrackerReadListProgressDto,
    effect:
      'last read = lastReadContinuousIndex, total = booksCount; status UNREAD when booksUnreadCount = booksCount, ' +
      'COMPLETED when booksReadCount = booksCount, else READING. (Only series URLs are rewritten to /api/v2.)',
    source: [
      ref('mihon', `${TRACKER}/KomgaApi.kt`, 'getTrackSearch'),
      ref('komga', `${REST}/ReadListController.kt`, 'getMihonReadProgressByReadListId'),
    ],
  },
  {
    step: 'tracker-readlist-progress-put',
    client: 'mihon-tracker',
    method: 'PUT',
    path: '/api/v1/readlists/{readListId}/read-progress/tachiyomi',
    body: KomgaTachiyomiReadProgressUpdateDto,
    accepts: [200, 201, 202, 204],
    effect:
      '`{"lastBookRead": <chapter read, as Int>}` with Content-Type application/json; Komga marks the first N books of the ' +
      'list completed (others untouched) and answers 204; then the tracker GETs the read list and its progress again.',
    source: [
      ref('mihon', `${TRACKER}/KomgaApi.kt`, 'updateProgress'),
      ref('komga', `${REST}/ReadListController.kt`, 'updateMihonReadProgressByReadListId'),
    ],
  },
];

// ---- Komelia's requests (komga-client, Ktor) ------------------------------------------------------------------

const pageQuery = (params: [string, string][], page: KomgaPageRequest) =>
  ktorQuery([...params, ...komgaPageParams(page)]);

/**
 * komga-client `getAll` for collections or read lists: `search`, `library_id` (ids joined with `", "`, Kotlin's
 * default `joinToString()`: comma + space, so a server must split on commas and trim), then the page params.
 */
export function komeliaListsPath(kind: 'collections' | 'readlists', page: KomgaPageRequest, libraryIds: string[] = []) {
  const params: [string, string][] = libraryIds.length ? [['library_id', kotlinJoin(libraryIds)]] : [];
  return `/api/v1/${kind}?${pageQuery(params, page)}`;
}

/** komga-client `getSeriesForCollection` / `getBooksForReadList` with no query filters (as every screen calls them). */
export const komeliaMembersPath = (kind: 'collections' | 'readlists', id: string, page: KomgaPageRequest) =>
  `/api/v1/${kind}/${id}/${kind === 'collections' ? 'series' : 'books'}?${pageQuery([], page)}`;

/** Create from the "add to collection" dialog: a new collection is never ordered. */
export const komeliaCreateCollection = (name: string, seriesIds: string[]) => ({ name, ordered: false, seriesIds });
/** Create from the "add to read list" dialog: empty summary, ordered. */
export const komeliaCreateReadList = (name: string, bookIds: string[]) => ({
  name,
  summary: '',
  ordered: true,
  bookIds,
});
/** "Add to" an existing list: PATCH with the list's ids (as the client last saw them) + the new ones, deduplicated. */
export const komeliaAddTo = (existing: string[], added: string[]) => [...new Set([...existing, ...added])];
/** Drag-to-reorder ends: PATCH with **every id the screen loaded** (edit mode loads the list unpaged). */
export const komeliaReorderCollection = (seriesIds: string[]) => ({ seriesIds });
export const komeliaReorderReadList = (bookIds: string[]) => ({ bookIds });

/**
 * The edit dialogs (`CollectionEditDialogViewModel`, `ReadListEditDialogViewModel`): only changed fields are
 * sent (`patch(original, new)` → unset when equal), so saving only a poster change PATCHes `{}`.
 */
export function komeliaEditBody(
  original: { name: string; ordered: boolean; summary?: string },
  edited: { name: string; ordered: boolean; summary?: string },
) {
  const body: Record<string, unknown> = {};
  if (edited.name !== original.name) body.name = edited.name;
  if (original.summary !== undefined && edited.summary !== original.summary) body.summary = edited.summary;
  if (edited.ordered !== original.ordered) body.ordered = edited.ordered;
  return body;
}

const collectionSteps = (): ClientStep[] => [
  {
    step: 'library-collections',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/collections',
    query: 'library_id={libraryId}&size=50&page={n-1}&unpaged=false',
    accepts: [200],
    response: KomeliaPage(KomeliaCollection),
    effect: "The library's Collections tab (page size 50; no library_id on the all-libraries view).",
    source: [
      ref('komelia', `${UI}/library/LibraryCollectionsTabState.kt`),
      ref('komgaClient', `${KC}/collection/HttpCollectionClient.kt`, 'getAll'),
    ],
  },
  {
    step: 'collection',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/collections/{collectionId}',
    accepts: [200],
    response: KomeliaCollection,
    effect: 'Header of the collection screen; an error shows the error state.',
    source: [ref('komelia', `${UI}/collection/CollectionViewModel.kt`, 'loadCollection')],
  },
  {
    step: 'collection-series',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/collections/{collectionId}/series',
    query: 'size=100&page={n-1}&unpaged=false (edit mode: unpaged=true)',
    accepts: [200],
    response: KomeliaPage(KomeliaSeries),
    effect: "The grid, in the server's order (the collection order when ordered).",
    source: [ref('komelia', `${UI}/collection/CollectionViewModel.kt`, 'loadSeries')],
  },
  {
    step: 'collection-reorder',
    client: 'komelia',
    method: 'PATCH',
    path: '/api/v1/collections/{collectionId}',
    body: KomgaCollectionUpdateDto,
    accepts: [200, 204],
    effect: 'After a drag ends: `{"seriesIds": [every series the screen holds, new order]}`.',
    source: [ref('komelia', `${UI}/collection/CollectionViewModel.kt`, 'initialize')],
  },
  {
    step: 'series-collections',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/series/{seriesId}/collections',
    accepts: [200],
    response: z.array(KomeliaCollection),
    effect:
      'Series page: then, per collection, GET /api/v1/collections/{id}/series?size=500&unpaged=false for its row.',
    source: [ref('komelia', `${UI}/collection/SeriesCollectionsState.kt`, 'loadCollections')],
  },
  {
    step: 'add-to-collection-options',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/collections',
    query: 'unpaged=true',
    accepts: [200],
    response: KomeliaPage(KomeliaCollection),
    effect: 'The "add to collection" dialog, sorted by lastModifiedDate descending on the client.',
    source: [ref('komelia', `${UI}/dialogs/collectionadd/AddToCollectionDialogViewModel.kt`)],
  },
  {
    step: 'collection-create',
    client: 'komelia',
    method: 'POST',
    path: '/api/v1/collections',
    body: KomgaCollectionCreationDto,
    accepts: [200, 201],
    response: KomeliaCollection,
    effect: "komeliaCreateCollection(name, seriesIds); a 400 shows Komga's message as a notification.",
    source: [ref('komelia', `${UI}/dialogs/collectionadd/AddToCollectionDialogViewModel.kt`, 'createNew')],
  },
  {
    step: 'collection-add',
    client: 'komelia',
    method: 'PATCH',
    path: '/api/v1/collections/{collectionId}',
    body: KomgaCollectionUpdateDto,
    accepts: [200, 204],
    effect: '`{"seriesIds": komeliaAddTo(collection.seriesIds, selected)}`.',
    source: [ref('komelia', `${UI}/dialogs/collectionadd/AddToCollectionDialogViewModel.kt`, 'addTo')],
  },
  {
    step: 'collection-edit',
    client: 'komelia',
    method: 'PATCH',
    path: '/api/v1/collections/{collectionId}',
    body: KomgaCollectionUpdateDto,
    accepts: [200, 204],
    effect:
      'komeliaEditBody(); before it the dialog GETs /api/v1/collections?unpaged=true (duplicate-name check on the ' +
      'client) and /api/v1/collections/{id}/thumbnails; after it POST …/thumbnails (komgaClientThumbnailUpload) per ' +
      'new poster, PUT …/thumbnails/{tid}/selected, DELETE …/thumbnails/{tid}.',
    source: [ref('komelia', `${UI}/dialogs/collectionedit/CollectionEditDialogViewModel.kt`)],
  },
  {
    step: 'collection-delete',
    client: 'komelia',
    method: 'DELETE',
    path: '/api/v1/collections/{collectionId}',
    accepts: [200, 204],
    effect: 'Komga answers 204 and sends CollectionDeleted.',
    source: [ref('komelia', `${UI}/collection/CollectionViewModel.kt`, 'onCollectionDelete')],
  },
  {
    step: 'collection-poster',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/collections/{collectionId}/thumbnail',
    accepts: [200],
    effect: 'Card image; 404 → no image (komga-client 0.10 `getDefaultThumbnail` returns null).',
    source: [ref('komgaClient', `${KC}/collection/HttpCollectionClient.kt`, 'getDefaultThumbnail')],
  },
];

const readListSteps = (): ClientStep[] => [
  {
    step: 'library-readlists',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/readlists',
    query: 'library_id={libraryId}&size=50&page={n-1}&unpaged=false',
    accepts: [200],
    response: KomeliaPage(KomeliaReadList),
    effect: 'The Read lists tab.',
    source: [
      ref('komelia', `${UI}/library/LibraryReadListsTabState.kt`),
      ref('komgaClient', `${KC}/readlist/HttpReadListClient.kt`, 'getAll'),
    ],
  },
  {
    step: 'readlist',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/readlists/{readListId}',
    accepts: [200],
    response: KomeliaReadList,
    effect: 'Header (name, summary, ordered).',
    source: [ref('komelia', `${UI}/readlist/ReadListViewModel.kt`, 'loadReadList')],
  },
  {
    step: 'readlist-books',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/readlists/{readListId}/books',
    query: 'size=100&page={n-1}&unpaged=false (edit mode: unpaged=true)',
    accepts: [200],
    response: KomeliaPage(KomeliaBook),
    effect: "The list, in the server's order (list order when ordered, release date otherwise).",
    source: [ref('komelia', `${UI}/readlist/ReadListViewModel.kt`, 'loadBooks')],
  },
  {
    step: 'readlist-reorder',
    client: 'komelia',
    method: 'PATCH',
    path: '/api/v1/readlists/{readListId}',
    body: KomgaReadListUpdateDto,
    accepts: [200, 204],
    effect:
      'After a drag ends: `{"bookIds": [every book loaded, new order]}`; reloads on the ReadListChanged that follows.',
    source: [ref('komelia', `${UI}/readlist/ReadListViewModel.kt`, 'initialize')],
  },
  {
    step: 'book-readlists',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}/readlists',
    accepts: [200],
    response: z.array(KomeliaReadList),
    effect: 'Book page: then per list GET /api/v1/readlists/{id}/books?size=500&unpaged=false for its row.',
    source: [ref('komelia', `${UI}/readlist/BookReadListsState.kt`, 'loadReadLists')],
  },
  {
    step: 'readlist-create',
    client: 'komelia',
    method: 'POST',
    path: '/api/v1/readlists',
    body: KomgaReadListCreationDto,
    accepts: [200, 201],
    response: KomeliaReadList,
    effect:
      'komeliaCreateReadList(name, bookIds) from the "add to read list" dialog (options: GET /api/v1/readlists?unpaged=true).',
    source: [ref('komelia', `${UI}/dialogs/readlistadd/AddToReadListDialogViewModel.kt`, 'createNew')],
  },
  {
    step: 'readlist-add',
    client: 'komelia',
    method: 'PATCH',
    path: '/api/v1/readlists/{readListId}',
    body: KomgaReadListUpdateDto,
    accepts: [200, 204],
    effect: '`{"bookIds": komeliaAddTo(readList.bookIds, selected)}`.',
    source: [ref('komelia', `${UI}/dialogs/readlistadd/AddToReadListDialogViewModel.kt`, 'addTo')],
  },
  {
    step: 'readlist-edit',
    client: 'komelia',
    method: 'PATCH',
    path: '/api/v1/readlists/{readListId}',
    body: KomgaReadListUpdateDto,
    accepts: [200, 204],
    effect: 'komeliaEditBody() incl. summary; posters as for collections under /api/v1/readlists/{id}/thumbnails.',
    source: [ref('komelia', `${UI}/dialogs/readlistedit/ReadListEditDialogViewModel.kt`)],
  },
  {
    step: 'read-in-order-open',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/books/{bookId}',
    accepts: [200],
    response: KomeliaBook,
    effect:
      'Opening a book from a read list (BookSiblingsContext.ReadList): GET the book, GET …/pages, then previous and ' +
      'next below (each with its pages), then GET /api/v1/series/{seriesId} for the reading direction.',
    source: [ref('komelia', `${UI}/reader/image/ReaderState.kt`)],
  },
  {
    step: 'read-in-order-previous',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/readlists/{readListId}/books/{bookId}/previous',
    accepts: [200],
    response: KomeliaBook,
    effect: '404 = first book of the list (caught → null); any other error fails the reader.',
    source: [
      ref('komelia', `${UI}/reader/image/ReaderState.kt`, 'getPreviousBook'),
      ref('komga', `${REST}/ReadListController.kt`, 'getBookSiblingPreviousInReadList'),
    ],
  },
  {
    step: 'read-in-order-next',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/readlists/{readListId}/books/{bookId}/next',
    accepts: [200],
    response: KomeliaBook,
    effect: '404 = last book; turning past the last page loads the next one the same way (loadNextBook).',
    source: [
      ref('komelia', `${UI}/reader/image/ReaderState.kt`, 'getNextBook'),
      ref('komga', `${REST}/ReadListController.kt`, 'getBookSiblingNextInReadList'),
    ],
  },
];

export const KOMELIA_COLLECTION_STEPS: readonly ClientStep[] = collectionSteps();
export const KOMELIA_READLIST_STEPS: readonly ClientStep[] = readListSteps();

/**
 * The ComicRack import as Komga's own web UI does it (komga-webui `src/views/ImportReadList.vue` `matchFile` →
 * `src/services/komga-readlists.service.ts` `postReadListMatch`): a browser FormData with the chosen file under
 * `file`, then `POST /api/v1/readlists` with the first match's first book per entry, deduplicated. Neither Mihon
 * nor komga-client calls it.
 */
export const COMICRACK_IMPORT_STEPS: readonly ClientStep[] = [
  {
    step: 'comicrack-match',
    client: 'komga-webui',
    method: 'POST',
    path: '/api/v1/readlists/match/comicrack',
    body: 'multipart/form-data, part `file` = the .cbl (browser FormData: filename and the OS media type, often application/octet-stream)',
    accepts: [200],
    response: KomgaReadListRequestMatchDto,
    effect: 'Shows each entry with its first match; the user fixes unmatched ones, then creates the list.',
    source: [
      ref('komga', 'komga-webui/src/views/ImportReadList.vue', 'matchFile'),
      ref('komga', `${REST}/ReadListController.kt`, 'matchComicRackList'),
    ],
  },
  {
    step: 'comicrack-create',
    client: 'komga-webui',
    method: 'POST',
    path: '/api/v1/readlists',
    body: KomgaReadListCreationDto,
    accepts: [200],
    response: KomgaReadListDto,
    effect: '`{name, bookIds: unique matched ids in entry order, ordered: true, summary: ""}`.',
    source: [ref('komga', 'komga-webui/src/views/ImportReadList.vue', 'create')],
  },
];
