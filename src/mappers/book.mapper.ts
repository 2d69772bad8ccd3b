/** Book and ReadProgress responses (API.md §2) from repository rows. */
import { coverVersion } from '../catalog/cover-version';
import type { BookRow } from '../repositories/books.repository';
import type { ReadProgressRecord } from '../repositories/read-progress.repository';
import type { BookDto } from '../schemas/book.schema';
import type { ReadProgressDto } from '../schemas/read-progress.schema';

/**
 * The device a reader app is shown as the last writer of a progress: the one it named itself when it pushed
 * (KOReader, Readium progression), else Longbox's attribution (the API key or the User-Agent hash).
 */
export function readerFacingDevice(
  record: Pick<ReadProgressRecord, 'deviceId' | 'deviceName' | 'readerDeviceId' | 'readerDeviceName'>,
): { id: string; name: string } {
  if (record.readerDeviceId !== null) return { id: record.readerDeviceId, name: record.readerDeviceName ?? '' };
  return { id: record.deviceId ?? 'unknown', name: record.deviceName ?? 'unknown' };
}

export function toReadProgressDto(
  record: Omit<ReadProgressRecord, 'deviceId' | 'deviceName' | 'readerDeviceId' | 'readerDeviceName'>,
): ReadProgressDto {
  return {
    id: record.id,
    bookId: record.bookId,
    userId: record.userId,
    currentPage: record.currentPage,
    completed: record.completed,
    completedAt: record.completedAt,
    progressPercentage: record.progressPercentage,
    locator: record.locator,
    startedAt: record.startedAt,
    updatedAt: record.updatedAt,
  };
}

export function toBookDto(row: BookRow): BookDto {
  const progress = row.progress;
  return {
    id: row.id,
    title: row.title,
    titleSort: row.titleSort,
    summary: row.summary,
    libraryId: row.libraryId,
    libraryName: row.libraryName,
    seriesId: row.seriesId,
    seriesName: row.seriesName,
    path: row.path,
    fileFormat: row.fileFormat,
    fileSize: row.fileSize,
    fileHash: row.fileHash,
    readerHash: row.readerHash,
    pageCount: row.pageCount,
    analyzed: row.analyzed,
    analysisError: row.analysisError,
    number: row.number,
    numberSort: row.numberSort,
    volume: row.volume,
    chapter: row.chapter,
    ageRating: row.ageRating,
    // The series setting wins, then the book's own metadata, then the library default.
    readingDirection: row.seriesReadingDirection ?? row.bookReadingDirection ?? row.libraryReadingDirection,
    ...(progress ? { readProgress: toReadProgressDto({ ...progress, bookId: row.id }) } : {}),
    wantToRead: row.wantToRead,
    deleted: row.deletedAt !== null,
    coverVersion: coverVersion(row.coverSource),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
