/**
 * Komf (Snd-R/komf, the metadata fetcher) writing metadata and covers into a Komga server — issue 18's
 * "Komf's exact request sequence replayed against /komga". Transcribed from:
 *
 * - Komf `komf-mediaserver/src/commonMain/kotlin/snd/komf/mediaserver/`: `komga/KomgaMediaServerClientAdapter.kt`
 *   (every Komga call and the Komf → Komga request mapping), `metadata/MetadataService.kt` (what is read first),
 *   `metadata/MetadataUpdater.kt` (order of writes, cover selection and replacement), `metadata/MetadataMapper.kt`
 *   (which fields are sent: only unlocked, non-empty ones), `metadata/MetadataPostProcessor.kt` (defaults that
 *   drop the title), `config/MediaServerConfig.kt` (defaults), `MediaServerModule.kt` (HTTP client set-up),
 *   `komga/KomgaEventHandler.kt` (SSE trigger).
 * - komga-client 0.9.0, which Komf pins: `series/HttpSeriesClient.kt`, `book/HttpBookClient.kt`,
 *   `series/KomgaSeriesMetadataUpdateRequest.kt`, `book/KomgaBookMetadataUpdateRequest.kt`,
 *   `common/PatchValue.kt` + `serializers/UpdateValueSerializer.kt` (Unset = key omitted, None = `null`),
 *   `search/KomgaSearchCondition.kt` (polymorphic JSON with a `type` key), `KomgaClientFactory.kt`.
 * - Komga's side of the same calls: `komga/src/main/kotlin/org/gotson/komga/interfaces/api/rest/`
 *   `SeriesController.kt` (`updateSeriesMetadata`, thumbnails), `BookController.kt` (`updateBookMetadata`,
 *   thumbnails), `dto/SeriesMetadataUpdateDto.kt`, `dto/BookMetadataUpdateDto.kt`, `dto/AlternateTitleUpdateDto.kt`,
 *   `dto/ThumbnailSeriesDto.kt`, `dto/ThumbnailBookDto.kt`, `dto/SeriesDto.kt`, `dto/BookDto.kt`;
 *   `domain/model/Author.kt` (roles trimmed and lower-cased), `domain/model/SeriesMetadata.kt`,
 *   `domain/service/SeriesLifecycle.kt` / `BookLifecycle.kt` (`deleteThumbnailFor…`: only USER_UPLOADED).
 *
 * Commits: see UPSTREAM in ./client-http.ts (komf 5d0f689, komga-client 0.9.0 d215550, komga cba53ed).
 */
import { z } from 'zod';
import { int, KomeliaBook, KomeliaPage, KomeliaSeries, komgaThumbnail, localDate } from '../komga-client-dtos';
import {
  type ClientStep,
  type KomgaPageRequest,
  KtorSession,
  komgaClientThumbnailUpload,
  komgaPageParams,
  kotlinFloat,
  ktorQuery,
  jsonBody,
  ref,
  type Transport,
} from './client-http';

const KOMF = 'komf-mediaserver/src/commonMain/kotlin/snd/komf/mediaserver';
const KC = 'src/commonMain/kotlin/snd/komga/client';
const REST = 'komga/src/main/kotlin/org/gotson/komga/interfaces/api/rest';

// ---- What Komga accepts (server side) --------------------------------------------------------------------------

/**
 * Komga `AuthorUpdateDto` (`dto/BookMetadataUpdateDto.kt`): both `@NotBlank`. Komga stores `role` trimmed and
 * lower-cased (`domain/model/Author.kt`), so Komf's `"WRITER"` is read back as `"writer"`.
 */
export const KomgaAuthorUpdateDto = z.object({ name: z.string().trim().min(1), role: z.string().trim().min(1) });

/** Komga `WebLinkUpdateDto`: `label` `@NotBlank`, `url` Hibernate `@URL`. */
export const KomgaWebLinkUpdateDto = z.object({ label: z.string().trim().min(1), url: z.string().url() });

/** Komga `AlternateTitleUpdateDto`: both `@NotBlank`. */
export const KomgaAlternateTitleUpdateDto = z.object({
  label: z.string().trim().min(1),
  title: z.string().trim().min(1),
});

const lock = z.boolean().optional();
const notBlankOrNull = z.string().trim().min(1).nullable().optional();

/**
 * Komga `SeriesMetadataUpdateDto`, `PATCH /api/v1/series/{seriesId}/metadata` (ADMIN, 204, 404 unknown series,
 * 400 `{violations:[{fieldName, message}]}` on a failed constraint). A key left out changes nothing. A `null`
 * clears only the fields Komga tracks with `isSet` (SERIES_NULL_CLEARS); for status, title, titleSort, summary,
 * publisher, language and every `*Lock`, `null` also means "unchanged". Genres, tags and sharing labels are
 * stored lower-cased; a lock is stored exactly as sent (Komga never sets one by itself).
 */
export const KomgaSeriesMetadataUpdateDto = z.object({
  status: z.enum(['ENDED', 'ONGOING', 'ABANDONED', 'HIATUS']).nullable().optional(),
  statusLock: lock,
  title: notBlankOrNull,
  titleLock: lock,
  titleSort: notBlankOrNull,
  titleSortLock: lock,
  summary: z.string().nullable().optional(),
  summaryLock: lock,
  publisher: z.string().nullable().optional(),
  publisherLock: lock,
  readingDirection: z.enum(['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT', 'VERTICAL', 'WEBTOON']).nullable().optional(),
  readingDirectionLock: lock,
  /** `@PositiveOrZero`. */
  ageRating: int.min(0).nullable().optional(),
  ageRatingLock: lock,
  /** `@NullOrBlankOrBCP47`: "" or a BCP 47 tag. */
  language: z.string().nullable().optional(),
  languageLock: lock,
  genres: z.array(z.string()).nullable().optional(),
  genresLock: lock,
  tags: z.array(z.string()).nullable().optional(),
  tagsLock: lock,
  /** `@Positive`. */
  totalBookCount: int.min(1).nullable().optional(),
  totalBookCountLock: lock,
  sharingLabels: z.array(z.string()).nullable().optional(),
  sharingLabelsLock: lock,
  links: z.array(KomgaWebLinkUpdateDto).nullable().optional(),
  linksLock: lock,
  alternateTitles: z.array(KomgaAlternateTitleUpdateDto).nullable().optional(),
  alternateTitlesLock: lock,
});

export const SERIES_NULL_CLEARS = [
  'readingDirection',
  'ageRating',
  'genres',
  'tags',
  'totalBookCount',
  'sharingLabels',
  'links',
  'alternateTitles',
] as const;

/**
 * Komga `BookMetadataUpdateDto`, `PATCH /api/v1/books/{bookId}/metadata` (ADMIN, 204; also
 * `PATCH /api/v1/books/metadata` with `{bookId: dto}`). `null` clears summary (→ ""), releaseDate, authors,
 * tags, isbn (→ "", digits kept otherwise) and links (BOOK_NULL_CLEARS); for title, number, numberSort and the
 * locks it means unchanged. After a book edit Komga re-aggregates the series' `booksMetadata`.
 */
export const KomgaBookMetadataUpdateDto = z.object({
  title: notBlankOrNull,
  titleLock: lock,
  summary: z.string().nullable().optional(),
  summaryLock: lock,
  number: notBlankOrNull,
  numberLock: lock,
  numberSort: z.number().nullable().optional(),
  numberSortLock: lock,
  releaseDate: localDate.nullable().optional(),
  releaseDateLock: lock,
  authors: z.array(KomgaAuthorUpdateDto).nullable().optional(),
  authorsLock: lock,
  tags: z.array(z.string()).nullable().optional(),
  tagsLock: lock,
  /** `@NullOrBlankOrISBN`. */
  isbn: z.string().nullable().optional(),
  isbnLock: lock,
  links: z.array(KomgaWebLinkUpdateDto).nullable().optional(),
  linksLock: lock,
});

export const BOOK_NULL_CLEARS = ['summary', 'releaseDate', 'authors', 'tags', 'isbn', 'links'] as const;

// ---- What Komf parses (komga-client 0.9.0, kotlinx with ignoreUnknownKeys) -----------------------------------

/**
 * komga-client `KomgaReadingDirectionSerializer`: a blank string is null, any other value must be an enum name
 * (`KomgaReadingDirection.valueOf` throws otherwise). Komga sends `""` for "no direction".
 */
export const KomgaClientReadingDirection = z.union([
  z.enum(['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT', 'VERTICAL', 'WEBTOON']),
  z.string().regex(/^\s*$/),
]);

/** 0.9.0 `KomgaSeries` is 0.10's without created/lastModified/fileLastModified (`series/KomgaSeries.kt`). */
export const KomfSeries = KomeliaSeries.omit({ created: true, lastModified: true, fileLastModified: true }).extend({
  metadata: KomeliaSeries.shape.metadata.extend({ readingDirection: KomgaClientReadingDirection }),
});

/** 0.9.0 `KomgaBook` requires the same fields as the Komelia schema (`book/KomgaBooks.kt`). */
export const KomfBook = KomeliaBook;

/** Komga `ThumbnailSeriesDto` = komga-client `KomgaSeriesThumbnail`; `type` SIDECAR | USER_UPLOADED. */
export const KomgaSeriesThumbnail = komgaThumbnail('seriesId');

/** Komga `ThumbnailBookDto` = komga-client `KomgaBookThumbnail`; `type` GENERATED | SIDECAR | USER_UPLOADED. */
export const KomgaBookThumbnail = komgaThumbnail('bookId');

export type KomfSeriesT = z.infer<typeof KomfSeries>;
export type KomfBookT = z.infer<typeof KomfBook>;

// ---- Komf's own model, after post-processing (snd.komf.model) ------------------------------------------------

/** `snd.komf.model.AuthorRole`; Komf sends the enum *name* (`author.role.name`), upper case. */
export type KomfAuthorRole =
  | 'WRITER'
  | 'PENCILLER'
  | 'INKER'
  | 'COLORIST'
  | 'LETTERER'
  | 'COVER'
  | 'EDITOR'
  | 'TRANSLATOR';
export interface KomfAuthor {
  name: string;
  role: KomfAuthorRole;
}
export interface KomfWebLink {
  label: string;
  url: string;
}
/** `SeriesTitle`; `type` ROMAJI → label "Romaji", NATIVE → "Native", LOCALIZED → its language (or "Localized"). */
export interface KomfSeriesTitle {
  name: string;
  type: 'ROMAJI' | 'LOCALIZED' | 'NATIVE' | null;
  language: string | null;
}

/**
 * `SeriesMetadata` as `MetadataUpdater.updateMetadata` receives it, i.e. after `MetadataPostProcessor`:
 * with the default config (`postProcessing.seriesTitle = false`, `alternativeSeriesTitles = false`) `title` is
 * null and `titles` empty, so **Komf sends no title, titleSort or alternateTitles unless the user enabled them**.
 * Series `authors` are never sent to Komga (Komga series have none); they become each book's authors when the
 * book has none of its own.
 */
export interface KomfSeriesMetadata {
  status?: 'ENDED' | 'ONGOING' | 'ABANDONED' | 'HIATUS' | 'COMPLETED';
  title?: KomfSeriesTitle;
  titles?: KomfSeriesTitle[];
  summary?: string;
  publisher?: string;
  readingDirection?: 'LEFT_TO_RIGHT' | 'RIGHT_TO_LEFT' | 'VERTICAL' | 'WEBTOON';
  ageRating?: number;
  language?: string;
  genres?: string[];
  tags?: string[];
  totalBookCount?: number;
  authors?: KomfAuthor[];
  links?: KomfWebLink[];
}

/** `BookMetadata` (snd.komf.model); `number` is a `BookRange`, written "1" or "1-3" (`BookRange.toString`). */
export interface KomfBookMetadata {
  title?: string;
  summary?: string;
  number?: { start: number; end: number };
  numberSort?: number;
  releaseDate?: string;
  authors?: KomfAuthor[];
  tags?: string[];
  isbn?: string;
  links?: KomfWebLink[];
}

/** `BookRange.toString()`: integral ends without a fraction, "start-end" when they differ. */
export const bookRangeText = ({ start, end }: { start: number; end: number }) =>
  start === end ? String(start) : `${start}-${end}`;

/** `MetadataMapper.getIfNotLockedOrEmpty`: empty collections and locked fields are not sent. */
function unlocked<T>(value: T | undefined, locked: boolean): T | undefined {
  if (Array.isArray(value) && value.length === 0) return undefined;
  return value !== undefined && !locked ? value : undefined;
}

const defined = (entries: [string, unknown][]) =>
  Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as Record<string, unknown>;

/**
 * The `PATCH /api/v1/series/{id}/metadata` body Komf sends when it identifies a series
 * (`MetadataMapper.toSeriesMetadataUpdate` → `KomgaMediaServerClientAdapter.toMetadataUpdateRequest`): each
 * field only when the series' matching `*Lock` is false and the value non-empty; **no `*Lock` key at all**
 * (Komf checks locks itself and never sets one); COMPLETED becomes ENDED; alternate titles are gated by
 * `titleSortLock` (sic) and deduplicated by title. Keys in `KomgaSeriesMetadataUpdateRequest` order.
 */
export function komfSeriesMetadataUpdate(patch: KomfSeriesMetadata, existing: KomfSeriesT['metadata']) {
  const m = existing;
  const altTitles = unlocked(
    (patch.titles ?? []).filter(
      (t) => !(t.name === patch.title?.name && t.type === patch.title.type && t.language === patch.title.language),
    ),
    m.titleSortLock,
  )
    ?.flatMap((t) => {
      const label =
        t.type === 'ROMAJI'
          ? 'Romaji'
          : t.type === 'NATIVE'
            ? 'Native'
            : t.type === 'LOCALIZED'
              ? (t.language ?? 'Localized')
              : t.language;
      return label == null ? [] : [{ label, title: t.name }];
    })
    .filter((t, i, all) => all.findIndex((o) => o.title === t.title) === i);
  return defined([
    ['status', unlocked(patch.status === 'COMPLETED' ? 'ENDED' : patch.status, m.statusLock)],
    ['title', unlocked(patch.title?.name, m.titleLock)],
    ['titleSort', unlocked(patch.title?.name, m.titleSortLock)],
    ['summary', unlocked(patch.summary, m.summaryLock)],
    ['publisher', unlocked(patch.publisher, m.publisherLock)],
    ['readingDirection', unlocked(patch.readingDirection, m.readingDirectionLock)],
    ['ageRating', unlocked(patch.ageRating, m.ageRatingLock)],
    ['language', unlocked(patch.language, m.languageLock)],
    ['genres', unlocked(patch.genres, m.genresLock)],
    ['tags', unlocked(patch.tags, m.tagsLock)],
    ['totalBookCount', unlocked(patch.totalBookCount, m.totalBookCountLock)],
    ['links', unlocked(patch.links, m.linksLock)?.map((l) => ({ label: l.label, url: l.url }))],
    ['alternateTitles', altTitles],
  ]);
}

/**
 * The `PATCH /api/v1/books/{id}/metadata` body (`MetadataMapper.toBookMetadataUpdate` →
 * `toKomgaMetadataUpdate`): unlocked non-empty title, summary, releaseDate, authors (the book's, else the
 * series', roles as upper-case enum names), tags, isbn, links; `number` and `numberSort` **whatever their
 * locks** ("we can't know if komf was the one to lock number"); and `numberLock`/`numberSortLock` **always**
 * present: true when Komf has a number, else the existing value — so an unmatched book still gets
 * `{"numberLock":false,"numberSortLock":false}`. numberSort is a Kotlin Float (`1.0`).
 */
export function komfBookMetadataUpdate(
  book: KomfBookMetadata | null,
  series: KomfSeriesMetadata | null,
  existing: KomfBookT['metadata'],
) {
  const m = existing;
  const authors = (book?.authors?.length ? book.authors : series?.authors?.length ? series.authors : undefined)?.map(
    (a) => ({ name: a.name, role: a.role }),
  );
  return defined([
    ['title', unlocked(book?.title, m.titleLock)],
    ['summary', unlocked(book?.summary, m.summaryLock)],
    ['number', book?.number ? bookRangeText(book.number) : undefined],
    ['numberLock', m.numberLock || book?.number !== undefined],
    ['numberSort', book?.number ? kotlinFloat(book.number.start) : undefined],
    ['numberSortLock', m.numberSortLock || book?.numberSort !== undefined],
    ['releaseDate', unlocked(book?.releaseDate, m.releaseDateLock)],
    ['authors', unlocked(authors, m.authorsLock)],
    ['tags', unlocked(book?.tags, m.tagsLock)],
    ['isbn', unlocked(book?.isbn, m.isbnLock)],
    ['links', unlocked(book?.links, m.linksLock)?.map((l) => ({ label: l.label, url: l.url }))],
  ]);
}

/**
 * Komf's "reset series metadata" (`seriesMetadataResetRequest`): every lock false, title/titleSort = the series
 * name, empty strings and lists, and explicit `null` for readingDirection, ageRating, totalBookCount, links and
 * alternateTitles (PatchValue.None); sharingLabels and alternateTitlesLock are left out.
 */
export function komfSeriesResetBody(seriesName: string) {
  return {
    status: 'ONGOING',
    statusLock: false,
    title: seriesName,
    titleLock: false,
    titleSort: seriesName,
    titleSortLock: false,
    summary: '',
    summaryLock: false,
    publisher: '',
    publisherLock: false,
    readingDirection: null,
    readingDirectionLock: false,
    ageRating: null,
    ageRatingLock: false,
    language: '',
    languageLock: false,
    genres: [],
    genresLock: false,
    tags: [],
    tagsLock: false,
    totalBookCount: null,
    totalBookCountLock: false,
    links: null,
    linksLock: false,
    alternateTitles: null,
  };
}

/** Komf's "reset book metadata" (`bookMetadataResetRequest`), `position` = 1-based index in natural name order. */
export function komfBookResetBody(bookName: string, position: number) {
  return {
    title: bookName,
    titleLock: false,
    summary: '',
    summaryLock: false,
    number: String(position),
    numberLock: false,
    numberSort: kotlinFloat(position),
    numberSortLock: false,
    releaseDate: null,
    releaseDateLock: false,
    authors: [],
    authorsLock: false,
    tags: [],
    tagsLock: false,
    isbn: null,
    isbnLock: false,
    links: [],
    linksLock: false,
  };
}

// ---- The requests ---------------------------------------------------------------------------------------------

/**
 * komga-client search bodies are polymorphic kotlinx JSON: every condition carries a `"type"` discriminator
 * (its @SerialName) and every operator an `"operator"` one. Komga ignores `type` (Jackson DEDUCTION, unknown
 * properties allowed); a compatible server must too.
 */
export const booksOfSeriesSearch = (seriesId: string) => ({
  condition: { type: 'AllOfBook', allOf: [{ type: 'SeriesId', seriesId: { operator: 'is', value: seriesId } }] },
});
export const seriesOfLibrarySearch = (libraryId: string) => ({
  condition: {
    type: 'AllOfSeries',
    allOf: [{ type: 'LibraryId', libraryId: { operator: 'is', value: libraryId } }],
  },
});

const withQuery = (path: string, page: KomgaPageRequest) => `${path}?${ktorQuery(komgaPageParams(page))}`;

/** Headers on every Komf request (`MediaServerModule.kt`: Ktor Auth basic `sendWithoutRequest { true }`). */
export function komfHeaders(username: string, password: string): Record<string, string> {
  return {
    Authorization: `Basic ${btoa(`${username}:${password}`)}`,
    'User-Agent': 'Snd-R/komf (https://github.com/Snd-R/komf)',
  };
}

/** Komf's defaults (`config/MediaServerConfig.kt`). */
export const KOMF_DEFAULTS = {
  /** `KomgaConfig.thumbnailSizeLimit`: larger covers are skipped with a warning, not sent. */
  thumbnailSizeLimit: 1048575,
  /** `MetadataProcessingConfig.overrideExistingCovers`. */
  overrideExistingCovers: true,
  /** `seriesCovers` / `bookCovers`: covers are only uploaded when the user enabled them. */
  seriesCovers: false,
  bookCovers: false,
} as const;

/**
 * Komf identifying one series and writing it (API update mode, the default), in order.
 * `MetadataService.setSeriesMetadata` (manual identify) or `matchSeriesMetadata` (automatic, also after a
 * BookAdded event) → `MetadataUpdater.updateMetadata`.
 */
export const KOMF_IDENTIFY_STEPS: readonly ClientStep[] = [
  {
    step: 'events',
    client: 'komf',
    method: 'GET',
    path: '/sse/v1/events',
    body: 'none; Accept: text/event-stream, Basic credentials (OkHttp EventSource in 0.9.0)',
    accepts: [200],
    effect:
      'Queues BookAdded, BookDeleted and SeriesDeleted; on TaskQueueStatus with count 0 runs the automatic match ' +
      'for every series with an added book. Reconnects 10 s after a failure. Komga sends TaskQueueStatus to ' +
      'admins only, so without it Komf never auto-matches (manual identify still works).',
    source: [
      ref('komf', `${KOMF}/komga/KomgaEventHandler.kt`),
      ref('komgaClientForKomf', 'src/jvmMain/kotlin/snd/komga/client/sse/OkHttpKomgaSseSession.kt'),
    ],
  },
  {
    step: 'series',
    client: 'komf',
    method: 'GET',
    path: '/api/v1/series/{seriesId}',
    accepts: [200],
    response: KomfSeries,
    effect: 'Reads name, libraryId, booksCount, metadata and every *Lock; the locks decide which fields it sends.',
    source: [
      ref('komf', `${KOMF}/metadata/MetadataService.kt`, 'setSeriesMetadata'),
      ref('komgaClientForKomf', `${KC}/series/HttpSeriesClient.kt`, 'getOneSeries'),
    ],
  },
  {
    step: 'books',
    client: 'komf',
    method: 'POST',
    path: '/api/v1/books/list',
    query: 'unpaged=true',
    body: 'booksOfSeriesSearch(seriesId): {"condition":{"type":"AllOfBook","allOf":[{"type":"SeriesId","seriesId":{"operator":"is","value":…}}]}}',
    accepts: [200],
    response: KomeliaPage(KomfBook),
    effect:
      "Matches provider books to these by name (volume/chapter numbers parsed from `name`); reads each book's locks.",
    source: [
      ref('komf', `${KOMF}/komga/KomgaMediaServerClientAdapter.kt`, 'getBooks'),
      ref('komgaClientForKomf', `${KC}/book/HttpBookClient.kt`, 'getBookList'),
    ],
  },
  {
    step: 'first-book-cover',
    client: 'komf',
    method: 'GET',
    path: '/api/v1/books/{firstBookId}/thumbnail',
    body: 'automatic match only; Accept */*',
    accepts: [200],
    effect: "Image bytes compared with the provider's covers to confirm a match; any failure is ignored (runCatching).",
    source: [ref('komf', `${KOMF}/metadata/MetadataService.kt`, 'createMatchQuery')],
  },
  {
    step: 'series-metadata',
    client: 'komf',
    method: 'PATCH',
    path: '/api/v1/series/{seriesId}/metadata',
    body: KomgaSeriesMetadataUpdateDto,
    accepts: [200, 201, 202, 204],
    effect: 'Body from komfSeriesMetadataUpdate(); Komga answers 204. Any status ≥ 300 fails the job.',
    source: [
      ref('komf', `${KOMF}/metadata/MetadataMapper.kt`, 'toSeriesMetadataUpdate'),
      ref('komga', `${REST}/SeriesController.kt`, 'updateSeriesMetadata'),
    ],
  },
  {
    step: 'series-thumbnails',
    client: 'komf',
    method: 'GET',
    path: '/api/v1/series/{seriesId}/thumbnails',
    accepts: [200],
    response: z.array(KomgaSeriesThumbnail),
    effect:
      'Always read (even with covers off). An upload is `selected` when overrideExistingCovers (default) or the list is empty.',
    source: [ref('komf', `${KOMF}/metadata/MetadataUpdater.kt`, 'replaceSeriesThumbnail')],
  },
  {
    step: 'series-thumbnail-upload',
    client: 'komf',
    method: 'POST',
    path: '/api/v1/series/{seriesId}/thumbnails',
    body: 'komgaClientThumbnailUpload(image, selected): multipart part `file` (filename="", no Content-Type) + part `selected` = "true"|"false"',
    accepts: [200, 201],
    response: KomgaSeriesThumbnail,
    effect:
      'Only when series covers are enabled and the image is ≤ thumbnailSizeLimit; Komf stores the returned id to delete it next time.',
    source: [
      ref('komf', `${KOMF}/komga/KomgaMediaServerClientAdapter.kt`, 'uploadSeriesThumbnail'),
      ref('komga', `${REST}/SeriesController.kt`, 'addUserUploadedSeriesThumbnail'),
    ],
  },
  {
    step: 'series-thumbnail-delete',
    client: 'komf',
    method: 'DELETE',
    path: '/api/v1/series/{seriesId}/thumbnails/{previousThumbnailId}',
    accepts: [200, 202, 204],
    effect: 'Only when Komf uploaded a cover for this series before and it is still in the list; Komga answers 202.',
    source: [
      ref('komf', `${KOMF}/metadata/MetadataUpdater.kt`, 'replaceSeriesThumbnail'),
      ref('komga', `${REST}/SeriesController.kt`, 'deleteUserUploadedSeriesThumbnail'),
    ],
  },
  {
    step: 'book-metadata',
    client: 'komf',
    method: 'PATCH',
    path: '/api/v1/books/{bookId}/metadata',
    body: KomgaBookMetadataUpdateDto,
    accepts: [200, 201, 202, 204],
    effect:
      'For every book of the series, matched or not, in listing order; body from komfBookMetadataUpdate(). Komga answers 204.',
    source: [
      ref('komf', `${KOMF}/metadata/MetadataMapper.kt`, 'toBookMetadataUpdate'),
      ref('komga', `${REST}/BookController.kt`, 'updateBookMetadata'),
    ],
  },
  {
    step: 'book-thumbnails',
    client: 'komf',
    method: 'GET',
    path: '/api/v1/books/{bookId}/thumbnails',
    accepts: [200],
    response: z.array(KomgaBookThumbnail),
    effect: "An upload is `selected` when overrideExistingCovers or every existing one is GENERATED (or Komf's own).",
    source: [ref('komf', `${KOMF}/metadata/MetadataUpdater.kt`, 'replaceBookThumbnail')],
  },
  {
    step: 'book-thumbnail-upload',
    client: 'komf',
    method: 'POST',
    path: '/api/v1/books/{bookId}/thumbnails',
    body: 'komgaClientThumbnailUpload(image, selected)',
    accepts: [200, 201],
    response: KomgaBookThumbnail,
    effect: 'Only when book covers are enabled and the provider has one.',
    source: [ref('komga', `${REST}/BookController.kt`, 'addUserUploadedBookThumbnail')],
  },
  {
    step: 'book-thumbnail-delete',
    client: 'komf',
    method: 'DELETE',
    path: '/api/v1/books/{bookId}/thumbnails/{previousThumbnailId}',
    accepts: [200, 202, 204],
    effect: 'Only for a cover Komf uploaded before; Komga refuses (400) to delete a GENERATED or SIDECAR one.',
    source: [ref('komga', `${REST}/BookController.kt`, 'deleteUserUploadedBookThumbnail')],
  },
];

/** Komf walking a library (match library / reset library), one page of 500 at a time. */
export const KOMF_LIBRARY_STEPS: readonly ClientStep[] = [
  {
    step: 'library-series-page',
    client: 'komf',
    method: 'POST',
    path: '/api/v1/series/list',
    query: 'size=500&page={n}&unpaged=false',
    body: 'seriesOfLibrarySearch(libraryId)',
    accepts: [200],
    response: KomeliaPage(KomfSeries),
    effect:
      'Loops `while (page.number != page.totalPages && content not empty)` with a 0-based `number`, so it always ' +
      'asks for one page past the last: that page must be 200 with empty content, not an error.',
    source: [
      ref('komf', `${KOMF}/komga/KomgaMediaServerClientAdapter.kt`, 'getSeries'),
      ref('komf', `${KOMF}/metadata/MetadataService.kt`, 'matchLibraryMetadata'),
    ],
  },
];

export interface KomfIdentifyInput {
  seriesId: string;
  /** Basic credentials of the account Komf is configured with (`komgaUser`/`komgaPassword`; Komga: an admin). */
  username: string;
  password: string;
  /** Provider metadata after post-processing (see KomfSeriesMetadata for what the defaults drop). */
  series: KomfSeriesMetadata;
  /** The provider's metadata for each book Komga listed, or null when Komf matched none to it. */
  bookMetadata: (book: KomfBookT) => KomfBookMetadata | null;
  /** A series cover (turns `seriesCovers` on, as a user would to get covers). */
  seriesCover?: Uint8Array;
  bookCover?: (book: KomfBookT) => Uint8Array | undefined;
  /** Thumbnail ids Komf recorded at its previous run (its own database), to be replaced. */
  previous?: { seriesThumbnailId?: string; bookThumbnailIds?: Record<string, string> };
  /** `matchSeriesMetadata` (automatic) also fetches the first book's thumbnail; `setSeriesMetadata` does not. */
  trigger?: 'identify' | 'match';
  overrideExistingCovers?: boolean;
}

/**
 * Replays Komf's identify-and-update against a server, request for request, and returns what it sent and got.
 * Throws like Komf's job would (`ClientRequestError` on a status ≥ 300, a parse error on a DTO it cannot read).
 */
export async function replayKomfIdentify(transport: Transport, input: KomfIdentifyInput) {
  const session = new KtorSession(transport, komfHeaders(input.username, input.password));
  const override = input.overrideExistingCovers ?? KOMF_DEFAULTS.overrideExistingCovers;
  const series = await session.json('series', { method: 'GET', path: `/api/v1/series/${input.seriesId}` }, KomfSeries);
  const booksPage = await session.json(
    'books',
    {
      method: 'POST',
      path: withQuery('/api/v1/books/list', { unpaged: true }),
      ...jsonBody(booksOfSeriesSearch(series.id)),
    },
    KomeliaPage(KomfBook),
  );
  const books = booksPage.content;
  if (input.trigger === 'match' && books.length > 0) {
    const first = [...books].sort((a, b) => a.number - b.number)[0];
    await session
      .send('first-book-cover', {
        method: 'GET',
        path: `/api/v1/books/${first?.id}/thumbnail`,
        headers: { Accept: '*/*' },
      })
      .catch(() => undefined);
  }

  const seriesBody = komfSeriesMetadataUpdate(input.series, series.metadata);
  await session.send('series-metadata', {
    method: 'PATCH',
    path: `/api/v1/series/${series.id}/metadata`,
    ...jsonBody(seriesBody),
  });

  const seriesThumbnails = await session.json(
    'series-thumbnails',
    { method: 'GET', path: `/api/v1/series/${series.id}/thumbnails` },
    z.array(KomgaSeriesThumbnail),
  );
  let uploadedSeriesThumbnail: z.infer<typeof KomgaSeriesThumbnail> | undefined;
  if (input.seriesCover && input.seriesCover.length <= KOMF_DEFAULTS.thumbnailSizeLimit) {
    const upload = komgaClientThumbnailUpload(input.seriesCover, override || seriesThumbnails.length === 0);
    uploadedSeriesThumbnail = await session.json(
      'series-thumbnail-upload',
      {
        method: 'POST',
        path: `/api/v1/series/${series.id}/thumbnails`,
        headers: { 'Content-Type': upload.contentType },
        body: upload.body,
      },
      KomgaSeriesThumbnail,
    );
  }
  const previousSeries = input.previous?.seriesThumbnailId;
  if (previousSeries && seriesThumbnails.some((t) => t.id === previousSeries)) {
    await session.send('series-thumbnail-delete', {
      method: 'DELETE',
      path: `/api/v1/series/${series.id}/thumbnails/${previousSeries}`,
    });
  }

  const bookBodies: Record<string, Record<string, unknown>> = {};
  const uploadedBookThumbnails: Record<string, z.infer<typeof KomgaBookThumbnail>> = {};
  for (const book of books) {
    const body = komfBookMetadataUpdate(input.bookMetadata(book), input.series, book.metadata);
    bookBodies[book.id] = body;
    await session.send('book-metadata', {
      method: 'PATCH',
      path: `/api/v1/books/${book.id}/metadata`,
      ...jsonBody(body),
    });
    const thumbnails = await session.json(
      'book-thumbnails',
      { method: 'GET', path: `/api/v1/books/${book.id}/thumbnails` },
      z.array(KomgaBookThumbnail),
    );
    const previous = input.previous?.bookThumbnailIds?.[book.id];
    const cover = input.bookCover?.(book);
    if (cover && cover.length <= KOMF_DEFAULTS.thumbnailSizeLimit) {
      const selected = override || thumbnails.every((t) => t.type === 'GENERATED' || t.id === previous);
      const upload = komgaClientThumbnailUpload(cover, selected);
      uploadedBookThumbnails[book.id] = await session.json(
        'book-thumbnail-upload',
        {
          method: 'POST',
          path: `/api/v1/books/${book.id}/thumbnails`,
          headers: { 'Content-Type': upload.contentType },
          body: upload.body,
        },
        KomgaBookThumbnail,
      );
    }
    if (previous && thumbnails.some((t) => t.id === previous)) {
      await session.send('book-thumbnail-delete', {
        method: 'DELETE',
        path: `/api/v1/books/${book.id}/thumbnails/${previous}`,
      });
    }
  }
  return {
    calls: session.calls,
    series,
    books,
    seriesBody,
    bookBodies,
    uploadedSeriesThumbnail,
    uploadedBookThumbnails,
  };
}
