/**
 * The JSON a Kobo reads and sends, in Kobo's own casing (UpperCamelCase) and shapes, as Komga's DTOs
 * (gotson/komga `interfaces/api/kobo/dto/`) and device logs (gotson/komga#2426) show them. Dates are ISO 8601
 * in UTC with milliseconds (`2026-09-08T18:14:23.129Z`, what the device itself sends); fields without a value
 * are left out rather than sent as null, except where Komga sends null and devices are known to accept it.
 */
import { z } from 'zod';
import type { KoboBookRow } from '../repositories/kobo-sync.repository';
import type { KoboBookmark, KoboStatus } from './kobo-progress';

/** Kobo's placeholder category and genre: every imported book gets it (Komga's DUMMY_ID). */
const DUMMY_ID = '00000000-0000-0000-0000-000000000001';

export type KoboFormat = 'EPUB3' | 'EPUB3FL';

export interface KoboDownloadUrl {
  DrmType: 'None';
  Format: KoboFormat;
  Size: number;
  Platform: 'Generic';
  Url: string;
}

export interface KoboBookMetadata {
  Categories: string[];
  ContributorRoles: Array<{ Name: string }>;
  Contributors: string[];
  CoverImageId: string;
  CrossRevisionId: string;
  CurrentDisplayPrice: { CurrencyCode: string; TotalAmount: number };
  CurrentLoveDisplayPrice: { TotalAmount: number };
  Description: string;
  DownloadUrls: KoboDownloadUrl[];
  EntitlementId: string;
  ExternalIds: string[];
  Genre: string;
  IsEligibleForKoboLove: boolean;
  IsInternetArchive: boolean;
  IsPreOrder: boolean;
  IsSocialEnabled: boolean;
  Isbn?: string;
  Language: string;
  PhoneticPronunciations: Record<string, string>;
  PublicationDate: string;
  Publisher: { Imprint: string; Name: string };
  RevisionId: string;
  Series?: { Id: string; Name: string; Number: string; NumberFloat: number };
  Title: string;
  WorkId: string;
}

export interface KoboBookEntitlement {
  Accessibility: 'Full';
  ActivePeriod: { From: string };
  Created: string;
  CrossRevisionId: string;
  Id: string;
  IsHiddenFromArchive: boolean;
  IsLocked: boolean;
  IsRemoved: boolean;
  LastModified: string;
  OriginCategory: 'Imported';
  RevisionId: string;
  Status: 'Active';
}

export interface KoboReadingState {
  Created: string;
  CurrentBookmark: KoboBookmark & { LastModified: string };
  EntitlementId: string;
  LastModified: string;
  PriorityTimestamp: string;
  Statistics: { LastModified: string; SpentReadingMinutes?: number; RemainingTimeMinutes?: number };
  StatusInfo: {
    LastModified: string;
    Status: KoboStatus;
    TimesStartedReading: number;
    LastTimeStartedReading?: string;
    LastTimeFinished?: string;
  };
}

export interface KoboTag {
  Id: string;
  Created: string;
  LastModified: string;
  Name: string;
  Type: 'UserTag';
  Items?: Array<{ RevisionId: string; Type: 'ProductRevisionTagItem' }>;
}

/** One item of a sync answer: each is an object with one key naming its kind. */
export type KoboSyncItem =
  | { NewEntitlement: KoboEntitlementContainer }
  | { ChangedEntitlement: KoboEntitlementContainer }
  | { ChangedProductMetadata: KoboBookMetadata }
  | { ChangedReadingState: { ReadingState: KoboReadingState } }
  | { NewTag: { Tag: KoboTag } }
  | { ChangedTag: { Tag: KoboTag } }
  | { DeletedTag: { Tag: KoboTag } };

export interface KoboEntitlementContainer {
  BookEntitlement: KoboBookEntitlement;
  BookMetadata: KoboBookMetadata;
  ReadingState?: KoboReadingState;
}

/** A date as Kobo is sent one. */
export const koboDate = (at: string | Date) => new Date(at).toISOString();

/** What a book's metadata DTO is made from (the sync repository's row, with the URLs worked out). */
export type MetadataSource = Pick<
  KoboBookRow,
  | 'id'
  | 'title'
  | 'summary'
  | 'authors'
  | 'isbn'
  | 'language'
  | 'publisher'
  | 'year'
  | 'month'
  | 'day'
  | 'number'
  | 'numberSort'
  | 'seriesId'
  | 'seriesTitle'
  | 'createdAt'
> & {
  coverImageId: string;
  download: KoboDownloadUrl;
};

/** The book's release date (its year, month, day), else when it was added: Kobo needs one. */
function publicationDate(book: Pick<MetadataSource, 'year' | 'month' | 'day' | 'createdAt'>): string {
  if (book.year === null) return koboDate(book.createdAt);
  return koboDate(new Date(Date.UTC(book.year, (book.month ?? 1) - 1, book.day ?? 1)));
}

export function bookMetadata(book: MetadataSource): KoboBookMetadata {
  const names = [...new Set(book.authors.map((a) => a.name))];
  const number = book.numberSort ?? book.number;
  return {
    Categories: [DUMMY_ID],
    ContributorRoles: names.map((Name) => ({ Name })),
    Contributors: names,
    CoverImageId: book.coverImageId,
    CrossRevisionId: book.id,
    CurrentDisplayPrice: { CurrencyCode: 'USD', TotalAmount: 0 },
    CurrentLoveDisplayPrice: { TotalAmount: 0 },
    // Kobo keeps the old description when this is empty (Komga): a blank one replaces it.
    Description: book.summary?.trim() ? book.summary : ' ',
    DownloadUrls: [book.download],
    EntitlementId: book.id,
    ExternalIds: [],
    Genre: DUMMY_ID,
    IsEligibleForKoboLove: false,
    IsInternetArchive: false,
    IsPreOrder: false,
    IsSocialEnabled: true,
    ...(book.isbn ? { Isbn: book.isbn } : {}),
    // Kobo wants a two-letter language.
    Language: /^[A-Za-z]{2}/.test(book.language ?? '') ? (book.language as string).slice(0, 2).toLowerCase() : 'en',
    PhoneticPronunciations: {},
    PublicationDate: publicationDate(book),
    Publisher: { Imprint: '', Name: book.publisher ?? '' },
    RevisionId: book.id,
    // A book without a number has no place in its series the device could sort by.
    ...(number !== null
      ? { Series: { Id: book.seriesId, Name: book.seriesTitle, Number: String(number), NumberFloat: number } }
      : {}),
    Title: book.title,
    WorkId: book.id,
  };
}

/** Metadata for a book the device must drop: only its ids matter (Komga's getMetadataForRemovedBook). */
export function removedBookMetadata(bookId: string): KoboBookMetadata {
  return {
    ...bookMetadata({
      id: bookId,
      title: bookId,
      summary: null,
      authors: [],
      isbn: null,
      language: null,
      publisher: null,
      year: null,
      month: null,
      day: null,
      number: null,
      numberSort: null,
      seriesId: bookId,
      seriesTitle: '',
      createdAt: new Date(0).toISOString(),
      coverImageId: bookId,
      download: { DrmType: 'None', Format: 'EPUB3', Size: 0, Platform: 'Generic', Url: '' },
    }),
    DownloadUrls: [],
  };
}

export function bookEntitlement(
  book: { id: string; createdAt: string; fileModifiedAt: string },
  removed: boolean,
  now: Date,
): KoboBookEntitlement {
  return {
    Accessibility: 'Full',
    ActivePeriod: { From: koboDate(now) },
    Created: koboDate(book.createdAt),
    CrossRevisionId: book.id,
    Id: book.id,
    IsHiddenFromArchive: false,
    IsLocked: false,
    IsRemoved: removed,
    LastModified: koboDate(book.fileModifiedAt),
    OriginCategory: 'Imported',
    RevisionId: book.id,
    Status: 'Active',
  };
}

/** A reading state: the progress's bookmark and status, dated when the progress last moved (or the book was added). */
export function readingState(
  bookId: string,
  createdAt: string,
  progress: { startedAt: string; updatedAt: string; completedAt: string | null; completed: boolean } | null,
  bookmark: KoboBookmark,
  status: KoboStatus,
): KoboReadingState {
  const modified = koboDate(progress?.updatedAt ?? createdAt);
  return {
    Created: koboDate(createdAt),
    CurrentBookmark: { LastModified: modified, ...bookmark },
    EntitlementId: bookId,
    LastModified: modified,
    PriorityTimestamp: modified,
    Statistics: { LastModified: modified },
    StatusInfo: {
      LastModified: modified,
      Status: status,
      TimesStartedReading: progress ? 1 : 0,
      ...(progress ? { LastTimeStartedReading: koboDate(progress.startedAt) } : {}),
      ...(progress?.completed && progress.completedAt ? { LastTimeFinished: koboDate(progress.completedAt) } : {}),
    },
  };
}

export function tag(
  shelf: { id: string; name: string; createdAt: string; updatedAt: string },
  bookIds?: readonly string[],
): { Tag: KoboTag } {
  return {
    Tag: {
      Id: shelf.id,
      Created: koboDate(shelf.createdAt),
      LastModified: koboDate(shelf.updatedAt),
      Name: shelf.name,
      Type: 'UserTag',
      ...(bookIds ? { Items: bookIds.map((id) => ({ RevisionId: id, Type: 'ProductRevisionTagItem' as const })) } : {}),
    },
  };
}

// --- what the device sends -------------------------------------------------------------------------------

const percent = z.number().finite().min(0).max(100).nullish();
const date = z.string().max(64).nullish();

/** `PUT v1/library/{id}/state`: the device's reading state (only the first one is read, as Komga does). */
export const ReadingStateUpdateSchema = z.object({
  ReadingStates: z
    .array(
      z.object({
        EntitlementId: z.string().max(200).nullish(),
        LastModified: date,
        CurrentBookmark: z
          .object({
            ProgressPercent: percent,
            ContentSourceProgressPercent: percent,
            Location: z
              .object({
                Value: z.string().max(1024).nullish(),
                Type: z.string().max(64).nullish(),
                Source: z.string().max(1024).nullish(),
              })
              .nullish(),
          })
          .nullish(),
        StatusInfo: z.object({ Status: z.enum(['ReadyToRead', 'Reading', 'Finished']) }).nullish(),
        Statistics: z
          .object({
            SpentReadingMinutes: z.number().int().min(0).max(10_000_000).nullish(),
            RemainingTimeMinutes: z.number().int().min(0).max(10_000_000).nullish(),
          })
          .nullish(),
      }),
    )
    .min(1),
});
export type ReadingStateUpdate = z.infer<typeof ReadingStateUpdateSchema>;

export interface KoboUpdateResult {
  RequestResult: 'Success';
  UpdateResults: Array<{
    EntitlementId: string;
    CurrentBookmarkResult: { Result: 'Success' | 'Ignored' };
    StatisticsResult: { Result: 'Success' | 'Ignored' };
    StatusInfoResult: { Result: 'Success' | 'Ignored' };
  }>;
}
