/**
 * Longbox rows → Komga DTOs. Where the two models differ the mapping is explicit here:
 * - dates lose their milliseconds (Komga's `yyyy-MM-dd'T'HH:mm:ss'Z'`);
 * - a book's Komga `number` is its 1-based place in reading order, `metadata.numberSort` its issue number,
 *   else its chapter, else that place (Mihon uses numberSort as the chapter number and for its tracker);
 * - page numbers are 1-based in both APIs, so they pass through unchanged;
 * - `media.status` is READY once analysis found pages, ERROR when it failed, UNKNOWN before;
 * - reading directions and series statuses become Komga's enum names.
 */
import type { BookPageEntry } from '../schemas/page.schema';
import type { LibraryDto } from '../schemas/library.schema';
import type { UserRecord } from '../repositories/users.repository';
import type { UserAccessRecord } from '../repositories/user-access.repository';
import type { KomgaBookRow, KomgaSeriesRow } from '../repositories/komga-catalog.repository';
import type { KomgaBook, KomgaLibrary, KomgaPage, KomgaSeries, KomgaUser } from './komga.dto';
import type { Permission } from '../auth/permissions';
import { readerFacingDevice } from '../mappers/book.mapper';

export function komgaDate(iso: string | null | undefined): string {
  const parsed = iso ? new Date(iso) : new Date(0);
  const valid = Number.isNaN(parsed.getTime()) ? new Date(0) : parsed;
  return `${valid.toISOString().slice(0, 19)}Z`;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** Komga's BinaryByteUnit.format: `523 B`, `1.5 MiB` (one decimal at most). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${UNITS[unit]}`;
}

const DIRECTIONS: Record<string, string> = {
  ltr: 'LEFT_TO_RIGHT',
  rtl: 'RIGHT_TO_LEFT',
  ttb: 'VERTICAL',
  webtoon: 'WEBTOON',
};

/** Longbox keeps the status as the metadata said it; Komga knows four, ONGOING by default. */
export function komgaStatus(status: string | null): KomgaSeries['metadata']['status'] {
  const value = status?.trim().toLowerCase() ?? '';
  if (/^(ended|completed?|finished)$/.test(value)) return 'ENDED';
  if (/^(abandoned|cancell?ed|discontinued)$/.test(value)) return 'ABANDONED';
  if (/^(hiatus|on hiatus|paused)$/.test(value)) return 'HIATUS';
  return 'ONGOING';
}

/** Longbox status values that a Komga status filter matches (compared case-insensitively). */
export const STATUS_VALUES: Record<KomgaSeries['metadata']['status'], string[]> = {
  ENDED: ['ended', 'complete', 'completed', 'finished'],
  ABANDONED: ['abandoned', 'cancelled', 'canceled', 'discontinued'],
  HIATUS: ['hiatus', 'on hiatus', 'paused'],
  ONGOING: ['ongoing', 'continuing'],
};

export function toKomgaSeries(row: KomgaSeriesRow): KomgaSeries {
  const created = komgaDate(row.createdAt);
  const lastModified = komgaDate(row.updatedAt);
  // As Longbox's books do: the series' setting, then what its books say, then the library default.
  const direction = row.readingDirection ?? row.booksReadingDirection ?? row.libraryReadingDirection;
  return {
    id: row.id,
    libraryId: row.libraryId,
    name: row.title,
    // Komga hides the server path from non-admin users the same way.
    url: '',
    created,
    lastModified,
    fileLastModified: komgaDate(row.fileLastModified ?? row.updatedAt),
    booksCount: row.readCounts.books,
    booksReadCount: row.readCounts.read,
    booksUnreadCount: row.readCounts.books - row.readCounts.read - row.readCounts.inProgress,
    booksInProgressCount: row.readCounts.inProgress,
    metadata: {
      status: komgaStatus(row.status),
      statusLock: row.locks.status,
      title: row.title,
      titleLock: row.locks.title,
      titleSort: row.titleSort,
      titleSortLock: row.locks.titleSort,
      summary: row.summary ?? '',
      summaryLock: row.locks.summary,
      readingDirection: DIRECTIONS[direction] ?? '',
      readingDirectionLock: row.locks.readingDirection,
      publisher: row.publisher ?? '',
      publisherLock: row.locks.publisher,
      ageRating: row.ageRating,
      ageRatingLock: row.ageRatingLock,
      language: row.language ?? '',
      languageLock: row.locks.language,
      genres: row.genres,
      genresLock: row.locks.genres,
      tags: row.tags,
      tagsLock: row.locks.tags,
      totalBookCount: row.totalBookCount,
      totalBookCountLock: row.locks.totalBookCount,
      sharingLabels: [...row.sharingLabels].sort(),
      sharingLabelsLock: row.sharingLabelsLock,
      links: row.links,
      linksLock: row.locks.links,
      alternateTitles: row.alternateTitles,
      alternateTitlesLock: row.locks.alternateTitles,
      created,
      lastModified,
    },
    booksMetadata: {
      authors: row.authors,
      tags: row.bookTags,
      releaseDate: row.year ? `${String(row.year).padStart(4, '0')}-01-01` : null,
      summary: row.bookSummary?.summary ?? '',
      summaryNumber: row.bookSummary?.number ?? '',
      created,
      lastModified,
    },
    deleted: row.deletedAt !== null,
    oneshot: false,
  };
}

/** Komga's `media.mediaType` per format; its file download is typed the same. */
export const KOMGA_MEDIA_TYPES: Record<KomgaBookRow['fileFormat'], string> = {
  cbz: 'application/zip',
  cbr: 'application/x-rar-compressed; version=4',
  epub: 'application/epub+zip',
  pdf: 'application/pdf',
};

/** Komga's media profile per format (its MediaType's profile): what a book shows and a `mediaProfile` search tests. */
export const PROFILES: Record<KomgaBookRow['fileFormat'], KomgaBook['media']['mediaProfile']> = {
  cbz: 'DIVINA',
  cbr: 'DIVINA',
  epub: 'EPUB',
  pdf: 'PDF',
};

export function mediaStatus(row: Pick<KomgaBookRow, 'analysisError' | 'pageCount'>): KomgaBook['media']['status'] {
  if (row.analysisError) return 'ERROR';
  return row.pageCount > 0 ? 'READY' : 'UNKNOWN';
}

/** The sort number Mihon and its tracker see: the book's number with its fraction (2.5), else its place in reading order. */
export function numberSort(row: Pick<KomgaBookRow, 'numberSort' | 'position'>): number {
  return row.numberSort ?? row.position ?? 0;
}

/** Komga's `releaseDate` (a LocalDate) from the book's year, month and day (the first of what is missing). */
function releaseDate(row: Pick<KomgaBookRow, 'year' | 'month' | 'day'>): string | null {
  if (!row.year) return null;
  const two = (n: number | null) => String(n ?? 1).padStart(2, '0');
  return `${String(row.year).padStart(4, '0')}-${two(row.month)}-${two(row.day)}`;
}

export function toKomgaBook(row: KomgaBookRow): KomgaBook {
  const created = komgaDate(row.createdAt);
  const lastModified = komgaDate(row.updatedAt);
  const sort = numberSort(row);
  const { progress } = row;
  return {
    id: row.id,
    seriesId: row.seriesId,
    seriesTitle: row.seriesTitle,
    libraryId: row.libraryId,
    name: row.title,
    url: row.fileName,
    number: row.position ?? 0,
    created,
    lastModified,
    fileLastModified: komgaDate(row.fileModifiedAt),
    sizeBytes: row.fileSize,
    size: formatBytes(row.fileSize),
    media: {
      status: mediaStatus(row),
      mediaType: KOMGA_MEDIA_TYPES[row.fileFormat],
      pagesCount: row.pageCount,
      comment: row.analysisError ?? '',
      // An image-only EPUB is read page by page like a comic (DECISIONS.md §Books).
      epubDivinaCompatible: row.fileFormat === 'epub' && row.epubLayout === 'image',
      epubIsKepub: false,
      mediaProfile: PROFILES[row.fileFormat],
    },
    metadata: {
      title: row.title,
      titleLock: row.locks.title,
      summary: row.summary ?? '',
      summaryLock: row.locks.summary,
      number: String(sort),
      numberLock: row.locks.number,
      numberSort: sort,
      numberSortLock: row.locks.numberSort,
      releaseDate: releaseDate(row),
      releaseDateLock: row.locks.releaseDate,
      authors: row.authors,
      authorsLock: row.locks.authors,
      tags: row.tags,
      tagsLock: row.locks.tags,
      isbn: row.isbn ?? '',
      isbnLock: row.locks.isbn,
      links: row.links,
      linksLock: row.locks.links,
      created,
      lastModified,
    },
    readProgress: progress
      ? {
          page: progress.currentPage,
          completed: progress.completed,
          readDate: komgaDate(progress.updatedAt),
          created: komgaDate(progress.startedAt),
          lastModified: komgaDate(progress.updatedAt),
          deviceId: readerFacingDevice(progress).id,
          deviceName: readerFacingDevice(progress).name,
        }
      : null,
    deleted: row.deletedAt !== null,
    fileHash: row.fileHash,
    oneshot: false,
  };
}

export function toKomgaPage(page: BookPageEntry): KomgaPage {
  return {
    number: page.number,
    fileName: page.fileName,
    mediaType: page.mediaType,
    width: page.width,
    height: page.height,
    sizeBytes: page.size,
    size: formatBytes(page.size),
  };
}

/** Komga's library settings have no Longbox equivalent except the scan schedule; the rest are Komga's defaults. */
export function toKomgaLibrary(library: LibraryDto, showRoot: boolean): KomgaLibrary {
  const scanning = library.scanning_config;
  return {
    id: library.id,
    name: library.name,
    root: showRoot ? library.path : '',
    importComicInfoBook: true,
    importComicInfoSeries: true,
    importComicInfoCollection: false,
    importComicInfoReadList: false,
    importComicInfoSeriesAppendVolume: false,
    importEpubBook: true,
    importEpubSeries: true,
    importMylarSeries: false,
    importLocalArtwork: false,
    importBarcodeIsbn: false,
    scanForceModifiedTime: false,
    scanInterval: scanning.enabled && scanning.cron_schedule ? 'DAILY' : 'DISABLED',
    scanOnStartup: scanning.scan_on_start,
    scanCbx: true,
    scanPdf: true,
    scanEpub: true,
    scanDirectoryExclusions: [],
    repairExtensions: false,
    convertToCbz: false,
    emptyTrashAfterScan: false,
    seriesCover: 'FIRST',
    hashFiles: true,
    hashPages: false,
    hashKoreader: true,
    analyzeDimensions: true,
    oneshotsDirectory: null,
    unavailable: false,
  };
}

/**
 * Komga roles from Longbox permissions: ADMIN for SystemAdmin, FILE_DOWNLOAD with BooksRead (the file
 * route's permission), PAGE_STREAMING with PagesRead; every user has USER.
 */
export function toKomgaUser(
  user: UserRecord,
  permissions: ReadonlySet<Permission>,
  access: UserAccessRecord,
): KomgaUser {
  const roles = ['USER'];
  const admin = permissions.has('SystemAdmin');
  if (admin) roles.push('ADMIN');
  if (admin || permissions.has('BooksRead')) roles.push('FILE_DOWNLOAD');
  if (admin || permissions.has('PagesRead')) roles.push('PAGE_STREAMING');
  // Komga (UserDto.toDto): names lower-cased, the allowed ones without the excluded ones.
  const names = (mode: 'allow' | 'deny') =>
    access.labels.filter((l) => l.mode === mode).map((l) => l.name.toLowerCase());
  const labelsExclude = names('deny');
  return {
    id: user.id,
    email: user.email,
    roles,
    sharedAllLibraries: access.sharedAllLibraries,
    sharedLibrariesIds: access.sharedAllLibraries ? [] : access.libraryIds,
    labelsAllow: names('allow').filter((name) => !labelsExclude.includes(name)),
    labelsExclude,
    // Present as null when there is none: komga-client requires the key (test/support/clients/komelia-users.ts).
    ageRestriction: access.ageRestriction && {
      age: access.ageRestriction.age,
      restriction: access.ageRestriction.mode,
    },
  };
}
