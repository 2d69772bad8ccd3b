/**
 * The JSON shapes Komga's clients deserialize, transcribed from their Kotlin classes (not from Longbox's
 * code), so a contract test fails when a client would fail to parse a response:
 *
 * - Mihon's Komga extension, keiyoushi/extensions-source `src/all/komga/.../dto/Dto.kt` and
 *   `PageWrapperDto.kt`, parsed with `ignoreUnknownKeys = true, explicitNulls = false`
 *   (mihonapp/mihon `app/src/main/java/mihon/app/di/AppBindings.kt`): a non-null field without a default
 *   must be present; a nullable one may be missing.
 * - Mihon's Komga tracker, mihonapp/mihon `.../data/track/komga/KomgaModels.kt` (same Json).
 * - Komelia's komga-client 0.10.x (Snd-R/komga-client `common/Page.kt`, `series/KomgaSeries.kt`,
 *   `book/KomgaBooks.kt`, `book/KomgaBookPage.kt`, `library/KomgaLibrary.kt`, `user/KomgaUser.kt`),
 *   kotlinx Json with explicit nulls: every field without a default must be present, null where nullable.
 *
 * Kotlin types map as: Int/Long → integer, Float → number, String → string, Instant → ISO-8601 instant,
 * LocalDate → yyyy-MM-dd, enum → its names, Set/List → array.
 */
import { z } from 'zod';

export const int = z.number().int();
export const instant = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(s), 'an Instant');
export const localDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** Mihon (explicitNulls = false): a nullable field may be absent. */
const mihonNullable = <T extends z.ZodType>(t: T) => t.nullable().optional();

// ---- Mihon extension (Dto.kt, PageWrapperDto.kt) ------------------------------------------------------

export const MihonPageWrapper = <T extends z.ZodType>(item: T) =>
  z.object({
    content: z.array(item),
    empty: z.boolean(),
    first: z.boolean(),
    last: z.boolean(),
    number: int,
    numberOfElements: int,
    size: int,
    totalElements: int,
    totalPages: int,
  });

export const MihonLibraryDto = z.object({ id: z.string(), name: z.string() });

const MihonAuthorDto = z.object({ name: z.string(), role: z.string() });

export const MihonSeriesMetadataDto = z.object({
  status: z.string(),
  created: mihonNullable(z.string()),
  lastModified: mihonNullable(z.string()),
  title: z.string(),
  titleSort: z.string(),
  summary: z.string(),
  summaryLock: z.boolean(),
  readingDirection: z.string(),
  readingDirectionLock: z.boolean(),
  publisher: z.string(),
  publisherLock: z.boolean(),
  ageRating: mihonNullable(int),
  ageRatingLock: z.boolean(),
  language: z.string(),
  languageLock: z.boolean(),
  genres: z.array(z.string()),
  genresLock: z.boolean(),
  tags: z.array(z.string()),
  tagsLock: z.boolean(),
  totalBookCount: mihonNullable(int),
});

export const MihonBookMetadataAggregationDto = z.object({
  authors: z.array(MihonAuthorDto).optional(),
  tags: z.array(z.string()).optional(),
  releaseDate: mihonNullable(z.string()),
  summary: z.string(),
  summaryNumber: z.string(),
  created: z.string(),
  lastModified: z.string(),
});

export const MihonSeriesDto = z.object({
  id: z.string(),
  libraryId: z.string(),
  name: z.string(),
  created: mihonNullable(z.string()),
  lastModified: mihonNullable(z.string()),
  fileLastModified: z.string(),
  booksCount: int,
  metadata: MihonSeriesMetadataDto,
  booksMetadata: MihonBookMetadataAggregationDto,
});

export const MihonMediaDto = z.object({
  status: z.string(),
  mediaType: z.string(),
  pagesCount: int,
  mediaProfile: z.string().optional(),
  epubDivinaCompatible: z.boolean().optional(),
});

export const MihonBookMetadataDto = z.object({
  title: z.string(),
  titleLock: z.boolean(),
  summary: z.string(),
  summaryLock: z.boolean(),
  number: z.string(),
  numberLock: z.boolean(),
  numberSort: z.number(),
  numberSortLock: z.boolean(),
  releaseDate: mihonNullable(z.string()),
  releaseDateLock: z.boolean(),
  authors: z.array(MihonAuthorDto),
  authorsLock: z.boolean(),
  tags: z.array(z.string()),
  tagsLock: z.boolean(),
});

export const MihonBookDto = z.object({
  id: z.string(),
  seriesId: z.string(),
  seriesTitle: z.string(),
  name: z.string(),
  number: z.number(),
  created: mihonNullable(z.string()),
  lastModified: mihonNullable(z.string()),
  fileLastModified: z.string(),
  sizeBytes: int,
  size: z.string(),
  media: MihonMediaDto,
  metadata: MihonBookMetadataDto,
});

export const MihonPageDto = z.object({ number: int, fileName: z.string(), mediaType: z.string() });

export const MihonCollectionDto = z.object({
  id: z.string(),
  name: z.string(),
  ordered: z.boolean(),
  seriesIds: z.array(z.string()),
  createdDate: z.string(),
  lastModifiedDate: z.string(),
  filtered: z.boolean(),
});

// ---- Mihon tracker (KomgaModels.kt) -------------------------------------------------------------------

export const MihonTrackerSeriesDto = MihonSeriesDto.extend({
  booksReadCount: int,
  booksUnreadCount: int,
  booksInProgressCount: int,
});

export const MihonReadProgressV2Dto = z.object({
  booksCount: int,
  booksReadCount: int,
  booksUnreadCount: int,
  booksInProgressCount: int,
  lastReadContinuousNumberSort: z.number(),
  maxNumberSort: z.number(),
});

// ---- Komelia's komga-client ---------------------------------------------------------------------------

const KSort = z.object({ sorted: z.boolean(), unsorted: z.boolean(), empty: z.boolean() });

export const KomeliaPage = <T extends z.ZodType>(item: T) =>
  z.object({
    content: z.array(item),
    pageable: z.object({
      sort: KSort,
      pageNumber: int,
      pageSize: int,
      offset: int,
      paged: z.boolean(),
      unpaged: z.boolean(),
    }),
    totalElements: int,
    totalPages: int,
    last: z.boolean(),
    number: int,
    sort: KSort,
    first: z.boolean(),
    numberOfElements: int,
    size: int,
    empty: z.boolean(),
  });

const KAuthor = z.object({ name: z.string(), role: z.string() });
const KWebLink = z.object({ label: z.string(), url: z.string() });

export const KomeliaLibrary = z.object({
  id: z.string(),
  name: z.string(),
  root: z.string(),
  importComicInfoBook: z.boolean(),
  importComicInfoSeries: z.boolean(),
  importComicInfoCollection: z.boolean(),
  importComicInfoReadList: z.boolean(),
  importComicInfoSeriesAppendVolume: z.boolean(),
  importEpubBook: z.boolean(),
  importEpubSeries: z.boolean(),
  importMylarSeries: z.boolean(),
  importLocalArtwork: z.boolean(),
  importBarcodeIsbn: z.boolean(),
  scanForceModifiedTime: z.boolean(),
  scanInterval: z.enum(['DISABLED', 'HOURLY', 'EVERY_6H', 'EVERY_12H', 'DAILY', 'WEEKLY']),
  scanOnStartup: z.boolean(),
  scanCbx: z.boolean(),
  scanPdf: z.boolean(),
  scanEpub: z.boolean(),
  scanDirectoryExclusions: z.array(z.string()),
  repairExtensions: z.boolean(),
  convertToCbz: z.boolean(),
  emptyTrashAfterScan: z.boolean(),
  seriesCover: z.enum(['FIRST', 'FIRST_UNREAD_OR_FIRST', 'FIRST_UNREAD_OR_LAST', 'LAST']),
  hashFiles: z.boolean(),
  hashPages: z.boolean(),
  hashKoreader: z.boolean(),
  analyzeDimensions: z.boolean(),
  oneshotsDirectory: z.string().nullable(),
  unavailable: z.boolean(),
});

export const KomeliaSeries = z.object({
  id: z.string(),
  libraryId: z.string(),
  name: z.string(),
  url: z.string(),
  booksCount: int,
  booksReadCount: int,
  booksUnreadCount: int,
  booksInProgressCount: int,
  metadata: z.object({
    status: z.enum(['ENDED', 'ONGOING', 'ABANDONED', 'HIATUS']),
    statusLock: z.boolean(),
    title: z.string(),
    alternateTitles: z.array(z.object({ label: z.string(), title: z.string() })),
    alternateTitlesLock: z.boolean(),
    titleLock: z.boolean(),
    titleSort: z.string(),
    titleSortLock: z.boolean(),
    summary: z.string(),
    summaryLock: z.boolean(),
    // KomgaReadingDirectionSerializer: a direction name, or anything else read as null.
    readingDirection: z.string().nullable(),
    readingDirectionLock: z.boolean(),
    publisher: z.string(),
    publisherLock: z.boolean(),
    ageRating: int.nullable(),
    ageRatingLock: z.boolean(),
    language: z.string(),
    languageLock: z.boolean(),
    genres: z.array(z.string()),
    genresLock: z.boolean(),
    tags: z.array(z.string()),
    tagsLock: z.boolean(),
    totalBookCount: int.nullable(),
    totalBookCountLock: z.boolean(),
    sharingLabels: z.array(z.string()),
    sharingLabelsLock: z.boolean(),
    links: z.array(KWebLink),
    linksLock: z.boolean(),
  }),
  deleted: z.boolean(),
  oneshot: z.boolean(),
  booksMetadata: z.object({
    authors: z.array(KAuthor),
    tags: z.array(z.string()),
    releaseDate: localDate.nullable(),
    summary: z.string(),
    summaryNumber: z.string(),
    created: instant,
    lastModified: instant,
  }),
  created: instant,
  lastModified: instant,
  fileLastModified: instant,
});

export const KomeliaBook = z.object({
  id: z.string(),
  seriesId: z.string(),
  seriesTitle: z.string(),
  libraryId: z.string(),
  name: z.string(),
  url: z.string(),
  number: int,
  created: instant,
  lastModified: instant,
  fileLastModified: instant,
  sizeBytes: int,
  size: z.string(),
  media: z.object({
    status: z.enum(['READY', 'UNKNOWN', 'ERROR', 'UNSUPPORTED', 'OUTDATED']),
    mediaType: z.string().nullable(),
    pagesCount: int,
    comment: z.string(),
    mediaProfile: z.string().nullable(),
    epubDivinaCompatible: z.boolean(),
  }),
  metadata: z.object({
    title: z.string(),
    summary: z.string(),
    number: z.string(),
    numberSort: z.number(),
    releaseDate: localDate.nullable(),
    authors: z.array(KAuthor),
    tags: z.array(z.string()),
    isbn: z.string(),
    links: z.array(KWebLink),
    titleLock: z.boolean(),
    summaryLock: z.boolean(),
    numberLock: z.boolean(),
    numberSortLock: z.boolean(),
    releaseDateLock: z.boolean(),
    authorsLock: z.boolean(),
    tagsLock: z.boolean(),
    isbnLock: z.boolean(),
    linksLock: z.boolean(),
    created: instant,
    lastModified: instant,
  }),
  readProgress: z
    .object({ page: int, completed: z.boolean(), readDate: instant, created: instant, lastModified: instant })
    .nullable(),
  deleted: z.boolean(),
  fileHash: z.string(),
  oneshot: z.boolean(),
});

export const KomeliaBookPage = z.object({
  number: int,
  fileName: z.string(),
  mediaType: z.string(),
  width: int.nullable(),
  height: int.nullable(),
  sizeBytes: int.nullable(),
  size: z.string(),
});

export const KomeliaUser = z.object({
  id: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  sharedAllLibraries: z.boolean(),
  sharedLibrariesIds: z.array(z.string()),
  labelsAllow: z.array(z.string()),
  labelsExclude: z.array(z.string()),
  ageRestriction: z.object({ age: int, restriction: z.enum(['ALLOW_ONLY', 'EXCLUDE']) }).nullable(),
});

/**
 * A Komga thumbnail DTO (`ThumbnailSeriesDto`, `ThumbnailBookDto`, `ThumbnailSeriesCollectionDto`,
 * `ThumbnailReadListDto`) = komga-client's `Komga*Thumbnail`: every field required, the owner under its own key.
 */
export const komgaThumbnail = <K extends string>(ownerKey: K) =>
  z
    .object({
      id: z.string(),
      type: z.string(),
      selected: z.boolean(),
      mediaType: z.string(),
      fileSize: int,
      width: int,
      height: int,
    })
    .extend({ [ownerKey]: z.string() } as Record<K, z.ZodString>);

/** Parses like the client would and reports the first field it would choke on. */
export function expectParses<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`${what} would not deserialize: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return result.data;
}
