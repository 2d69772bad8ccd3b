/**
 * Komga's response shapes (Komga `interfaces/api/rest/dto/*.kt`), as the clients deserialize them:
 * Mihon's Komga extension and tracker, Komelia's komga-client, Paperback (docs/notes/komga-clients.md).
 * Field names, casing and nullability follow Komga; the types of the mappers derive from these schemas.
 */
import { z } from 'zod';

/** Komga formats its dates `yyyy-MM-dd'T'HH:mm:ss'Z'` (no milliseconds). */
const dateTime = z.string();

export const AuthorSchema = z.object({ name: z.string(), role: z.string() });
export type KomgaAuthor = z.infer<typeof AuthorSchema>;

export const WebLinkSchema = z.object({ label: z.string(), url: z.string() });

export const SeriesMetadataSchema = z.object({
  status: z.enum(['ENDED', 'ONGOING', 'ABANDONED', 'HIATUS']),
  statusLock: z.boolean(),
  title: z.string(),
  titleLock: z.boolean(),
  titleSort: z.string(),
  titleSortLock: z.boolean(),
  summary: z.string(),
  summaryLock: z.boolean(),
  readingDirection: z.string(),
  readingDirectionLock: z.boolean(),
  publisher: z.string(),
  publisherLock: z.boolean(),
  ageRating: z.number().int().nullable(),
  ageRatingLock: z.boolean(),
  language: z.string(),
  languageLock: z.boolean(),
  genres: z.array(z.string()),
  genresLock: z.boolean(),
  tags: z.array(z.string()),
  tagsLock: z.boolean(),
  totalBookCount: z.number().int().nullable(),
  totalBookCountLock: z.boolean(),
  sharingLabels: z.array(z.string()),
  sharingLabelsLock: z.boolean(),
  links: z.array(WebLinkSchema),
  linksLock: z.boolean(),
  alternateTitles: z.array(z.object({ label: z.string(), title: z.string() })),
  alternateTitlesLock: z.boolean(),
  created: dateTime,
  lastModified: dateTime,
});

export const BookMetadataAggregationSchema = z.object({
  authors: z.array(AuthorSchema),
  tags: z.array(z.string()),
  releaseDate: z.string().nullable(),
  summary: z.string(),
  summaryNumber: z.string(),
  created: dateTime,
  lastModified: dateTime,
});

export const SeriesSchema = z.object({
  id: z.string(),
  libraryId: z.string(),
  name: z.string(),
  url: z.string(),
  created: dateTime,
  lastModified: dateTime,
  fileLastModified: dateTime,
  booksCount: z.number().int(),
  booksReadCount: z.number().int(),
  booksUnreadCount: z.number().int(),
  booksInProgressCount: z.number().int(),
  metadata: SeriesMetadataSchema,
  booksMetadata: BookMetadataAggregationSchema,
  deleted: z.boolean(),
  oneshot: z.boolean(),
});
export type KomgaSeries = z.infer<typeof SeriesSchema>;

export const MediaSchema = z.object({
  status: z.enum(['READY', 'UNKNOWN', 'ERROR', 'UNSUPPORTED', 'OUTDATED']),
  mediaType: z.string(),
  pagesCount: z.number().int(),
  comment: z.string(),
  epubDivinaCompatible: z.boolean(),
  epubIsKepub: z.boolean(),
  mediaProfile: z.enum(['DIVINA', 'PDF', 'EPUB']),
});

export const BookMetadataSchema = z.object({
  title: z.string(),
  titleLock: z.boolean(),
  summary: z.string(),
  summaryLock: z.boolean(),
  number: z.string(),
  numberLock: z.boolean(),
  numberSort: z.number(),
  numberSortLock: z.boolean(),
  releaseDate: z.string().nullable(),
  releaseDateLock: z.boolean(),
  authors: z.array(AuthorSchema),
  authorsLock: z.boolean(),
  tags: z.array(z.string()),
  tagsLock: z.boolean(),
  isbn: z.string(),
  isbnLock: z.boolean(),
  links: z.array(WebLinkSchema),
  linksLock: z.boolean(),
  created: dateTime,
  lastModified: dateTime,
});

export const ReadProgressSchema = z.object({
  page: z.number().int(),
  completed: z.boolean(),
  readDate: dateTime,
  created: dateTime,
  lastModified: dateTime,
  deviceId: z.string(),
  deviceName: z.string(),
});

export const BookSchema = z.object({
  id: z.string(),
  seriesId: z.string(),
  seriesTitle: z.string(),
  libraryId: z.string(),
  name: z.string(),
  url: z.string(),
  number: z.number().int(),
  created: dateTime,
  lastModified: dateTime,
  fileLastModified: dateTime,
  sizeBytes: z.number().int(),
  size: z.string(),
  media: MediaSchema,
  metadata: BookMetadataSchema,
  readProgress: ReadProgressSchema.nullable(),
  deleted: z.boolean(),
  fileHash: z.string(),
  oneshot: z.boolean(),
});
export type KomgaBook = z.infer<typeof BookSchema>;

export const PageSchema = z.object({
  number: z.number().int(),
  fileName: z.string(),
  mediaType: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  sizeBytes: z.number().int().nullable(),
  size: z.string(),
});
export type KomgaPage = z.infer<typeof PageSchema>;

export const LibrarySchema = z.object({
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
export type KomgaLibrary = z.infer<typeof LibrarySchema>;

export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  sharedAllLibraries: z.boolean(),
  sharedLibrariesIds: z.array(z.string()),
  labelsAllow: z.array(z.string()),
  labelsExclude: z.array(z.string()),
  ageRestriction: z.object({ age: z.number().int(), restriction: z.string() }).nullable(),
});
export type KomgaUser = z.infer<typeof UserSchema>;

/** Mihon's tracker (`TachiyomiReadProgressV2Dto`). */
export const TachiyomiReadProgressSchema = z.object({
  booksCount: z.number().int(),
  booksReadCount: z.number().int(),
  booksUnreadCount: z.number().int(),
  booksInProgressCount: z.number().int(),
  lastReadContinuousNumberSort: z.number(),
  maxNumberSort: z.number(),
});
export type TachiyomiReadProgress = z.infer<typeof TachiyomiReadProgressSchema>;

/** The v1 tracker of older Tachiyomi forks (`TachiyomiReadProgressDto`). */
export const TachiyomiReadProgressV1Schema = TachiyomiReadProgressSchema.omit({
  lastReadContinuousNumberSort: true,
  maxNumberSort: true,
}).extend({ lastReadContinuousIndex: z.number().int() });
export type TachiyomiReadProgressV1 = z.infer<typeof TachiyomiReadProgressV1Schema>;

// ---- request bodies -------------------------------------------------------------------------------

/** `PATCH /books/{id}/read-progress` (Komga `ReadProgressUpdateDto`): page is required unless completed. */
export const ReadProgressUpdateSchema = z.object({
  page: z.number().int().min(1).optional(),
  completed: z.boolean().optional(),
});

/** `PUT /api/v2/series/{id}/read-progress/tachiyomi` (Komga `TachiyomiReadProgressUpdateV2Dto`). */
export const TachiyomiReadProgressUpdateSchema = z.object({
  lastBookNumberSortRead: z.number(),
});

/** `PUT /api/v1/series/{id}/read-progress/tachiyomi` (Komga `TachiyomiReadProgressUpdateDto`). */
export const TachiyomiReadProgressUpdateV1Schema = z.object({
  lastBookRead: z.number().int().min(0),
});
